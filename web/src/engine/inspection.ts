/**
 * The engine's RAM inspection (`inspectJson()`): a scheme describes its RAM structures as a
 * few generic shapes that the cache panel draws without knowing the scheme. Types follow
 * the engine's `inspect` module (`core-wasm/engine/src/inspect.rs`).
 *
 * Part-way through a request the engine has already served it whole, so the worker keeps
 * the answer from before the request and replays the request's events over it (replay/).
 */

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
  | {
      shape: 'list';
      id: string;
      name: string;
      level: string;
      capacity: number;
      len: number;
      order: string;
      entries: Entry[];
      truncated: boolean;
    }
  | {
      shape: 'table';
      id: string;
      name: string;
      len: number;
      rows: { key: number; value: number | null; in_ram: boolean }[];
      truncated: boolean;
    }
  /** `order`: of the root's children (e.g. 'lru', first = most recent), when they have one. */
  | { shape: 'tree'; id: string; name: string; root: TreeNode; order?: string; truncated: boolean }
  | {
      shape: 'ranges';
      id: string;
      name: string;
      len: number;
      ranges: { id: number; min: number; max: number; ppn: number; filter?: string }[];
      truncated: boolean;
    };

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

/**
 * A view's question to the scheme's inspection (engine `InspectQuery`): it travels untouched
 * from the view through the worker to the engine, which reads it once and refuses a field
 * it does not know. A new question is a field here plus a scheme's answer.
 */
export interface InspectQuery {
  /** Entries of each structure shown in order before the summary cuts off (engine default 64). */
  limit?: number;
  /** A tree node id (one the scheme gave out) to zoom into. */
  focus?: string;
  /** A physical block the viewer points at: the answer's `block` says what it does (engine `Ftl::block_duty`); part-way through a request, as of its end. */
  block?: number;
  /** Rows a tree view has room for: groups shown one by one before the colder rest is banded (engine at most 96). */
  rows?: number;
}

/** A stable key for a query (same fields, same key), for caching answers. */
export function queryKey(q: InspectQuery): string {
  return JSON.stringify(
    Object.keys(q)
      .sort()
      .filter((k) => q[k as keyof InspectQuery] !== undefined)
      .map((k) => [k, q[k as keyof InspectQuery]]),
  );
}

export interface Inspection {
  ram_budget: number;
  ram_used: number;
  budgets: { name: string; bytes: number }[];
  structures: Structure[];
  /** What the block asked about does (only when one was). */
  block?: BlockDuty;
  /** Set by the worker when the answer was replayed from events part-way through a request (replay/). */
  replayed?: boolean;
}
