// Page states must be told apart at 3 : 1 or more (WCAG 1.4.11, graphics),
// for every block role, also under simulated colour blindness; before the fix the free
// swatch was 1.19 : 1 against the panel and valid vs invalid 2.09 : 1.
import { describe, expect, it } from 'vitest';
import { BLOCK_ROLE as R } from '../../engine/codes';
import { BACKGROUND, contrast, FREE_PAGE, INVALID_PAGE, PANEL, rgb, ROLES } from './palette';

/** Machado, Oliveira & Fernandes (2009) matrices at severity 1, applied in linear RGB. */
const CVD: Record<string, number[][]> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

function simulate(color: string, m: number[][]): string {
  const lin = rgb(color).map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
  const out = m.map((row) => Math.min(1, Math.max(0, row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2])));
  const enc = out.map((c) => Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055)));
  return `rgb(${enc.join(', ')})`;
}

/** CIE76 colour difference (ΔE*ab) of two colours, through CIELAB (D65). */
function deltaE(a: string, b: string): number {
  const lab = (color: string) => {
    const [r, g, bl] = rgb(color).map((v) =>
      v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
    );
    const xyz = [
      (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047,
      0.2126 * r + 0.7152 * g + 0.0722 * bl,
      (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883,
    ];
    const [fx, fy, fz] = xyz.map((t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116));
    return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
  };
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** Roles one scheme shows side by side for its logical blocks (besides free). */
const SHOWN_TOGETHER: Record<string, number[]> = {
  rftl: [R.primary, R.replacement, R.buffer],
  nftl: [R.primary, R.replacement],
  dac: [R.translation, R.primary, R.replacement],
  gftl: [R.data, R.buffer, R.cleaning],
};

const valid = ROLES.slice(1); // role 0 is a free block, which holds no valid page

describe('block grid palette contrast', () => {
  it('free, valid (every role) and invalid pages are 3 : 1 apart', () => {
    for (const r of valid) {
      expect(contrast(r.color, FREE_PAGE), `${r.name} vs free`).toBeGreaterThanOrEqual(3);
      expect(contrast(r.color, INVALID_PAGE), `${r.name} vs invalid`).toBeGreaterThanOrEqual(3);
    }
    expect(contrast(FREE_PAGE, INVALID_PAGE)).toBeGreaterThanOrEqual(3);
  });

  it('free cells stand out from the seams around them, and the free swatch from the panel', () => {
    expect(contrast(FREE_PAGE, BACKGROUND)).toBeGreaterThanOrEqual(3);
    // The legend's free swatch is white with a BACKGROUND border on the panel.
    expect(contrast(BACKGROUND, PANEL)).toBeGreaterThanOrEqual(3);
  });

  it('keeps 3 : 1 between page states under simulated protanopia, deuteranopia and tritanopia', () => {
    for (const [kind, m] of Object.entries(CVD)) {
      for (const r of valid) {
        const c = simulate(r.color, m);
        expect(contrast(c, simulate(FREE_PAGE, m)), `${kind}: ${r.name} vs free`).toBeGreaterThanOrEqual(3);
        expect(contrast(c, simulate(INVALID_PAGE, m)), `${kind}: ${r.name} vs invalid`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it("tells apart the roles a scheme gives its logical blocks' blocks, also under protanopia and deuteranopia", () => {
    // Lightness is the page state's, so these roles differ in hue: ΔE*ab ≥ 40 to normal
    // vision and ≥ 20 (clearly visible side by side) through the red-green simulations.
    // The primary and the replacement were both blue before (ΔE 18).
    for (const [scheme, roles] of Object.entries(SHOWN_TOGETHER))
      for (const [i, a] of roles.entries())
        for (const b of roles.slice(i + 1)) {
          const [ca, cb] = [ROLES[a].color, ROLES[b].color];
          const pair = `${scheme}: ${ROLES[a].name} vs ${ROLES[b].name}`;
          expect(deltaE(ca, cb), pair).toBeGreaterThanOrEqual(40);
          for (const kind of ['protanopia', 'deuteranopia'])
            expect(deltaE(simulate(ca, CVD[kind]), simulate(cb, CVD[kind])), `${kind}: ${pair}`).toBeGreaterThanOrEqual(
              20,
            );
        }
  });

  it('computes ratios as WCAG defines them', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrast('#ebebeb', '#ffffff')).toBeCloseTo(1.19, 2); // the old free swatch
  });
});
