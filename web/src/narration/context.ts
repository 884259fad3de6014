/**
 * Lines that say what the user is looking at, so a student does not read the device's
 * starting state or the trace's load as the FTL's doing.
 */
import type { PrefillSummary } from '../engine/protocol';
import { bytes } from '../traces/format';

const count = (n: number) => n.toLocaleString('en-US');

/** The grid at request 0 is not empty: the engine pre-fills the device; `p` says how. */
export function prefillNote(prefilled: number, p?: PrefillSummary): string | null {
  if (!(prefilled > 0)) return null;
  const share = `Before request 0, ${Math.round(prefilled * 100)} % of the pages already hold data: the device starts pre-filled, as a used drive would.`;
  if (!p || p.pages === 0) return share;
  // Without warm-up the pages go in LPN order, placed or (schemes without caches) as requests.
  const how = p.warm_up || p.caches_warm ? 'written through the scheme as requests' : 'laid out in LPN order';
  const parts = [`${count(p.pages)} pages ${how} in ${count(p.blocks_used)} blocks`];
  if (p.translation_pages_written > 0) parts.push(`${count(p.translation_pages_written)} translation pages written`);
  if (p.invalid_pages > 0) parts.push(`${count(p.invalid_pages)} pages already superseded`);
  if (p.erases > 0) parts.push(`${count(p.erases)} blocks erased`);
  const caches = p.caches_warm
    ? ' The caches start warm with what the pre-fill left in them (warm-up).'
    : p.method === 'placed'
      ? ' The caches start empty.'
      : '';
  return `${share} Pre-fill: ${parts.join(', ')}.${caches}`;
}

/** What the queueing note needs: the run's mean response and service time, and sizes. */
export interface LoadFigures {
  /** Mean response per request (µs). */
  meanResponseUs: number;
  /** Service time summed over the requests served (µs). */
  serviceTotalUs: number;
  requestsDone: number;
  /** Device capacity and the trace's footprint (bytes). */
  capacityBytes: number;
  footprintBytes?: number;
}

/**
 * When most of the mean response is waiting (requests arrive faster than the device serves
 * them), say so, and say how the device compares with the trace. Null when it is not.
 */
export function queueingNote(f: LoadFigures): string | null {
  if (f.requestsDone === 0 || !(f.meanResponseUs > 0)) return null;
  const service = f.serviceTotalUs / f.requestsDone;
  const share = 1 - service / f.meanResponseUs;
  if (share < 0.5) return null;
  const sizes =
    f.footprintBytes && f.footprintBytes > f.capacityBytes
      ? ` on a ${bytes(f.capacityBytes)} device far smaller than the trace (it touches ${bytes(f.footprintBytes)})`
      : '';
  return `About ${Math.round(share * 100)} % of the mean response is queueing: requests arrive faster than they are served${sizes}. That is the trace's load, not FTL work.`;
}
