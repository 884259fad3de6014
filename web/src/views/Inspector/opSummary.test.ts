import { describe, expect, it } from 'vitest';
import { opSummary } from './opSummary';
import { FAST_SHARED_RECLAIM, program } from '../../test/events';

describe('opSummary', () => {
  it('counts operations in words, with GCs and their copies', () => {
    expect(opSummary([])).toBe('No flash operations.');
    expect(
      opSummary([
        { type: 'gc_start', victim: 2, valid: 1 },
        { type: 'flash_read', ppn: 17, block: 2, page: 1, purpose: 'gc', key: 9, ns: 25_000 },
        program({ ppn: 40, block: 5, page: 0, purpose: 'gc', key: 9, version: 3 }),
        { type: 'erase', block: 2, purpose: 'gc', ns: 700_000 },
        program({ ppn: 41, block: 5, page: 1, purpose: 'data', key: 4, version: 8 }),
      ]),
    ).toBe('2 page programs, 1 page read, 1 erase; 1 GC (1 page copy)');
  });

  it('tells a log-block reclamation as its merges by kind, with their copies', () => {
    expect(opSummary(FAST_SHARED_RECLAIM)).toBe(
      '2 page programs, 2 page reads, 3 erases; 2 full merges (2 page copies)',
    );
  });
});
