/**
 * The one worker pool of the Compare tab: side-by-side comparisons and sweeps run on the same
 * warm workers (one run at a time; the tab's modes do not overlap).
 */
import { SimClient } from '../engine/client';
import { poolSize, RunPool } from './pool';

let pool: RunPool | null = null;

/** The tab's pool, made on first use. */
export function sharedPool(): RunPool {
  pool ??= new RunPool(() => new SimClient(), poolSize(navigator.hardwareConcurrency));
  return pool;
}
