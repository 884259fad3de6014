import { describe, expect, it } from 'vitest';
import type { RequestTrace } from '../../engine/events';
import { filterLines, groupsAround, linesOf } from './lines';
import { program } from '../../test/events';

const trace: RequestTrace = {
  index: 0,
  request: { type: 'request', index: 0, op: 'write', lpn: 5, pages: 1 },
  ops: [
    { type: 'cache_miss', level: 'entry', key: 5 },
    { type: 'flash_read', ppn: 3, block: 0, page: 3, purpose: 'translation', key: 0, ns: 25_000 },
    program({ ppn: 9, block: 1, page: 1, purpose: 'data', key: 5, version: 2 }),
  ],
};

describe('narration log lines', () => {
  it('memoises per request and filters by kind and text', () => {
    const lines = linesOf(trace, 8, { entry: 'CMT' });
    expect(linesOf(trace, 8, { entry: 'CMT' })).toBe(lines);
    expect(lines).toHaveLength(2);
    expect(filterLines(lines, 'write LPN 5', { kind: 'mapping', text: '' }).map((l) => l.first)).toEqual([0]);
    expect(filterLines(lines, 'write LPN 5', { kind: 'all', text: 'version 2' }).map((l) => l.first)).toEqual([2]);
    expect(filterLines(lines, 'write LPN 5', { kind: 'all', text: 'write lpn 5' })).toHaveLength(2);
    expect(filterLines(lines, 'write LPN 5', { kind: 'gc', text: '' })).toEqual([]);
  });

  it('renders the requests around the position: the last ones while playing, growing after', () => {
    const log = [3, 4, 6, 9, 10, 12].map((index) => ({ index }));
    const at = (xs: readonly { index: number }[]) => xs.map((t) => t.index);
    // Playing at request 9: the two requests up to it, none ahead.
    expect(at(groupsAround(log, 9, 2, 0))).toEqual([6, 9]);
    // A position between logged requests (8) counts what precedes it.
    expect(at(groupsAround(log, 8, 1, 1))).toEqual([6, 9]);
    // Before the first and past the last.
    expect(at(groupsAround(log, 0, 2, 2))).toEqual([3, 4]);
    expect(at(groupsAround(log, 99, 2, 2))).toEqual([10, 12]);
    // Grown enough, the log itself (the same array: nothing re-renders for nothing).
    expect(groupsAround(log, 9, 6, 6)).toBe(log);
  });
});
