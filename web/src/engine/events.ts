/**
 * The engine's typed events (core-wasm/engine/src/events.rs) as TypeScript types, and the
 * cheap ways the worker reads them out of `takeEventsJson()`: a tail parse for the last few
 * requests (narration) and a regex scan of every page program (the page table), so a batch
 * of thousands of requests at full speed never pays for a full JSON.parse.
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
export type PageKind = 'None' | 'Data' | 'Translation';

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

const REQUEST_MARK = '{"type":"request"';

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
 * Parses only the last `max` requests of a `takeEventsJson()` string. The engine writes
 * objects with `type` first (serde's internal tag), so request headers are found by text.
 */
export function parseTail(json: string, max: number): RequestTrace[] {
  if (max <= 0 || json.length <= 2) return [];
  let at = json.length;
  for (let n = 0; n < max; n++) {
    const i = json.lastIndexOf(REQUEST_MARK, at - 1);
    if (i < 0) break;
    at = i;
  }
  if (at === json.length) return [];
  const tail = at <= 1 ? json : `[${json.slice(at)}`;
  return groupByRequest(JSON.parse(tail) as EngineEvent[]);
}

/** Called for each page program, in order, by {@link scanPrograms}. */
export type ProgramVisitor = (ppn: number, block: number, kind: PageKind, key: number, version: number) => void;

// Field order follows the Rust struct (serde keeps declaration order); events.test.ts checks
// this against the real engine, so a reordering fails a test rather than the page table.
const SCAN = /"type":"flash_program","ppn":(\d+),"block":(\d+),"page":\d+,"purpose":"\w+","kind":"(\w+)","key":(\d+),"version":(\d+)|"type":"erase","block":(\d+)/g;

/** Visits every program and erase in a `takeEventsJson()` string without parsing it. */
export function scanPrograms(json: string, onProgram: ProgramVisitor, onErase: (block: number) => void) {
  SCAN.lastIndex = 0;
  for (let m = SCAN.exec(json); m; m = SCAN.exec(json)) {
    if (m[6] !== undefined) onErase(+m[6]);
    else onProgram(+m[1], +m[2], m[3] as PageKind, +m[4], +m[5]);
  }
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
