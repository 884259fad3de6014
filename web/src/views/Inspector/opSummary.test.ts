import { describe, expect, it } from 'vitest';
import { opSummary } from './opSummary';
import { program } from '../../test/events';

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
    expect(
      opSummary([
        { type: 'gc_start', victim: 6, valid: 2 },
        { type: 'flash_read', ppn: 0, block: 0, page: 0, purpose: 'merge', key: 0, ns: 25_000 },
        { type: 'invalidate', ppn: 0 },
        program({ ppn: 28, block: 7, page: 0, purpose: 'merge', key: 0, version: 1 }),
        {
          type: 'merge',
          kind: 'full',
          lbn: 0,
          data_block: 0,
          log_block: 6,
          result_block: 7,
          cause: 'shared',
          written: 4,
          degree: 2,
        },
        {
          type: 'merge',
          kind: 'full',
          lbn: 1,
          data_block: 1,
          log_block: 6,
          result_block: 1,
          cause: 'shared',
          written: 4,
          degree: 2,
        },
        { type: 'gc_end', victim: 6 },
      ]),
    ).toBe('1 page program, 1 page read; 2 full merges (1 page copy)');
  });
});
