/**
 * What the synchronised view says about each side's current request: its mapping-cache hits
 * and misses (the teacher's "watch DFTL miss where TreeFTL hits"), counted from its events.
 */
import type { RequestTrace } from '../../engine/events';

/** Mapping lookups of one request: hits and misses at every RAM level but the data buffer. */
export interface Lookups {
  hits: number;
  misses: number;
}

/** Counts `trace`'s mapping-cache hits and misses (data-buffer lookups are not mapping). */
export function lookups(trace: RequestTrace | null): Lookups {
  const out: Lookups = { hits: 0, misses: 0 };
  for (const e of trace?.ops ?? []) {
    if ((e.type === 'cache_hit' || e.type === 'cache_miss') && e.level !== 'data_page') {
      if (e.type === 'cache_hit') out.hits++;
      else out.misses++;
    }
  }
  return out;
}

/** "2 hits, 1 miss" / "no mapping lookup". */
export function lookupText(l: Lookups): string {
  if (l.hits + l.misses === 0) return 'no mapping lookup';
  const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : w === 'miss' ? 'es' : 's'}`;
  return `${n(l.hits, 'hit')}, ${n(l.misses, 'miss')}`;
}
