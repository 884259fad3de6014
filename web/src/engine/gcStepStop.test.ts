import { describe, expect, it } from 'vitest';
import { stopsAt, type EngineEvent } from './events';

const read = (purpose: 'data' | 'gc', ppn: number): EngineEvent => ({
  type: 'flash_read',
  ppn,
  block: 0,
  page: ppn,
  purpose,
  key: ppn,
  ns: 25_000,
});
const program = (purpose: 'data' | 'buffer' | 'gc', ppn: number) =>
  ({ type: 'flash_program', ppn, block: 1, page: ppn, purpose, key: ppn, ns: 300_000 }) as unknown as EngineEvent;

describe('the next partial GC step', () => {
  // Two pages of one request, each write followed by a bounded step (RFTL): the first step
  // opens a collection, the second continues it with a copy and then erases.
  const ops: EngineEvent[] = [
    program('buffer', 8),
    { type: 'gc_start', victim: 0, valid: 2 },
    read('gc', 0),
    program('gc', 16),
    { type: 'invalidate', ppn: 0 },
    read('gc', 1),
    program('gc', 17),
    program('buffer', 9),
    read('gc', 2),
    program('gc', 18),
    { type: 'erase', block: 0, purpose: 'gc', ns: 2_000_000 },
    { type: 'gc_end', victim: 0 },
  ];
  const starts = ops.map((_, j) => j).filter((j) => stopsAt(ops, j, 'gc-step'));

  it('stops where each step begins, not at each copy of a step', () => {
    expect(starts).toEqual([1, 8]);
  });

  it('differs from the next GC, which stops only where a collection begins', () => {
    expect(ops.map((_, j) => j).filter((j) => stopsAt(ops, j, 'gc'))).toEqual([1]);
  });

  it('treats a request that opens on a GC operation as a step start', () => {
    expect(stopsAt([read('gc', 3), program('gc', 4)], 0, 'gc-step')).toBe(true);
    expect(stopsAt([read('data', 3)], 0, 'gc-step')).toBe(false);
  });
});
