/**
 * The engine's typed events (core-wasm/engine/src/events.rs) as TypeScript types, as
 * `takeEventsJson()` spells them and as eventCodec.ts decodes the binary records into.
 */

/** Why a flash operation happened. */
export type Purpose = 'data' | 'translation' | 'log' | 'buffer' | 'gc' | 'merge';

/** Which RAM structure a cache event concerns (engine `CacheLevel`, snake_case). */
export type CacheLevel =
  'entry' | 'translation_page' | 'data_page' | 'ghost' | 'block_map' | 'recency' | 'frequency' | 'sram' | 'dram';

/** What a programmed page holds (engine `PageKind`, serialised by variant name). */
export type PageKind = 'None' | 'Data' | 'Translation' | 'Dtp';

/** Host operation of a request. */
export type HostOp = 'read' | 'write' | 'trim';

/**
 * RAM and LRU time (ns) the engine charged after an event and before the next (its binary
 * `cost` records, folded in by eventCodec.ts; absent when nothing was charged, and in the
 * JSON channel).
 */
export interface Charged {
  ram_ns?: number;
  lru_ns?: number;
}

/** One event, as the engine serialises it (`type` is the tag), with what was charged after it. */
export type EngineEvent = Charged &
  (
    | { type: 'request'; index: number; op: HostOp; lpn: number; pages: number }
    | { type: 'flash_read'; ppn: number; block: number; page: number; purpose: Purpose; key: number; ns: number }
    | { type: 'oob_read'; ppn: number; block: number; page: number; purpose: Purpose; ns: number }
    | {
        type: 'flash_program';
        ppn: number;
        block: number;
        page: number;
        purpose: Purpose;
        kind: PageKind;
        key: number;
        version: number;
        ns: number;
      }
    | { type: 'invalidate'; ppn: number }
    | { type: 'erase'; block: number; purpose: Purpose; ns: number }
    | { type: 'gc_start'; victim: number; valid: number }
    | { type: 'gc_end'; victim: number }
    | { type: 'cache_hit' | 'cache_miss'; level: CacheLevel; key: number }
    /** `bytes`: the RAM the entry costs (what an insert adds, an evict frees). */
    | { type: 'cache_insert'; level: CacheLevel; key: number; bytes?: number }
    | { type: 'cache_evict'; level: CacheLevel; key: number; dirty: boolean; bytes?: number }
    | {
        type: 'merge';
        kind: 'switch' | 'partial' | 'full';
        lbn: number;
        /** The logical block's data block, or null when it had none yet. */
        data_block: number | null;
        log_block: number;
        /** The block holding the logical block afterwards. */
        result_block: number;
        /** Why it had its kind: what the log block held (engine `MergeCause`). */
        cause: MergeCause;
        /** Pages written in the log block when it was reclaimed. */
        written: number;
        /** Logical blocks merged out of that log block (the association degree A). */
        degree: number;
      }
  );

/**
 * What a reclaimed log block held (engine `MergeCause`): one block's pages in order from
 * offset 0 (switch or partial), out of order, pages of several blocks (shared), in order but
 * superseded by a later write to the data block, or an NFTL replacement block (fold).
 */
export type MergeCause = 'in_order' | 'out_of_order' | 'shared' | 'superseded' | 'fold';

/** The request header event. */
export type RequestEvent = Extract<EngineEvent, { type: 'request' }>;

/** One request and the operations it caused. */
export interface RequestTrace {
  /** Request index in the trace (0-based). */
  index: number;
  /** The request header (op, first LPN, page count). */
  request: RequestEvent;
  /** Operations in order, after the header. */
  ops: EngineEvent[];
}

/** Groups a parsed event array into requests (events before the first header are dropped). */
export function groupByRequest(events: EngineEvent[]): RequestTrace[] {
  const out: RequestTrace[] = [];
  for (const e of events) {
    if (e.type === 'request') out.push({ index: e.index, request: e, ops: [] });
    else out[out.length - 1]?.ops.push(e);
  }
  return out;
}

/**
 * The event inside a request that a stop (engine `StopAt` id) waits for, so a jump lands on
 * the operation itself. The engine finds the request; a stop not listed here lands at the
 * end of that request, so a new stop works before this table learns it.
 */
const STOP_EVENT: Record<string, EngineEvent['type']> = { gc: 'gc_start', miss: 'cache_miss', merge: 'merge' };

/** Whether `e` is the operation that stop `what` waits for. */
export function matchesStop(e: EngineEvent, what: string): boolean {
  return STOP_EVENT[what] === e.type;
}

/** A flash operation or collection mark done for garbage collection (not for the host). */
const isGcOp = (e: EngineEvent) =>
  e.type === 'gc_start' || e.type === 'gc_end' || ('purpose' in e && e.purpose === 'gc');
/** A flash operation of any purpose, or a collection mark. */
const isFlashOp = (e: EngineEvent) =>
  isGcOp(e) || e.type === 'flash_read' || e.type === 'oob_read' || e.type === 'flash_program' || e.type === 'erase';

/**
 * Whether `ops[j]` is the operation stop `what` waits for. A partial GC step (`gc-step`,
 * RFTL's and GFTL's bounded slices of a collection) has no event of its own: it starts at a
 * GC operation whose last flash operation before it was the host's (or that opens the
 * request), so a request serving several pages stops at each of its steps, not at each copy.
 */
export function stopsAt(ops: EngineEvent[], j: number, what: string): boolean {
  if (what !== 'gc-step') return matchesStop(ops[j], what);
  if (!isGcOp(ops[j])) return false;
  for (let i = j - 1; i >= 0; i--) if (isFlashOp(ops[i])) return !isGcOp(ops[i]);
  return true;
}

type Read = Extract<EngineEvent, { type: 'flash_read' }>;
type Program = Extract<EngineEvent, { type: 'flash_program' }>;

/** A page copy inside a request: GC's or a merge's read and program of the same key. */
export interface Copy {
  read: Read;
  program: Program;
  /** Index of the program. */
  at: number;
  /** Index of the copy's last op (the program, or the invalidation after it). */
  last: number;
}

/**
 * The copy starting at `ops[i]`, if one does: a GC or merge read, then the program of the
 * same key with the same purpose. GC programs before it invalidates the source (read,
 * program, invalidate); a merge gathers by read, invalidate, program (blockmap.rs).
 */
export function copyAt(ops: EngineEvent[], i: number): Copy | null {
  const r = ops[i];
  if (r?.type !== 'flash_read' || (r.purpose !== 'gc' && r.purpose !== 'merge')) return null;
  let j = i + 1;
  const between = ops[j];
  if (between?.type === 'invalidate' && between.ppn === r.ppn) j++;
  const w = ops[j];
  if (w?.type !== 'flash_program' || w.purpose !== r.purpose || w.key !== r.key) return null;
  const after = ops[j + 1];
  const last = j === i + 1 && after?.type === 'invalidate' && after.ppn === r.ppn ? j + 1 : j;
  return { read: r, program: w, at: j, last };
}
