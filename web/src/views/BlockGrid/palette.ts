/**
 * Colours of the block grid. Page state is carried by lightness, three levels at least
 * 3 : 1 apart (WCAG 1.4.11, graphics): free white, valid mid (every role colour lies in a
 * band of relative luminance 0.12–0.30), invalid near-black. Lightness survives every kind
 * of colour blindness (palette.test.ts checks the ratios, also through simulated
 * protanopia, deuteranopia and tritanopia). Block roles keep the Okabe–Ito hues, the
 * lighter ones darkened into the band. Free cells are white like the panel, so the seams
 * between cells and tiles are a grey 3 : 1 against them: a free block shows as white
 * squares in a grey mesh. Erase-count heat uses cividis (designed for colour-vision
 * deficiency, monotone in lightness).
 *
 * Some schemes give each block a role for its logical block (NFTL, DAC, RFTL: primary and
 * replacement, RFTL also a buffer; GFTL: data, buffer, cleaning destination). The roles one
 * scheme shows together differ in hue (palette.test.ts measures it): the primary keeps the
 * data blue (it is these schemes' data block), the replacement is green, the buffer olive,
 * and GFTL's cleaning destination has the green of a block open for writes (the collection
 * writes it).
 */
import { interpolateCividis } from 'd3';

/** Block roles, indexed by the engine's BlockRole value. */
export const ROLES = [
  { name: 'free', color: '#6e6e6e' },
  { name: 'data', color: '#0072b2' },
  { name: 'translation', color: '#ba6e99' },
  { name: 'log', color: '#b37c00' },
  { name: 'replacement', color: '#2e8b57' },
  { name: 'buffer', color: '#908928' },
  { name: 'DTP', color: '#a05195' },
  { name: 'open for writes', color: '#009e73' },
  { name: 'primary', color: '#0072b2' },
  { name: 'cleaning destination', color: '#009e73' },
] as const;

export const FREE_PAGE = '#ffffff';
export const INVALID_PAGE = '#141414';
/** Seams between cells and gaps between tiles (and the free swatch's border). */
export const BACKGROUND = '#808080';
/** The panel the grid and legend sit on (App.css --panel). */
export const PANEL = '#ffffff';
/** GC victim outline (vermillion) and the current operation's marker. */
export const VICTIM_OUTLINE = '#d55e00';
/** A merge's blocks, outlined in their role colours (data, log, new data block). */
export const MERGE_OUTLINES = { data: ROLES[1].color, log: ROLES[3].color, result: ROLES[7].color } as const;
/** The hovered block's association lines (log ↔ data), black like the page marks. */
export const ASSOCIATION_LINK = '#000000';
export const OP_MARK = '#000000';

/** Relative luminance (WCAG 2) of a colour. */
export function luminance(color: string): number {
  const lin = rgb(color).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

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
