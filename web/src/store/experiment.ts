/** An experiment: which trace, which scheme and device. The URL will hold this later. */
export interface Experiment {
  /** URL of the trace file, relative to the app. */
  traceUrl: string;
  /** Name shown in the UI and in error messages. */
  traceName: string;
  /** Engine config (JSON); fields left out take the engine's defaults. */
  config: { scheme: string; [key: string]: unknown };
}

/** What the app opens on: a real MSR Cambridge excerpt, the small default device, `page`. */
export const DEFAULT_EXPERIMENT: Experiment = {
  traceUrl: 'traces/msr-cambridge_hm_0_first1000.csv',
  traceName: 'msr-cambridge_hm_0_first1000.csv',
  config: { scheme: 'page' },
};

/** Playback speeds in requests per second; Infinity = as fast as the engine runs. */
export const SPEEDS = [1, 5, 20, 100, 1000, 10000, Infinity] as const;

/** Label of a speed. */
export function speedLabel(s: number): string {
  return s === Infinity ? 'max' : `${s.toLocaleString('en-US')}/s`;
}
