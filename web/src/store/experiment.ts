/**
 * An experiment: which trace, which scheme and device (the experiment slice of the store
 * holds the loaded one; the URL codec for sharing will live here).
 */
export interface Experiment {
  /** URL of the trace file, relative to the app. */
  traceUrl: string;
  /** Name shown in the UI and in error messages. */
  traceName: string;
  /** Engine config (JSON); fields left out take the engine's defaults. */
  config: { scheme: string; [key: string]: unknown };
  /** An uploaded file (kept in memory for this session); when set, `traceUrl` is unused. */
  file?: File;
  /** The upload's content hash (traces/contentHash.ts): its key in the trace library. */
  traceHash?: string;
}

/** What the app opens on: a real MSR Cambridge excerpt, the small default device, `page`. */
export const DEFAULT_EXPERIMENT: Experiment = {
  traceUrl: 'traces/msr-cambridge_hm_0_first1000.csv',
  traceName: 'msr-cambridge_hm_0_first1000.csv',
  config: { scheme: 'page' },
};
