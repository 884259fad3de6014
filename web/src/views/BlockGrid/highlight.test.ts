import { describe, expect, it } from 'vitest';
import type { EngineEvent, RequestTrace } from '../../engine/events';
import { gridHighlight } from './highlight';
import { program } from '../../test/events';

const ops: EngineEvent[] = [
  { type: 'gc_start', victim: 2, valid: 1 },
  { type: 'flash_read', ppn: 17, block: 2, page: 1, purpose: 'gc', key: 9, ns: 25_000 },
  { type: 'flash_program', ppn: 40, block: 5, page: 0, purpose: 'gc', kind: 'Data', key: 9, version: 3, ns: 200_000 },
  { type: 'invalidate', ppn: 17 },
  { type: 'erase', block: 2, purpose: 'gc', ns: 700_000 },
  { type: 'gc_end', victim: 2 },
  { type: 'flash_program', ppn: 41, block: 5, page: 1, purpose: 'data', kind: 'Data', key: 4, version: 8, ns: 200_000 },
];
const trace: RequestTrace = { index: 3, request: { type: 'request', index: 3, op: 'write', lpn: 4, pages: 1 }, ops };

describe('grid highlight', () => {
  it('outlines the victim from the GC start on, and animates each copy as it is programmed', () => {
    expect(gridHighlight(trace, { request: 3, op: 0 + 0, ops: 0 }, 7, 8).victim).toBe(2); // whole request on screen
    expect(gridHighlight(trace, { request: 3, op: 1, ops: 7 }, 7, 8)).toMatchObject({
      victim: 2,
      victimActive: true,
      op: null,
    });
    expect(gridHighlight(trace, { request: 3, op: 2, ops: 7 }, 7, 8).op).toEqual({ kind: 'read', ppn: 17, block: 2 });
    expect(gridHighlight(trace, { request: 3, op: 3, ops: 7 }, 7, 8).moves).toEqual([{ from: 17, to: 40 }]);
    expect(gridHighlight(trace, { request: 3, op: 5, ops: 7 }, 7, 8)).toMatchObject({
      erased: [2],
      op: { kind: 'erase', block: 2 },
    });
  });

  it('falls back to the last GC victim when the request on screen ran no GC', () => {
    const plain: RequestTrace = { ...trace, ops: ops.slice(6) };
    expect(gridHighlight(plain, { request: 4, op: 0, ops: 0 }, 7, 8)).toMatchObject({
      victim: 7,
      victimActive: false,
      moves: [],
    });
    expect(gridHighlight(null, { request: 0, op: 0, ops: 0 }, -1, 8).victim).toBe(-1);
  });

  it('lists every copy and erase of a request shown whole', () => {
    expect(gridHighlight(trace, { request: 4, op: 0, ops: 0 }, 2, 8)).toMatchObject({
      moves: [{ from: 17, to: 40 }],
      erased: [2],
    });
  });
});

describe('grid highlight of a merge', () => {
  // A partial merge as blockmap.rs does it: read, invalidate, program (merge purpose), then
  // the old data block's erase, the merge event, the end of the run.
  const merge: EngineEvent[] = [
    { type: 'gc_start', victim: 6, valid: 2 },
    { type: 'flash_read', ppn: 10, block: 2, page: 2, purpose: 'merge', key: 2, ns: 25_000 },
    { type: 'invalidate', ppn: 10 },
    program({ ppn: 26, block: 6, page: 2, purpose: 'merge', key: 2, version: 3 }),
    { type: 'erase', block: 2, purpose: 'merge', ns: 700_000 },
    {
      type: 'merge',
      kind: 'partial',
      lbn: 0,
      data_block: 2,
      log_block: 6,
      result_block: 6,
      cause: 'in_order',
      written: 2,
      degree: 1,
    },
    { type: 'gc_end', victim: 6 },
    program({ ppn: 33, block: 8, page: 1, purpose: 'log', key: 5, version: 9 }),
  ];
  const t: RequestTrace = {
    index: 9,
    request: { type: 'request', index: 9, op: 'write', lpn: 5, pages: 1 },
    ops: merge,
  };
  const mark = { kind: 'partial', lbn: 0, data: 2, log: 6, result: 6 };

  it('animates a merge copy (read, invalidate, program) like a GC copy, and the erase', () => {
    expect(gridHighlight(t, { request: 9, op: 0, ops: 0 }, -1, 4)).toMatchObject({
      moves: [{ from: 10, to: 26 }],
      erased: [2],
      merges: [mark],
    });
    expect(gridHighlight(t, { request: 9, op: 3, ops: 8 }, -1, 4).moves).toEqual([]);
    expect(gridHighlight(t, { request: 9, op: 4, ops: 8 }, -1, 4).moves).toEqual([{ from: 10, to: 26 }]);
  });

  it('shows the merge from its run’s start, before its event, and for the rest of the request', () => {
    expect(gridHighlight(t, { request: 9, op: 1, ops: 8 }, -1, 4).merges).toEqual([mark]);
    expect(gridHighlight(t, { request: 9, op: 6, ops: 8 }, -1, 4).merges).toEqual([mark]);
    expect(gridHighlight(t, { request: 9, op: 8, ops: 8 }, -1, 4).merges).toEqual([mark]); // applied before
  });
});
