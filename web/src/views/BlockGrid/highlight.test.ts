import { describe, expect, it } from 'vitest';
import type { EngineEvent, RequestTrace } from '../../engine/events';
import { gridHighlight } from './highlight';

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
    expect(gridHighlight(trace, { request: 3, op: 1, ops: 7 }, 7, 8)).toMatchObject({ victim: 2, victimActive: true, op: null });
    expect(gridHighlight(trace, { request: 3, op: 2, ops: 7 }, 7, 8).op).toEqual({ kind: 'read', ppn: 17, block: 2 });
    expect(gridHighlight(trace, { request: 3, op: 3, ops: 7 }, 7, 8).moves).toEqual([{ from: 17, to: 40 }]);
    expect(gridHighlight(trace, { request: 3, op: 5, ops: 7 }, 7, 8)).toMatchObject({ erased: [2], op: { kind: 'erase', block: 2 } });
  });

  it('falls back to the last GC victim when the request on screen ran no GC', () => {
    const plain: RequestTrace = { ...trace, ops: ops.slice(6) };
    expect(gridHighlight(plain, { request: 4, op: 0, ops: 0 }, 7, 8)).toMatchObject({ victim: 7, victimActive: false, moves: [] });
    expect(gridHighlight(null, { request: 0, op: 0, ops: 0 }, -1, 8).victim).toBe(-1);
  });

  it('lists every copy and erase of a request shown whole', () => {
    expect(gridHighlight(trace, { request: 4, op: 0, ops: 0 }, 2, 8)).toMatchObject({ moves: [{ from: 17, to: 40 }], erased: [2] });
  });
});
