/** Playback speeds (the ui slice's `speed` indexes SPEEDS). */

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
