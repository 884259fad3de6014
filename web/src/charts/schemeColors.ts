/**
 * The app's one place for scheme colours: a scheme keeps the same colour in every view. The
 * colour is picked by the scheme's place in the engine's own list (`schemesJson()`), so no
 * list of scheme ids is written down here and a new scheme gets the next colour.
 */
import { schemeDark2, schemeSet2, schemeTableau10 } from 'd3';

/** Colours in order: Tableau 10 first (distinct and colour-blind-friendlier), then Dark2, then
 * Set2 (26 in all, for the engine's 20 schemes and a few more). */
const PALETTE: readonly string[] = [...schemeTableau10, ...schemeDark2, ...schemeSet2];

/** The colour of scheme `id`, given every scheme id in the engine's order. */
export function schemeColor(id: string, engineOrder: readonly string[]): string {
  const i = engineOrder.indexOf(id);
  return i < 0 ? '#888888' : PALETTE[i % PALETTE.length];
}
