import { describe, expect, it } from 'vitest';
import type { RequestTrace } from '../../engine/events';
import { filterLines, linesOf } from './lines';

const trace: RequestTrace = {
  index: 0,
  request: { type: 'request', index: 0, op: 'write', lpn: 5, pages: 1 },
  ops: [
    { type: 'cache_miss', level: 'entry', key: 5 },
    { type: 'flash_read', ppn: 3, block: 0, page: 3, purpose: 'translation', key: 0, ns: 25_000 },
    { type: 'flash_program', ppn: 9, block: 1, page: 1, purpose: 'data', kind: 'Data', key: 5, version: 2, ns: 200_000 },
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
});
