/**
 * The engine's RAM inspection (`inspectJson()`): a scheme describes its RAM structures as a
 * few generic shapes that the cache panel draws without knowing the scheme. Types follow
 * the facade contract (/work/coord/facade-contract.md; engine `inspect` module).
 *
 * Part-way through a request the engine has already served it whole, so the worker keeps
 * the inspection from before the request and replays the request's cache events over it
 * (`replayInspection`), as replay.ts does for the page grid.
 */
import type { EngineEvent } from './events';

/** One entry of an ordered list (most recent first). */
export interface Entry {
  key: number;
  value: number | null;
  dirty: boolean;
  group?: number;
  touched?: boolean;
}

export interface TreeNode {
  id: string;
  label: string;
  kind: string;
  dirty?: boolean;
  children?: TreeNode[];
  count?: number;
}

export type Structure =
  | { shape: 'list'; id: string; name: string; level: string; capacity: number; len: number; order: string; entries: Entry[]; truncated: boolean }
  | { shape: 'table'; id: string; name: string; len: number; rows: { key: number; value: number | null; in_ram: boolean }[]; truncated: boolean }
  /** `order`: of the root's children (e.g. 'lru', first = most recent), when they have one. */
  | { shape: 'tree'; id: string; name: string; root: TreeNode; order?: string; truncated: boolean }
  | { shape: 'ranges'; id: string; name: string; len: number; ranges: { id: number; min: number; max: number; ppn: number; filter?: string }[]; truncated: boolean };

/**
 * What one physical block does for the logical block owning it, in the scheme's words
 * (engine `BlockDuty`): its role (primary / replacement / buffer, a list position, a GC
 * queue place) and that logical block's GC state, for the schemes that say.
 */
export interface BlockDuty {
  block: number;
  lbn?: number;
  role: string;
  gc?: string;
}

export interface Inspection {
  ram_budget: number;
  ram_used: number;
  budgets: { name: string; bytes: number }[];
  structures: Structure[];
  /** What the block asked about does (only when one was). */
  block?: BlockDuty;
  /** Set by the worker when the lists were replayed from events part-way through a request. */
  replayed?: boolean;
}

/**
 * `before` with the cache events among `ops` applied to its ordered lists: an insert puts
 * the key first, a hit moves it first, an evict removes it. Values and dirty bits the events
 * do not carry are kept (moved entries) or unknown (null, clean) for inserted ones; every
 * entry an event named is `touched`.
 */
export function replayInspection(before: Inspection, ops: EngineEvent[]): Inspection {
  const structures = before.structures.map((s) => {
    if (s.shape !== 'list') return s;
    let entries = s.entries.map((e) => ({ ...e, touched: false }));
    let len = s.len;
    for (const e of ops) {
      if ((e.type !== 'cache_insert' && e.type !== 'cache_hit' && e.type !== 'cache_evict') || e.level !== s.level) continue;
      const i = entries.findIndex((x) => x.key === e.key);
      const old = i >= 0 ? entries[i] : undefined;
      if (i >= 0) entries.splice(i, 1);
      if (e.type === 'cache_evict') {
        len = Math.max(0, len - 1);
        continue;
      }
      if (e.type === 'cache_insert' && !old) len++;
      entries = [{ ...(old ?? { key: e.key, value: null, dirty: false }), touched: true }, ...entries];
    }
    return { ...s, entries, len };
  });
  return { ...before, structures, replayed: true };
}
