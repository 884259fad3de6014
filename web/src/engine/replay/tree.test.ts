import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../inspection';
import { replayTree } from './tree';

const before: TreeNode = {
  id: 'gtd',
  label: 'GTD',
  kind: 'gtd',
  count: 3,
  children: [
    {
      id: 'ctp-1',
      label: 'CTP 1',
      kind: 'ctp',
      dirty: true,
      count: 1,
      children: [{ id: 'cdp-8', label: 'LPN 8', kind: 'cdp', dirty: true }],
    },
    {
      id: 'ctp-4',
      label: 'CTP 4',
      kind: 'ctp',
      dirty: true,
      count: 2,
      children: [
        { id: 'cdp-32', label: 'LPN 32', kind: 'cdp', dirty: true },
        { id: 'cdp-35', label: 'LPN 35', kind: 'cdp', dirty: true },
      ],
    },
    { id: 'cold-2-3', label: '1 colder group', kind: 'cold', count: 1 },
  ],
};

describe('replayTree', () => {
  it('prunes a group, loads a CTP and buffers a CDP under it, op by op', () => {
    const ops = [
      { type: 'cache_miss', level: 'translation_page', key: 2 },
      { type: 'cache_evict', level: 'data_page', key: 32, dirty: true },
      { type: 'cache_evict', level: 'data_page', key: 35, dirty: true },
      { type: 'cache_evict', level: 'translation_page', key: 4, dirty: true },
      { type: 'cache_insert', level: 'translation_page', key: 2 },
      { type: 'cache_insert', level: 'data_page', key: 17 },
    ] as const;
    const mid = replayTree(before, [...ops.slice(0, 3)]);
    expect(mid.children!.find((c) => c.id === 'ctp-4')!.children).toEqual([]);
    const after = replayTree(before, [...ops]);
    expect(after.children!.map((c) => c.id)).toEqual(['ctp-2', 'ctp-1', 'cold-2-3']);
    expect(after.children![0].children!.map((c) => c.id)).toEqual(['cdp-17']);
    expect(after.count).toBe(3);
    expect(before.children![1].children).toHaveLength(2); // the inspection it came from is untouched
  });

  it('a hit moves the group first', () => {
    const after = replayTree(before, [{ type: 'cache_hit', level: 'translation_page', key: 4 }]);
    expect(after.children!.map((c) => c.id)).toEqual(['ctp-4', 'ctp-1', 'cold-2-3']);
  });
});
