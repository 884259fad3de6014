/**
 * The narration log's memory: the requests whose events the timeline has seen, sorted by
 * index, without duplicates, capped. Request events are deterministic, so a request seen
 * once stays right after stepping back and forth; entries ahead of the position are kept
 * (shown as "ahead") so a lecture can rewind and replay with the story still on screen.
 */
import type { RequestTrace } from '../engine/events';

/** Requests the log keeps. */
export const LOG_CAP = 150;

/**
 * Merges `incoming` into `groups` (both sorted by index). When over `cap`, drops the
 * requests farthest from `focus` (the current position).
 */
export function mergeLog(
  groups: readonly RequestTrace[],
  incoming: readonly RequestTrace[],
  focus: number,
  cap = LOG_CAP,
): RequestTrace[] {
  if (incoming.length === 0) return groups as RequestTrace[];
  const byIndex = new Map<number, RequestTrace>();
  for (const g of groups) byIndex.set(g.index, g);
  let changed = false;
  for (const g of incoming) {
    if (!byIndex.has(g.index)) changed = true;
    byIndex.set(g.index, byIndex.get(g.index) ?? g);
  }
  if (!changed) return groups as RequestTrace[];
  const out = [...byIndex.values()].sort((a, b) => a.index - b.index);
  let lo = 0;
  let hi = out.length;
  while (hi - lo > cap) {
    if (focus - out[lo].index > out[hi - 1].index - focus) lo++;
    else hi--;
  }
  return out.slice(lo, hi);
}
