/**
 * The op level of a tree shape (replay/index.ts): this replays the request's cache events up to the current op over a tree shape whose
 * nodes follow the convention of the two tree levels: `ctp-<t>` for cached translation
 * pages (under the root, most recent first) and `cdp-<lpn>` for cached data pages (under
 * the CTP the request reached last). A load or hit moves a CTP first, an insert adds a CDP,
 * an eviction removes either. Bands of colder groups keep their counts (from before).
 */
import type { EngineEvent } from '../events';
import type { TreeNode } from '../inspection';

const CTP = 'translation_page';
const CDP = 'data_page';

/** Whether a scheme's caches (spec `caches` levels) form a CTP → CDP tree (the convention below). */
export function followsTreeConvention(levels: readonly string[]): boolean {
  return levels.includes(CTP) && levels.includes(CDP);
}

/** `root` with `ops` (a request's events so far) applied. */
export function replayTree(root: TreeNode, ops: EngineEvent[]): TreeNode {
  let rows: TreeNode[] = (root.children ?? []).map((c) => ({ ...c, children: c.children && [...c.children] }));
  let count = root.count ?? rows.length;
  let current: TreeNode | undefined;
  const first = (id: string, make: () => TreeNode) => {
    const i = rows.findIndex((r) => r.id === id);
    const row = i >= 0 ? rows.splice(i, 1)[0] : make();
    rows = [row, ...rows];
    return row;
  };
  for (const e of ops) {
    if (e.type !== 'cache_insert' && e.type !== 'cache_hit' && e.type !== 'cache_evict') continue;
    if (e.level === CTP) {
      const id = `ctp-${e.key}`;
      if (e.type === 'cache_evict') {
        rows = rows.filter((r) => r.id !== id);
        count--;
        continue;
      }
      if (e.type === 'cache_insert' && !rows.some((r) => r.id === id)) count++;
      current = first(id, () => ({ id, label: `CTP ${e.key}`, kind: 'ctp', dirty: false, children: [], count: 0 }));
    } else if (e.level === CDP) {
      const id = `cdp-${e.key}`;
      if (e.type === 'cache_evict') {
        for (const r of rows) {
          const k = r.children?.findIndex((c) => c.id === id) ?? -1;
          if (k >= 0) {
            r.children!.splice(k, 1);
            r.count = Math.max(0, (r.count ?? 1) - 1);
          }
        }
      } else if (e.type === 'cache_insert' && current?.children && !current.children.some((c) => c.id === id)) {
        current.children.push({ id, label: `LPN ${e.key}`, kind: 'cdp', dirty: true });
        current.children.sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4)));
        current.count = (current.count ?? 0) + 1;
        current.dirty = true;
      }
    }
  }
  return { ...root, children: rows, count };
}
