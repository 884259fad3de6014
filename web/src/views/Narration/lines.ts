/**
 * Narration lines per request, memoised on the request object (the store never mutates a
 * RequestTrace, and keeps the same object for a request it already holds), plus the
 * filter the log applies.
 */
import type { RequestTrace } from '../../engine/events';
import { narrate, type LineKind, type NarrationLine, type Vocabulary } from '../../narration/narrate';

const cache = new WeakMap<RequestTrace, { key: string; lines: NarrationLine[] }>();

/** The narration of `trace` (cached per request, scheme words and geometry). */
export function linesOf(trace: RequestTrace, ppb: number, vocab: Vocabulary): NarrationLine[] {
  const key = `${ppb}|${JSON.stringify(vocab)}`;
  const hit = cache.get(trace);
  if (hit && hit.key === key) return hit.lines;
  const lines = narrate(trace, ppb, vocab);
  cache.set(trace, { key, lines });
  return lines;
}

/** What the log shows: a kind (or all) and text that must appear (case-insensitive). */
export interface LogFilter {
  kind: LineKind | 'all';
  text: string;
}

/** Lines of a request that pass the filter (the request header matches the text too). */
export function filterLines(lines: NarrationLine[], header: string, f: LogFilter): NarrationLine[] {
  const q = f.text.trim().toLowerCase();
  const headerHit = q !== '' && header.toLowerCase().includes(q);
  return lines.filter(
    (l) => (f.kind === 'all' || l.kind === f.kind) && (q === '' || headerHit || l.text.toLowerCase().includes(q)),
  );
}

/**
 * The requests of `log` (sorted by index) that are rendered: up to `before` of them up to
 * and including request `current`, and up to `after` beyond it. The whole log (the same
 * array) when that covers it.
 */
export function groupsAround<T extends { index: number }>(
  log: readonly T[],
  current: number,
  before: number,
  after: number,
): readonly T[] {
  let end = log.findIndex((t) => t.index > current);
  if (end < 0) end = log.length;
  const lo = Math.max(0, end - before);
  const hi = Math.min(log.length, end + after);
  return lo === 0 && hi === log.length ? log : log.slice(lo, hi);
}
