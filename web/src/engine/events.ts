/**
 * The engine's typed events (core-wasm/engine/src/events.rs) as TypeScript types, as
 * `takeEventsJson()` spells them and as eventCodec.ts decodes the binary records into.
 */

/** Why a flash operation happened. */
export type Purpose = 'data' | 'translation' | 'log' | 'buffer' | 'gc' | 'merge';

/** Which RAM structure a cache event concerns (engine `CacheLevel`, snake_case). */
export type CacheLevel =
  | 'entry'
  | 'translation_page'
  | 'data_page'
  | 'ghost'
  | 'block_map'
  | 'recency'
  | 'frequency'
  | 'sram'
  | 'dram';

/** What a programmed page holds (engine `PageKind`, serialised by variant name). */
export type PageKind = 'None' | 'Data' | 'Translation' | 'Dtp';

/** Host operation of a request. */
export type HostOp = 'read' | 'write' | 'trim';

/** One event, as the engine serialises it (`type` is the tag). */
export type EngineEvent =
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
  | { type: 'merge'; kind: 'switch' | 'partial' | 'full'; lbn: number };

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
