import { describe, expect, it } from 'vitest';
import { budgetSegments } from './budgets';

describe('budgetSegments', () => {
  it('gives each structure its own colour and its free share the same colour, pale', () => {
    const segs = budgetSegments([
      { name: 'GTD', bytes: 4 },
      { name: 'CMT', bytes: 488 },
      { name: 'CMT (free)', bytes: 0 },
      { name: 'Ghost-CMT', bytes: 24 },
      { name: 'Ghost-CMT (free)', bytes: 24 },
      { name: 'DTP index', bytes: 168 },
      { name: 'DTP index (free)', bytes: 56 },
    ]);
    expect(segs.map((s) => [s.colour, s.free])).toEqual([
      [0, false],
      [1, false],
      [1, true],
      [2, false],
      [2, true],
      [3, false],
      [3, true],
    ]);
  });

  it('leaves free space that belongs to no named structure uncoloured', () => {
    const segs = budgetSegments([
      { name: 'Entry nodes', bytes: 700 },
      { name: 'Cache (free)', bytes: 68 },
    ]);
    expect(segs[1]).toEqual({ name: 'Cache (free)', bytes: 68, colour: null, free: true });
  });
});
