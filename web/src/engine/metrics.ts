/**
 * The engine's metrics object (DESIGN §4, the JSON of `ftl run --json` and the worker's
 * `metrics` reply), the parts the app reads: a mirror of the engine's types, beside the
 * engine client, so every folder reads them from the bottom floor.
 */

/** The parts of the engine's metrics object the lab reads (the rest is kept in the JSON). */
export interface RunMetrics {
  scheme: string;
  trace: { name: string; requests: number };
  flash: {
    page_reads: number;
    page_writes: number;
    erases: number;
    by_purpose: Record<string, { page_reads: number; page_writes: number; erases: number }>;
  };
  gc: { runs: number; valid_copies: number };
  mapping?: { hit_ratio: number };
  buffer?: { hit_ratio: number };
  response_us: Distribution;
  /** Read and write requests apart (engine `ResponseByOp`). */
  response_by_op_us?: { read: Distribution; write: Distribution };
  /** `response_us` at fixed shares 0, 0.01 … 1 (engine `CdfPoint::of`). */
  response_cdf_us?: { p: number; us: number }[];
  service_time_us: { total: number; flash: number; ram: number; lru: number; host: number };
  waf: number;
  ram_bytes?: number;
  requests_done?: number;
  /** The run sampled over the trace, at most 200 windows (engine `series::SeriesPoint`). */
  series?: SeriesPoint[];
  [more: string]: unknown;
}

/** Response-time summary in µs (engine `Distribution`; p90, p999, min, count, std since issue 13). */
export interface Distribution {
  mean: number;
  p50: number;
  p90?: number;
  p99: number;
  p999?: number;
  max: number;
  min?: number;
  std?: number;
  count?: number;
}

/** One window of the trace (engine `SeriesPoint`). */
export interface SeriesPoint {
  requests_done: number;
  sim_time_us: number;
  mean_response_us: number;
  max_response_us: number;
  free_blocks: number;
  /** RAM held now, for schemes that report their split (engine `RamSplit`). */
  ram?: { mapping_bytes: number; buffer_bytes: number };
}
