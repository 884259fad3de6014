/** A request's operations counted in words, for the inspector. */
import type { EngineEvent } from '../../engine/events';

/** "9 page programs, 3 reads, 1 erase; 1 GC (3 copies)" for a request's operations. */
export function opSummary(ops: EngineEvent[]): string {
  const n = (t: EngineEvent['type']) => ops.filter((e) => e.type === t).length;
  const copies = ops.filter((e) => e.type === 'flash_program' && e.purpose === 'gc').length;
  const parts = [
    [n('flash_program'), 'page program'],
    [n('flash_read'), 'page read'],
    [n('erase'), 'erase'],
    [n('cache_miss'), 'cache miss'],
    [n('cache_hit'), 'cache hit'],
  ]
    .filter(([c]) => +c > 0)
    .map(([c, w]) => `${c} ${w}${c === 1 ? '' : 's'}`);
  const gcs = n('gc_start');
  const gc = gcs ? `; ${gcs} GC${gcs > 1 ? 's' : ''} (${copies} page cop${copies === 1 ? 'y' : 'ies'})` : '';
  return parts.length ? `${parts.join(', ')}${gc}` : 'No flash operations.';
}
