/**
 * What the tree view draws, from the inspection's tree shape (engine `Structure::Tree`) and
 * the current request's tree operations (narration/treeOps.ts): the root, then its children
 * in order (most recent first): nodes with leaves (a CTP and its CDPs), and summary nodes
 * without children (a band of colder groups). Keyed by the shape only: any scheme whose
 * inspection has a tree gets this view.
 */
import type { Structure, TreeNode } from '../../engine/inspection';
import type { TreeOp } from '../../narration/treeOps';

/** Leaves drawn per node; the rest are counted ("+12"). */
export const LEAVES_SHOWN = 48;

/** Orders (the tree shape's `order`) whose children are ranked, the last being the next victim. */
const RANKED = new Set(['lru', 'lfu', 'fifo']);

/** What happened to a node in the current request. */
export type Change = 'loaded' | 'inserted' | 'hit' | undefined;

/** A leaf (a CDP). */
export interface LeafView {
  id: string;
  label: string;
  dirty: boolean;
  change: Change;
}

/** A child of the root: a node with leaves, or a summary of many (`band`). */
export interface RowView {
  id: string;
  label: string;
  kind: string;
  band: boolean;
  /** Rank (1 = most recent) of the row's first group; 0 when the tree's order has no ranks. */
  rank: number;
  /** Groups the row stands for (1, or a band's count). */
  groups: number;
  dirty: boolean;
  change: Change;
  leaves: LeafView[];
  /** Leaves in all (shown or not). */
  leafCount: number;
}

/** A node that left in the current request (drawn as a ghost). */
export interface GoneView {
  id: string;
  label: string;
}

/** The whole picture. */
export interface TreeView {
  id: string;
  rootLabel: string;
  /** Children of the root in all (e.g. CTPs cached). */
  total: number;
  rows: RowView[];
  /** Whether the last row is the least recently used (the next victim). */
  reachesEnd: boolean;
  pruned: GoneView[];
}

/** The first tree shape of an inspection, if any. */
export function treeOf(structures: Structure[] | undefined): Extract<Structure, { shape: 'tree' }> | undefined {
  return structures?.find((s): s is Extract<Structure, { shape: 'tree' }> => s.shape === 'tree');
}

/** Node ids the operations touched, by what happened. */
function changes(ops: TreeOp[]): Map<string, Change> {
  const m = new Map<string, Change>();
  for (const o of ops) {
    if (o.op === 'ctp-load') m.set(`ctp-${o.t}`, 'loaded');
    if (o.op === 'cdp-insert') m.set(`cdp-${o.lpn}`, 'inserted');
  }
  return m;
}

/**
 * The view of tree `tree` whose root's first child has LRU rank `startRank` (1 for the whole
 * tree; the band's first rank when zoomed into a band). `ops`: what the current request did
 * (new nodes are marked, pruned groups come back as ghosts). `hits`: node ids it found.
 */
export function treeView(
  tree: TreeNode,
  startRank: number,
  ops: TreeOp[],
  hits: ReadonlySet<string> = new Set(),
  order = 'lru',
): TreeView {
  // Recency orders rank the children and end at the next victim; levels do not.
  const ranked = RANKED.has(order);
  const changed = changes(ops);
  const mark = (id: string): Change => changed.get(id) ?? (hits.has(id) ? 'hit' : undefined);
  let rank = startRank;
  const rows: RowView[] = (tree.children ?? []).map((c) => {
    const band = !c.children;
    const groups = band ? (c.count ?? 1) : 1;
    const leaves = (c.children ?? [])
      .slice(0, LEAVES_SHOWN)
      .map((l) => ({ id: l.id, label: l.label, dirty: !!l.dirty, change: mark(l.id) }));
    const row: RowView = {
      id: c.id,
      label: c.label,
      kind: c.kind,
      band,
      rank: ranked ? rank : 0,
      groups,
      dirty: !!c.dirty,
      change: mark(c.id),
      leaves,
      leafCount: band ? 0 : Math.max(c.count ?? 0, c.children?.length ?? 0),
    };
    rank += groups;
    return row;
  });
  const shown = new Set(rows.map((r) => r.id));
  const pruned = ops.flatMap((o): GoneView[] => {
    if (o.op !== 'prune' || o.t === null || !o.ctpLeft || shown.has(`ctp-${o.t}`)) return [];
    const what = o.cdps.length > 0 ? `, ${o.cdps.length} CDP${o.cdps.length === 1 ? '' : 's'} flushed` : '';
    return [{ id: `ctp-${o.t}`, label: `CTP ${o.t} pruned${what}${o.ctpWritten ? ', written back' : ''}` }];
  });
  const total = tree.count ?? rows.length;
  return {
    id: tree.id,
    rootLabel: tree.label,
    total,
    rows,
    reachesEnd: ranked && rows.length > 0 && rank - 1 === total,
    pruned,
  };
}
