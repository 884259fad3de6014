/** An experiment: which trace, which scheme and device. The URL will hold this later. */
export interface Experiment {
  /** URL of the trace file, relative to the app. */
  traceUrl: string;
  /** Name shown in the UI and in error messages. */
  traceName: string;
  /** Engine config (JSON); fields left out take the engine's defaults. */
  config: { scheme: string; [key: string]: unknown };
  /** An uploaded file (kept in memory for this session); when set, `traceUrl` is unused. */
  file?: File;
}

/** What the app opens on: a real MSR Cambridge excerpt, the small default device, `page`. */
export const DEFAULT_EXPERIMENT: Experiment = {
  traceUrl: 'traces/msr-cambridge_hm_0_first1000.csv',
  traceName: 'msr-cambridge_hm_0_first1000.csv',
  config: { scheme: 'page' },
};

/** A playback speed: so many operations or requests per second (Infinity = engine speed). */
export interface Speed {
  unit: 'op' | 'request';
  perSecond: number;
}

/**
 * Playback speeds, slowest first. The slow end moves one flash operation at a time (for a
 * lecture); from 5 requests per second up, whole requests.
 */
export const SPEEDS: readonly Speed[] = [
  { unit: 'op', perSecond: 1 },
  { unit: 'op', perSecond: 3 },
  { unit: 'op', perSecond: 10 },
  { unit: 'op', perSecond: 30 },
  { unit: 'request', perSecond: 5 },
  { unit: 'request', perSecond: 20 },
  { unit: 'request', perSecond: 100 },
  { unit: 'request', perSecond: 1000 },
  { unit: 'request', perSecond: 10000 },
  { unit: 'request', perSecond: Infinity },
];

/** Speed the app starts at (20 requests per second). */
export const DEFAULT_SPEED = 5;

/** Label of a speed. */
export function speedLabel(s: Speed): string {
  if (s.perSecond === Infinity) return 'max';
  return `${s.perSecond.toLocaleString('en-US')} ${s.unit === 'op' ? 'op' : 'req'}/s`;
}
