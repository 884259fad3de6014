import { describe, expect, it } from 'vitest';
import type { RequestTrace } from '../engine/events';
import { mergeLog } from './narrationLog';

const req = (index: number): RequestTrace => ({
  index,
  request: { type: 'request', index, op: 'write', lpn: index, pages: 1 },
  ops: [],
});

describe('mergeLog', () => {
  it('keeps requests sorted and unique, reusing known entries', () => {
    const a = [req(1), req(2)];
    const merged = mergeLog(a, [req(2), req(0), req(5)], 5);
    expect(merged.map((g) => g.index)).toEqual([0, 1, 2, 5]);
    expect(merged[2]).toBe(a[1]);
    expect(mergeLog(merged, [req(1)], 1)).toBe(merged);
  });

  it('drops the requests farthest from the position when full', () => {
    const log = mergeLog([], [...Array(10).keys()].map(req), 0, 10);
    expect(mergeLog(log, [req(10)], 10, 10).map((g) => g.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(mergeLog(log, [req(10)], 0, 10).map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
