import { describe, expect, it } from 'vitest';
import { opSummary } from './opSummary';

describe('opSummary', () => {
  it('counts operations in words, with GCs and their copies', () => {
    expect(opSummary([])).toBe('No flash operations.');
    expect(
      opSummary([
        { type: 'gc_start', victim: 2, valid: 1 },
        { type: 'flash_read', ppn: 17, block: 2, page: 1, purpose: 'gc', key: 9, ns: 25_000 },
        { type: 'flash_program', ppn: 40, block: 5, page: 0, purpose: 'gc', kind: 'Data', key: 9, version: 3, ns: 200_000 },
        { type: 'erase', block: 2, purpose: 'gc', ns: 700_000 },
        { type: 'flash_program', ppn: 41, block: 5, page: 1, purpose: 'data', kind: 'Data', key: 4, version: 8, ns: 200_000 },
      ]),
    ).toBe('2 page programs, 1 page read, 1 erase; 1 GC (1 page copy)');
  });
});
