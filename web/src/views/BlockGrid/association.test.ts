import { describe, expect, it } from 'vitest';
import type { Inspection } from '../../engine/inspection';
import { associationOf, blockMarks } from './association';
import type { GridHighlight } from './highlight';

const inspection: Inspection = {
  ram_budget: 0,
  ram_used: 0,
  budgets: [],
  structures: [
    {
      shape: 'table',
      id: 'log-data-blocks',
      name: 'Log block → data block it serves',
      len: 3,
      rows: [
        { key: 6, value: 1, in_ram: true },
        { key: 6, value: 3, in_ram: true },
        { key: 7, value: null, in_ram: true },
      ],
      truncated: false,
    },
  ],
};

describe('block association', () => {
  it('pairs a log block with the data blocks it serves, and a data block with its log block', () => {
    expect(associationOf(inspection, 6)).toEqual({ block: 6, role: 'log', partners: [1, 3] });
    expect(associationOf(inspection, 3)).toEqual({ block: 3, role: 'data', partners: [6] });
    expect(associationOf(inspection, 7)).toEqual({ block: 7, role: 'log', partners: [] });
    expect(associationOf(inspection, 2)).toBeNull();
    expect(associationOf({ ...inspection, structures: [] }, 6)).toBeNull();
  });

  it('lists every marked block in words: victim, merge blocks, erases, hover and partners', () => {
    const hl: GridHighlight = {
      victim: 6,
      victimActive: true,
      op: null,
      moves: [],
      erased: [1, 6],
      merges: [{ kind: 'full', lbn: 0, data: 1, log: 6, result: 4 }],
    };
    const marks = blockMarks(hl, associationOf(inspection, 3));
    expect(marks.map((m) => [m.block, m.mark])).toEqual([
      [6, 'victim'],
      [6, 'merge-log'],
      [1, 'merge-data'],
      [4, 'merge-result'],
      [1, 'erased'],
      [6, 'erased'],
      [3, 'hover'],
      [6, 'associated'],
    ]);
    expect(marks[3].text).toBe('block 4: new data block of the full merge of logical block 0');
  });
});
