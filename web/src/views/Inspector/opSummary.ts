/** A request's operations counted in words, for the inspector. */
import type { EngineEvent } from '../../engine/events';

/** "9 page programs, 3 reads, 1 erase; 1 GC (3 copies)" for a request's operations. */
export function opSummary(ops: EngineEvent[]): string {
  const n = (t: EngineEvent['type']) => ops.filter((e) => e.type === t).length;
  const copies = ops.filter((e) => e.type === 'flash_program' && (e.purpose === 'gc' || e.purpose === 'merge')).length;
  const parts = [
    [n('flash_program'), 'page program'],
    [n('flash_read'), 'page read'],
    [n('erase'), 'erase'],
    [n('cache_miss'), 'cache miss'],
    [n('cache_hit'), 'cache hit'],
  ]
    .filter(([c]) => +c > 0)
    .map(([c, w]) => `${c} ${w}${c === 1 ? '' : 's'}`);
  // A log-block scheme's GC run is a merge (or A of them): told by kind, not as GC.
  const merges = ops.flatMap((e) => (e.type === 'merge' ? [e.kind] : []));
  const gcs = n('gc_start') - mergeRuns(ops);
  const runs = [
    ...(['switch', 'partial', 'full'] as const).flatMap((k) => {
      const c = merges.filter((m) => m === k).length;
      return c ? [`${c} ${k} merge${c > 1 ? 's' : ''}`] : [];
    }),
    ...(gcs ? [`${gcs} GC${gcs > 1 ? 's' : ''}`] : []),
  ];
  const gc = runs.length ? `; ${runs.join(', ')} (${copies} page cop${copies === 1 ? 'y' : 'ies'})` : '';
  return parts.length ? `${parts.join(', ')}${gc}` : 'No flash operations.';
}

/** GC runs (gc_start … gc_end) that merged log blocks. */
function mergeRuns(ops: EngineEvent[]): number {
  let runs = 0;
  let open = false;
  let merged = false;
  for (const e of ops) {
    if (e.type === 'gc_start') [open, merged] = [true, false];
    else if (e.type === 'merge' && open && !merged) [merged, runs] = [true, runs + 1];
    else if (e.type === 'gc_end') open = false;
  }
  return runs;
}
