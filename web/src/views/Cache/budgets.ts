/**
 * Colours of the RAM budget bar. Engines name a structure's unused share "<name> (free)"
 * (the inspection's convention: `ram_used` leaves those out), so free space is drawn as a
 * pale band in its structure's colour, or grey when it belongs to no named structure; each
 * structure gets its own colour.
 */

/** Colours the bar cycles through. */
export const COLOURS = 6;

/** One segment of the bar. */
export interface Segment {
  name: string;
  bytes: number;
  /** Colour index (0..COLOURS-1), or null for unattributed free space. */
  colour: number | null;
  free: boolean;
}

const FREE = /\s*\(free\)$/;

export function budgetSegments(budgets: { name: string; bytes: number }[]): Segment[] {
  const colourOf = new Map<string, number>();
  for (const b of budgets)
    if (!FREE.test(b.name) && !colourOf.has(b.name)) colourOf.set(b.name, colourOf.size % COLOURS);
  return budgets.map((b) => {
    const free = FREE.test(b.name);
    return {
      name: b.name,
      bytes: b.bytes,
      free,
      colour: colourOf.get(free ? b.name.replace(FREE, '') : b.name) ?? null,
    };
  });
}
