/**
 * The op level of an ordered list (an inspection's `list` shape: a CMT, a CTP list): the
 * request's cache events on the list's level replayed over the list from before it.
 */
import type { EngineEvent } from '../events';
import type { Structure } from '../inspection';

type ListShape = Extract<Structure, { shape: 'list' }>;

/**
 * `s` with the cache events among `ops` on its level applied: an insert puts the key
 * first, a hit moves it first, an evict removes it. Values and dirty bits the events do not
 * carry are kept (moved entries) or unknown (null, clean) for inserted ones; every entry an
 * event named is `touched`.
 */
export function replayList(s: ListShape, ops: EngineEvent[]): ListShape {
  let entries = s.entries.map((e) => ({ ...e, touched: false }));
  let len = s.len;
  for (const e of ops) {
    if ((e.type !== 'cache_insert' && e.type !== 'cache_hit' && e.type !== 'cache_evict') || e.level !== s.level)
      continue;
    const i = entries.findIndex((x) => x.key === e.key);
    const old = i >= 0 ? entries[i] : undefined;
    if (i >= 0) entries.splice(i, 1);
    if (e.type === 'cache_evict') {
      len = Math.max(0, len - 1);
      continue;
    }
    if (e.type === 'cache_insert' && !old) len++;
    entries = [{ ...(old ?? { key: e.key, value: null, dirty: false }), touched: true }, ...entries];
  }
  return { ...s, entries, len };
}
