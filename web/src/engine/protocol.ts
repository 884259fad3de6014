/**
 * Messages between the UI and the engine worker: one discriminated union each way.
 * Every request carries an `id`; its reply (and any progress reports) carry the same `id`.
 * Requests about a simulation carry its `sim` id (several can be loaded at once); the trace
 * loader (traceOpen/Chunk/Close) is one per worker and its trace goes to whichever
 * simulation the next `loadParsed` names.
 *
 * The timeline position is (request, op): `request` requests fully served, then the first
 * `op` operations of the next one applied (op 0 = at a request boundary). Frames are what
 * the views draw at that position, so part-way through a request they are replayed states.
 */
import type { RequestTrace } from './events';
import type { OptionDoc, Schema } from './configSchema';
import type { InspectQuery, Inspection } from './inspection';
import type { PageInfo } from './pageTable';
import type { ResponseSeries } from './responseBins';

/** A code of a closed vocabulary (`vocabJson()`). */
export interface Code {
  code: number;
  id: string;
  label: string;
}

/** Something the timeline can jump to (engine `StopAt`): button label, key and what it waits for. */
export interface StopDef {
  id: string;
  label: string;
  key: string;
  doc: string;
}

/** The engine's closed vocabularies (`vocabJson()`): one source of truth for labels and codes. */
export interface Vocab {
  stops: StopDef[];
  block_roles: Code[];
  page_kinds: Code[];
  page_states: Code[];
  purposes: Code[];
  cache_levels: Code[];
  /** Why a translation page was read or written (engine `TpCause`): the keys of the metrics' `translation_pages.reads` / `writes`. */
  tpage_causes: Code[];
  /** Binary event record kinds (eventCodec.ts) and words per record. */
  event_kinds: { code: number; id: string }[];
  event_words: number;
}

/** A scheme as the engine lists it (`schemesJson()`). */
export interface SchemeInfo {
  id: string;
  name: string;
  family: string;
  source: string;
}

/** A named device setup from a source document (engine `presets`). */
export interface Preset {
  name: string;
  source: string;
  device: Record<string, unknown>;
  ram_bytes: number;
  /** When requests arrive, where the source says (e.g. `{ periodic: 2325000 }`); applied when the preset is chosen. */
  timing?: unknown;
  notes: string;
}

/** What the engine can be asked to build: the settings panel renders from it. */
export interface Catalog {
  /** JSON Schema of the config without the scheme options (`configSchemaJson()`). */
  configSchema: Schema;
  defaultConfig: Record<string, unknown>;
  presets: Preset[];
  /** Every scheme's spec (`schemesJson()`): options, their docs and named variants. */
  schemes: SchemeSpec[];
}

/** A scheme's spec as the engine exports it (facade contract `SchemeSpecJson`). */
export interface SchemeSpec extends SchemeInfo {
  notes: string;
  stops: string[];
  caches: { level: string; name: string }[];
  default_options: Record<string, unknown>;
  option_docs: OptionDoc[];
  variants: { name: string; options: Record<string, unknown> }[];
}

/** The engine's answer to a config (`validateConfigJson`). */
export type Validation = { ok: true } | { ok: false; field?: string; message: string };

/** Static facts about a loaded simulation. */
export interface SimInfo {
  /** Requests in the trace. */
  total: number;
  /** Names of `FrameData.counters`, in order (defined once, in the engine). */
  counterNames: string[];
  blocks: number;
  pagesPerBlock: number;
  scheme: string;
  traceName: string;
  /** Every scheme the engine implements. */
  schemes: SchemeInfo[];
  /** Trace formats the engine parses. */
  formats: string[];
  /** The running scheme's spec: notes, the stops it can produce, its caches, options. */
  spec: SchemeSpec;
  /** The engine's vocabularies (stops, roles, kinds, states, purposes, cache levels). */
  vocab: Vocab;
  /** Bytes per flash page (device capacity = blocks × pagesPerBlock × pageBytes). */
  pageBytes: number;
  /** Share of pages already written at request 0 (the engine pre-fills the device). */
  prefilled: number;
  /** What the pre-fill did (the metrics' `prefill`); absent from engines that do not say. */
  prefill?: PrefillSummary;
  /** The scheme's analytic worst-case response time (µs), e.g. RFTL's L(p); absent: none. */
  responseBoundUs?: number;
}

/** What the engine's pre-fill did before request 0 (metrics `prefill`). */
export interface PrefillSummary {
  pages: number;
  /** `placed`: laid out in LPN order, metadata written once; `requests`: served through the scheme. */
  method: 'none' | 'placed' | 'requests';
  warm_up: boolean;
  /** The scheme's caches or buffers start holding what the pre-fill left in them. */
  caches_warm: boolean;
  blocks_used: number;
  data_pages_written: number;
  translation_pages_written: number;
  invalid_pages: number;
  erases: number;
}

/**
 * Blocks of a frame that changed since frame `base`: their pages (`pagesPerBlock` states a
 * block, in `blocks` order) and, when known, their role, valid count and erase count.
 */
export interface PageDelta {
  base: number;
  pagesPerBlock: number;
  blocks: Uint32Array;
  states: Uint8Array;
  roles?: Uint8Array;
  valid?: Uint32Array;
  erases?: Uint32Array;
}

/** One snapshot for the views; buffers are copies, transferred from the worker. */
export interface FrameData {
  /** One byte per physical page, block-major: 0 free, 1 valid, 2 invalid. */
  pageStates: Uint8Array;
  /** One byte per block: the engine's BlockRole. */
  blockRoles: Uint8Array;
  validCounts: Uint32Array;
  eraseCounts: Uint32Array;
  /** Values named by `SimInfo.counterNames` (at the engine's cursor). */
  counters: Float64Array;
  /** Engine state hash (16 hex digits); '' when skipped (full-speed play on big devices). */
  hash: string;
  /** Logical page shown in each cell (-1 unknown/free); only for small devices (labels). */
  pageKeys?: Int32Array;
  /**
   * The page's count of this simulation's frames (frameWire.ts; absent in the worker).
   * A frame that came as changes shares its device arrays with the frames before it,
   * updated in place: only the latest frame's are current.
   */
  seq?: number;
  /**
   * In the worker only: which read of the engine this frame is (the Readout counts them),
   * when it shows the engine's own state rather than a replay part-way through a request.
   */
  read?: number;
  /**
   * In the worker only: what changed since read `since`, as the engine said (its change
   * list: the blocks the events touched and those whose role changed), in a pooled buffer.
   * When the last frame sent was read `since`, this is the change list the page gets.
   */
  engineChanges?: { since: number; delta: PageDelta };
  /** Blocks whose pages changed since frame `since` (when it came as changes). */
  changes?: { since: number; blocks: Uint32Array };
}

/** Where the timeline stands. */
export interface Position {
  /** Requests fully served. */
  request: number;
  /** Operations of request `request` applied (0 at a boundary). */
  op: number;
  /** Operations in request `request` when `op > 0`, else 0. */
  ops: number;
}

/** Where a request's response time went (engine `lastRequestJson`). */
export interface RequestReport {
  index: number;
  op: 'read' | 'write' | 'trim' | null;
  lpn: number;
  pages: number;
  arrival_us: number;
  start_us: number;
  completion_us: number;
  response_us: number;
  queue_us: number;
  flash_us: Record<'data' | 'translation' | 'log' | 'buffer' | 'gc' | 'merge', number>;
  ram_us: number;
  lru_us: number;
  /** Host-interface transfer (`device.latency.host_transfer_ns_per_page`). */
  host_us: number;
  /** Metadata pages moved between SRAM, DRAM and NAND (`metadata.model`; seed 003). */
  meta_us: number;
}

/** Everything the views need after a timeline move. */
export interface ViewData {
  frame: FrameData;
  pos: Position;
  done: boolean;
  /** Requests served by this move (0 for moves within a request or backwards). */
  stepped: number;
  /** The request in progress (op > 0) or the last one served (op 0), with its events. */
  current: RequestTrace | null;
  /** Time report of `current` (null before the first request). */
  report: RequestReport | null;
  /** Requests whose events this move saw, oldest first (at most a few dozen): narration. */
  recent: RequestTrace[];
  /** For jumps: whether the thing looked for was found (else the position is unchanged). */
  found?: boolean;
  /** Long work stopped early by a `cancel` message. */
  cancelled?: boolean;
}

/** How far a streaming trace parse has got. */
export interface TraceProgress {
  bytes: number;
  lines: number;
  requests: number;
  /** The request limit was reached; the rest of the file is ignored. */
  done: boolean;
}

/** Statistics of a trace (engine `TraceSummary`; the fields the app shows). */
export interface TraceSummary {
  requests: number;
  reads: number;
  writes: number;
  trims: number;
  bytes_read: number;
  bytes_written: number;
  bytes_trimmed: number;
  size_min: number;
  size_max: number;
  size_mean: number;
  size_histogram: { min_bytes: number; max_bytes: number; count: number }[];
  page_bytes: number;
  footprint_pages: number;
  footprint_bytes: number;
  /** Largest `offset + size`: the end of the addressed space (the footprint a paper experiment sizes a device around). */
  end_max: number;
  heat: { first_offset: number; bucket_bytes: number; counts: number[] };
  sequential_requests: number;
  sequential_share: number;
  duration_ns: number;
  inter_arrival_ns: { count: number; mean: number; p50: number; p99: number; max: number };
}

/** What parsing a trace found (engine `TraceLoader.finish`). */
export interface TraceParse {
  name: string;
  format: string;
  report: {
    lines: number;
    requests: number;
    ignored: number;
    filtered: number;
    skipped: number;
    reordered: number;
    errors: { line: number; column: number; found: string; expected: string }[];
    limit_reached: boolean;
    /** Doubts that did not stop the parse (a forced format whose fields do not fit). */
    warnings?: string[];
  };
  summary: TraceSummary;
}

/** A previewed line's request (engine `PreviewRequest`). */
export interface PreviewRequest {
  /** ns since the preview's first request (absolute stamps exceed a JS number's precision). */
  at_ns: number;
  op: 'read' | 'write' | 'trim';
  offset: number;
  size: number;
  device: string | null;
}

/** A located parse error (engine `ParseError`). */
export interface LocatedError {
  file: string | null;
  line: number;
  column: number;
  found: string;
  expected: string;
}

/** The upload preview (engine `trace::preview::Preview`). */
export interface TracePreview {
  /** null when the format is unknown (see `error`). */
  format: string | null;
  detected: boolean;
  layout: string | null;
  fields: { name: string; meaning: string }[];
  /** Time unit in force and the format's own (`ns`, `filetime`, ...). */
  time_unit: string | null;
  default_time_unit: string | null;
  /** Bytes per sector in force; null when the format addresses in bytes. */
  sector_size: number | null;
  lines: {
    line: number;
    text: string;
    kind: 'request' | 'header' | 'ignored' | 'comment' | 'error' | 'unread';
    request: PreviewRequest | null;
    error: LocatedError | null;
  }[];
  error: LocatedError | null;
}

/**
 * A sweep question for the engine (one place for the CLI and the app): `catalog` gives
 * `{params, experiments}`; `expand` the checked points of a sweep; `trace` a generated
 * trace of an experiment as CSV; `report` our numbers beside the paper's.
 */
export type SweepCall =
  | { fn: 'catalog' }
  | { fn: 'expand'; baseJson: string; param: string; values: string; schemesJson: string }
  | { fn: 'trace'; experiment: string; trace: string }
  | { fn: 'report'; experiment: string; resultsJson: string; userJson?: string }
  /** An experiment's points on a trace addressing `footprintBytes` (its device sized around it on a footprint axis). */
  | { fn: 'points'; experiment: string; footprintBytes: number }
  /** About how many bytes one headless run of a config over `requests` requests holds. */
  | { fn: 'runBytes'; configJson: string; requests: number };

/**
 * Which simulation a message is for. The app's own is MAIN_SIM (the default when left out);
 * the comparison lab loads others beside it under their own ids, each with its own timeline.
 */
export type SimId = number;
export const MAIN_SIM: SimId = 0;

/** A message to the worker, for simulation `sim` (MAIN_SIM when left out). */
export type ToWorker = ToWorkerBody & { sim?: SimId };

type ToWorkerBody =
  | { type: 'load'; id: number; configJson: string; trace: ArrayBuffer; traceName: string; format?: string }
  /** Starts a streaming parse of trace `name` (`optionsJson`: engine ParseOptions). */
  | { type: 'traceOpen'; id: number; name: string; format?: string; optionsJson: string }
  | { type: 'traceChunk'; id: number; chunk: ArrayBuffer }
  | { type: 'traceClose'; id: number }
  /** Reads the start of a file as the parser would (`complete`: it is the whole file). */
  | {
      type: 'tracePreview';
      id: number;
      sample: ArrayBuffer;
      complete: boolean;
      format?: string;
      optionsJson: string;
      maxLines: number;
    }
  /** Builds the simulation from the trace parsed by traceOpen/Chunk/Close. */
  | { type: 'loadParsed'; id: number; configJson: string; traceName: string }
  /**
   * Runs the trace parsed by traceOpen/Chunk/Close to its end headless, in fast mode (no
   * events, no checkpoints, as `ftl run`), and replies its metrics; progress counts requests.
   * Loads nothing: the worker's simulations are untouched (the comparison lab's runs).
   * `overTime`: metric paths read at the paper experiments' points through the run (the
   * CLI's over-time readings), replied as `readings`.
   */
  | { type: 'run'; id: number; configJson: string; overTime?: string[] }
  /** Serve up to `requests` requests within `budgetMs`; `hash` asks for the state hash. */
  | { type: 'step'; id: number; requests: number; budgetMs: number; hash?: boolean }
  /** One operation forwards (+1) or backwards (-1). */
  | { type: 'stepOp'; id: number; delta: 1 | -1 }
  /** Back `requests` requests (from part-way through a request, its start counts as one). */
  | { type: 'back'; id: number; requests: number }
  | { type: 'seek'; id: number; request: number; op?: number }
  | { type: 'jump'; id: number; what: string }
  | { type: 'frame'; id: number }
  | { type: 'metrics'; id: number }
  | { type: 'pageInfo'; id: number; ppn: number }
  | { type: 'responses'; id: number }
  /** What the engine can build (schema, presets, scheme specs); no simulation needed. */
  | { type: 'catalog'; id: number }
  /** Checks a config as a load would, without building anything. */
  | { type: 'validate'; id: number; configJson: string }
  /** Sweeps and paper experiments: the engine expands and reports; JSON out. */
  | { type: 'sweep'; id: number; call: SweepCall }
  /**
   * A view asks the scheme's inspection a question at the current position (on demand,
   * never per frame); `query` reaches the engine untouched. The answer says where it stands.
   */
  | { type: 'inspect'; id: number; query: InspectQuery }
  /** Teaching mode: a lesson stop's facts or a question's answer (engine `lesson::query`), JSON in and out. */
  | { type: 'lesson'; id: number; query: string }
  /** Frees simulation `sim` (replies `dropped`); its id may be loaded again. */
  | { type: 'drop'; id: number }
  /** Stops the long work in progress (no reply of its own). */
  | { type: 'cancel'; id: number }
  /** Frame buffers the page has applied, handed back for reuse (no reply; frameWire.ts). */
  | { type: 'recycle'; id: number; buffers: ArrayBuffer[] };

export type FromWorker =
  | { type: 'traceFed'; id: number; progress: TraceProgress }
  | { type: 'traceParsed'; id: number; parse: TraceParse }
  | { type: 'tracePreviewed'; id: number; preview: TracePreview }
  | { type: 'loaded'; id: number; info: SimInfo; view: ViewData }
  | { type: 'view'; id: number; view: ViewData }
  | { type: 'progress'; id: number; label: string; done: number; total: number }
  /** `readings`: a run's over-time readings (JSON array of `{requests_done, values}`), when asked. */
  | { type: 'metrics'; id: number; json: string; readings?: string }
  | { type: 'pageInfo'; id: number; info: PageInfo | null }
  | { type: 'responses'; id: number; series: ResponseSeries }
  | { type: 'dropped'; id: number }
  | { type: 'inspection'; id: number; inspection: Inspection; at: Position }
  | { type: 'lesson'; id: number; json: string }
  | { type: 'catalog'; id: number; catalog: Catalog }
  | { type: 'validated'; id: number; result: Validation }
  | { type: 'sweep'; id: number; json: string }
  /**
   * The request failed. `fatal`: the wasm instance trapped and must not be used again (the
   * client replaces the worker). `cancelled`: a `cancel` stopped it before it changed anything.
   */
  | { type: 'error'; id: number; message: string; fatal?: boolean; cancelled?: boolean };

/** Buffers of a frame, for `postMessage`'s transfer list. */
export function frameTransfer(f: FrameData): ArrayBuffer[] {
  // A frame read from the engine shares its device arrays with the worker's read-out (its
  // copy of the engine's state): those are copied, never moved.
  const arrays =
    f.read === undefined ? [f.pageStates, f.blockRoles, f.validCounts, f.eraseCounts, f.counters] : [f.counters];
  if (f.pageKeys) arrays.push(f.pageKeys as unknown as Uint8Array);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}
