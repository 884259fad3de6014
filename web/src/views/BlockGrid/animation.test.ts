import { describe, expect, it } from 'vitest';
import { animationMs, OP_ANIMATION_MS, REQUEST_ANIMATION_MS } from './animation';
import type { GridHighlight } from './highlight';

const hl = (moves: number, erased: number): GridHighlight => ({
  victim: -1,
  victimActive: false,
  op: null,
  moves: Array.from({ length: moves }, (_, i) => ({ from: i, to: 100 + i })),
  erased: Array.from({ length: erased }, (_, i) => i),
  merges: [],
});
const at = (op: number) => ({ request: 5, op, ops: op ? 9 : 0 });
const req = (perSecond: number) => ({ unit: 'request' as const, perSecond });
const ops = (perSecond: number) => ({ unit: 'op' as const, perSecond });

describe('animationMs', () => {
  it('animates GC copies and erases in full when stepping by hand', () => {
    expect(animationMs(at(3), hl(1, 0), ops(1), false)).toBe(OP_ANIMATION_MS);
    expect(animationMs(at(0), hl(2, 1), req(20), false)).toBe(REQUEST_ANIMATION_MS);
  });

  it('has nothing to animate without copies or erases', () => {
    expect(animationMs(at(3), hl(0, 0), ops(1), false)).toBe(0);
  });

  it('fits an animation into the time between steps while playing, and skips it when too short', () => {
    expect(animationMs(at(3), hl(1, 0), ops(3), true)).toBeCloseTo((1000 / 3) * 0.8);
    expect(animationMs(at(3), hl(1, 0), ops(30), true)).toBe(0); // 27 ms is not worth it
    expect(animationMs(at(0), hl(1, 0), req(5), true)).toBe(160);
  });

  it('does not animate whole requests when playing faster than 20 a second', () => {
    expect(animationMs(at(0), hl(3, 1), req(100), true)).toBe(0);
    expect(animationMs(at(0), hl(3, 1), req(Infinity), true)).toBe(0);
  });
});
