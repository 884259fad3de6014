import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../engine/inspection';
import { treeView } from './model';

const cdp = (lpn: number): TreeNode => ({ id: `cdp-${lpn}`, label: `LPN ${lpn} (v1)`, kind: 'cdp', dirty: true });
const tree: TreeNode = {
  id: 'gtd',
  label: 'GTD',
  kind: 'gtd',
  count: 12,
  children: [
    { id: 'ctp-3', label: 'CTP 3', kind: 'ctp', dirty: true, count: 2, children: [cdp(24), cdp(25)] },
    { id: 'ctp-1', label: 'CTP 1', kind: 'ctp', dirty: false, count: 0, children: [] },
    { id: 'cold-2-12', label: '10 colder groups', kind: 'cold', dirty: true, count: 10 },
  ],
};

describe('treeView', () => {
  it('ranks rows in order, a band covering its count, and reaches the LRU end', () => {
    const v = treeView(tree, 1, []);
    expect(v.rows.map((r) => [r.id, r.rank, r.band, r.groups])).toEqual([
      ['ctp-3', 1, false, 1],
      ['ctp-1', 2, false, 1],
      ['cold-2-12', 3, true, 10],
    ]);
    expect(v.reachesEnd).toBe(true);
    expect(treeView({ ...tree, count: 40 }, 1, []).reachesEnd).toBe(false);
  });

  it('marks what the request loaded, inserted and hit, and keeps pruned groups as ghosts', () => {
    const v = treeView(
      tree,
      5,
      [
        { op: 'ctp-load', t: 3, first: 0, last: 2, ns: 0 },
        { op: 'cdp-insert', lpn: 25, readIn: true, first: 3, last: 4, ns: 0 },
        { op: 'prune', t: 9, cdps: [72], ctpLeft: true, ctpWritten: true, first: 5, last: 8, ns: 0 },
      ],
      new Set(['ctp-1']),
    );
    expect(v.rows[0].rank).toBe(5);
    expect([v.rows[0].change, v.rows[0].leaves.map((l) => l.change), v.rows[1].change]).toEqual([
      'loaded',
      [undefined, 'inserted'],
      'hit',
    ]);
    expect(v.pruned).toEqual([{ id: 'ctp-9', label: 'CTP 9 pruned, 1 CDP flushed, written back' }]);
  });
});
