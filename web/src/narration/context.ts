/**
 * Lines that say what the user is looking at, so a student does not read the device's
 * starting state or the trace's load as the FTL's doing (issue 8 item 8).
 */
import { bytes } from '../traces/format';

/** The grid at request 0 is not empty: the engine pre-fills the device. */
export function prefillNote(prefilled: number): string | null {
  if (!(prefilled > 0)) return null;
  return `Before request 0, ${Math.round(prefilled * 100)} % of the pages already hold data: the device starts pre-filled, as a used drive would.`;
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
