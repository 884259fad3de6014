/**
 * The Compare tab's cold engine questions (sweep expansion, paper experiments, run sizes):
 * one worker of their own, started on first use, never running a simulation.
 */
import { SimClient } from '../engine/client';
import type { SweepCall } from '../engine/protocol';
import { lanesForMemory, type RunJob } from './pool';

/** Asks the engine a cold question; answers JSON text. */
export type Cold = (call: SweepCall) => Promise<string>;

export function defaultCold(): Cold {
  let client: SimClient | null = null;
  return async (call) => {
    client ??= new SimClient();
    return (await client.request<'sweep'>({ type: 'sweep', call })).json;
  };
}

/** The browser's memory in GiB, where it says (Chromium's `navigator.deviceMemory`). */
export function deviceMemoryGiB(): number | undefined {
  return typeof navigator === 'undefined'
    ? undefined
    : (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
}

/**
 * How many of `jobs` may run at once in a pool of `size` lanes: the memory bound for the
 * largest run by the engine's estimate (`requests`: the trace's length, 0 when not known).
 */
export async function lanesFor(
  cold: Cold,
  size: number,
  jobs: RunJob[],
  requests = 0,
  memoryGiB = deviceMemoryGiB(),
): Promise<number> {
  const configs = [...new Set(jobs.map((j) => JSON.stringify(j.config)))];
  let most = 0;
  for (const configJson of configs) {
    try {
      most = Math.max(most, Number(await cold({ fn: 'runBytes', configJson, requests })));
    } catch {
      // A config the engine refuses fails its own run, with the reason: it holds nothing.
    }
  }
  return lanesForMemory(size, most, memoryGiB);
}
