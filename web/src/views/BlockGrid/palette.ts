/**
 * Colours of the block grid. Page state is carried by lightness (free light, valid mid,
 * invalid dark) so it survives every kind of colour blindness; block roles use the
 * Okabe–Ito palette for hue.
 */

/** Block roles, indexed by the engine's BlockRole value. */
export const ROLES = [
  { name: 'free', color: '#d9d9d9' },
  { name: 'data', color: '#0072b2' },
  { name: 'translation', color: '#cc79a7' },
  { name: 'log', color: '#e69f00' },
  { name: 'replacement', color: '#56b4e9' },
  { name: 'buffer', color: '#f0e442' },
  { name: 'DTP', color: '#a05195' },
  { name: 'open for writes', color: '#009e73' },
] as const;

export const FREE_PAGE = '#ebebeb';
export const INVALID_PAGE = '#3d3d3d';
export const VICTIM_OUTLINE = '#d55e00';

/** '#rrggbb' → [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}
