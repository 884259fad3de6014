/**
 * The parts of the wasm module the worker uses, as interfaces, so SimCore runs on the
 * browser build, the Node-loaded build in tests, or a fake.
 */
import type { FrameData } from './protocol';

/** The wasm module's free functions, the Simulation constructor and the TraceLoader. */
export interface WasmApi {
  Simulation: {
    new (configJson: string, trace: Uint8Array, traceName: string, format?: string | null): WasmSimulation;
    /** Builds a simulation from a finished loader, taking its requests. */
    fromLoader(configJson: string, loader: WasmTraceLoader): WasmSimulation;
  };
  TraceLoader: new (name: string, format: string | null | undefined, optionsJson: string) => WasmTraceLoader;
  counterNames(): string[];
  schemesJson(): string;
  formatsJson(): string;
  /** Upload preview JSON (protocol TracePreview); throws on unreadable options JSON. */
  previewTraceJson(
    sample: Uint8Array,
    complete: boolean,
    format: string | null | undefined,
    optionsJson: string,
    maxLines: number,
  ): string;
  presetsJson(): string;
  defaultConfigJson(): string;
  /** JSON Schema of the config without scheme options. */
  configSchemaJson(): string;
  /** `{"ok":true}` or `{"ok":false,"field":…,"message":…}`. */
  validateConfigJson(configJson: string): string;
  /** The closed vocabularies (stops, roles, kinds, states, purposes, cache levels). */
  vocabJson(): string;
  /** Sweeps and paper experiments (engine `sweep`, `experiments`); these throw on bad input. */
  sweepParamsJson(): string;
  sweepExpandJson(baseJson: string, param: string, values: string, schemesJson: string): string;
  experimentsJson(): string;
  experimentTraceCsv(experiment: string, trace: string): string;
  experimentReportJson(experiment: string, resultsJson: string, userJson: string): string;
  /** An experiment's points with its footprint axis sized around `footprintBytes`. */
  experimentPointsJson(experiment: string, footprintBytes: number): string;
  /** How many over-time readings a paper experiment's run takes (the CLI's count). */
  overTimePoints(): number;
  /** About how many bytes one headless run of a config over `requests` requests holds. */
  runBytes(configJson: string, requests: number): number;
}

/** Streaming trace parser with statistics (engine `TraceLoader`). */
export interface WasmTraceLoader {
  /** Parses a chunk; returns progress JSON `{bytes, lines, requests, done}`. */
  feed(chunk: Uint8Array): string;
  /** Ends the input; returns `{format, report, summary}` JSON. */
  finish(): string;
  free(): void;
}

/** The wasm Simulation object's surface (see web/src/engine/pkg/ftl_wasm.d.ts). */
export interface WasmSimulation {
  step(n: number): number;
  /** Serves up to `n` requests without checkpoints or response times (fast, headless runs). */
  stepEngineOnly(n: number): number;
  /** Serves until a request where `what` (a stop id) happens, at most `max` requests. */
  stepUntil(what: string, max: number): { served: number; found: boolean };
  /** `{scheme, blocks, pages_per_block, page_bytes, logical_pages, ram_budget, spec}`. */
  infoJson(): string;
  seek(cursor: number): void;
  cursor(): number;
  total(): number;
  done(): boolean;
  /** The whole frame; the baseline of the next `frameChanges`. */
  frame(): Omit<FrameData, 'hash' | 'pageKeys'>;
  /**
   * What changed since the last `frame` / `frameChanges` (the blocks in `touched`, those
   * whose role changed; every block after a seek or dropped events): its packed length in
   * bytes, n × (13 + pages per block) — n block numbers, valid counts, erase counts (u32),
   * roles (u8), the blocks' pages (u8). `copyFrameChanges` copies it into `out` (that length).
   */
  frameChanges(touched: Uint32Array): number;
  copyFrameChanges(out: Uint8Array): void;
  /** The counters now, written into `out` (one a counter name). */
  countersInto(out: Float64Array): void;
  metricsJson(): string;
  /** An over-time reading now of the metric paths in `pathsJson` (`{requests_done, values}`). */
  readingJson(pathsJson: string): string;
  lastRequestJson(): string;
  responses(from: number, to: number): Float32Array;
  takeEventsJson(): string;
  /** Drops the recorded events without serialising them. */
  discardEvents(): void;
  /** `[key, version, kind]` of every page, flattened. */
  pageTags(): Uint32Array;
  stateHash(): string;
  /** The answer to a view's question (`InspectQuery` JSON; engine/inspection.ts); never changes the state hash. */
  inspectJson(queryJson: string): string;
  /** A lesson stop's facts or a question's answer (engine `lesson::query`), on copies. */
  lessonJson(query: string): string;
  /** Events since the last take as binary records (eventCodec.ts). */
  takeEvents(): Uint32Array;
  free(): void;
}
