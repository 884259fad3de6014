/**
 * Colours of the block grid. Page state is carried by lightness (free light, valid mid,
 * invalid dark) so it survives every kind of colour blindness; block roles use the
 * Okabe–Ito palette for hue; erase-count heat uses cividis (designed for colour-vision
 * deficiency, monotone in lightness).
 */
import { interpolateCividis } from 'd3';

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
export const BACKGROUND = '#ffffff';
/** GC victim outline (vermillion) and the current operation's marker. */
export const VICTIM_OUTLINE = '#d55e00';
export const OP_MARK = '#000000';

/** '#rrggbb' or 'rgb(r, g, b)' → [r, g, b]. */
export function rgb(color: string): [number, number, number] {
  if (color.startsWith('rgb')) {
    const [r, g, b] = color.match(/\d+/g)!.map(Number);
    return [r, g, b];
  }
  const v = parseInt(color.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** One colour as a 32-bit pixel for a Uint32Array view over ImageData (little-endian RGBA). */
export function pixel([r, g, b]: [number, number, number]): number {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

function mix(c: [number, number, number], to: [number, number, number], t: number): [number, number, number] {
  return [0, 1, 2].map((i) => Math.round(c[i] + (to[i] - c[i]) * t)) as [number, number, number];
}

/** Pixels per (role, state) in role mode: `ROLE_PIXELS[role * 3 + state]`. */
export const ROLE_PIXELS = new Uint32Array(ROLES.length * 3);
ROLES.forEach((r, i) => {
  ROLE_PIXELS[i * 3] = pixel(rgb(FREE_PAGE));
  ROLE_PIXELS[i * 3 + 1] = pixel(rgb(r.color));
  ROLE_PIXELS[i * 3 + 2] = pixel(rgb(INVALID_PAGE));
});

/** Heat steps (erase count scaled to 0..HEAT_STEPS-1). */
export const HEAT_STEPS = 64;

/** Pixels per (heat step, state) in heat mode: valid = heat colour, free lighter, invalid darker. */
export const HEAT_PIXELS = new Uint32Array(HEAT_STEPS * 3);
for (let h = 0; h < HEAT_STEPS; h++) {
  const c = rgb(interpolateCividis(h / (HEAT_STEPS - 1)));
  HEAT_PIXELS[h * 3] = pixel(mix(c, [255, 255, 255], 0.65));
  HEAT_PIXELS[h * 3 + 1] = pixel(c);
  HEAT_PIXELS[h * 3 + 2] = pixel(mix(c, [0, 0, 0], 0.55));
}

/** CSS colour of heat step `h` (legend). */
export function heatColor(t: number): string {
  return interpolateCividis(Math.max(0, Math.min(1, t)));
}
