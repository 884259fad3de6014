import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../events';
import type { Inspection } from '../inspection';
import { replayInspection } from '.';

const before: Inspection = {
  ram_budget: 64,
  ram_used: 24,
  budgets: [{ name: 'CMT', bytes: 24 }],
  structures: [
    {
      shape: 'list',
      id: 'cmt',
      name: 'CMT',
      level: 'entry',
      capacity: 4,
      len: 3,
      order: 'lru',
      truncated: false,
      entries: [
        { key: 5, value: 50, dirty: true },
        { key: 7, value: 70, dirty: false },
        { key: 9, value: 90, dirty: false },
      ],
    },
    { shape: 'table', id: 'gtd', name: 'GTD', len: 1, rows: [{ key: 0, value: 12, in_ram: false }], truncated: false },
  ],
};

const NO_TREE = { cacheLevels: ['entry'] };

describe('replayInspection', () => {
  it('puts an inserted key first, moves a hit first, removes an evicted one, and marks them touched', () => {
    const ops: EngineEvent[] = [
      { type: 'cache_miss', level: 'entry', key: 11 },
      { type: 'cache_evict', level: 'entry', key: 9, dirty: false },
      { type: 'cache_insert', level: 'entry', key: 11 },
      { type: 'cache_hit', level: 'entry', key: 7 },
      { type: 'cache_insert', level: 'translation_page', key: 3 }, // another level: ignored
    ];
    const after = replayInspection(before, ops, NO_TREE);
    const list = after.structures[0];
    if (list.shape !== 'list') throw new Error('not a list');
    expect(list.entries.map((e) => [e.key, !!e.touched])).toEqual([
      [7, true],
      [11, true],
      [5, false],
    ]);
    expect(list.entries[0].value).toBe(70); // a hit keeps what is known of the entry
    expect(list.len).toBe(3);
    expect(after.structures[1]).toBe(before.structures[1]);
    expect(after.replayed).toBe(true);
  });

  it('with no cache events is the inspection before, untouched', () => {
    const list = replayInspection(before, [{ type: 'invalidate', ppn: 3 }], NO_TREE).structures[0];
    if (list.shape !== 'list') throw new Error('not a list');
    expect(list.entries.map((e) => e.key)).toEqual([5, 7, 9]);
    expect(list.entries.some((e) => e.touched)).toBe(false);
  });

  it('replays a tree shape only for a scheme whose caches follow the CTP → CDP convention', () => {
    const root = {
      id: 'gtd',
      label: 'GTD',
      kind: 'gtd',
      count: 1,
      children: [{ id: 'ctp-1', label: 'CTP 1', kind: 'ctp', count: 0, children: [] }],
    };
    const withTree: Inspection = {
      ...before,
      structures: [{ shape: 'tree', id: 'tree', name: 'Tree', root, truncated: false }],
    };
    const ops: EngineEvent[] = [{ type: 'cache_insert', level: 'translation_page', key: 4, bytes: 8 }];
    const ids = (i: Inspection) =>
      i.structures[0].shape === 'tree' ? i.structures[0].root.children!.map((c) => c.id) : [];
    expect(ids(replayInspection(withTree, ops, { cacheLevels: ['translation_page', 'data_page'] }))).toEqual([
      'ctp-4',
      'ctp-1',
    ]);
    expect(ids(replayInspection(withTree, ops, NO_TREE))).toEqual(['ctp-1']);
  });
});
