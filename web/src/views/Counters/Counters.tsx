import { useEffect, useState } from 'react';
import { queueingNote } from '../../narration/context';
import { useSim, useStore } from '../../store/useSim';
import { formatCounter } from './format';
import './Counters.css';

/** The counters shown, in order, with their labels (names come from the engine). */
const SHOWN: [name: string, label: string][] = [
  ['requests_done', 'requests served'],
  ['reads', 'read requests'],
  ['writes', 'write requests'],
  ['flash_page_reads', 'flash page reads'],
  ['flash_page_writes', 'flash page programs'],
  ['flash_erases', 'block erases'],
  ['gc_runs', 'GC runs'],
  ['gc_valid_copies', 'GC page copies'],
  ['waf', 'write amplification'],
  ['response_mean_us', 'mean response (µs)'],
  ['last_response_us', 'last response (µs)'],
  ['integrity_errors', 'integrity errors'],
];

/**
 * Whether the mean response is mostly queueing, from the engine's metrics (service time
 * summed over requests); asked again after every move, not while playing.
 */
function useQueueingNote(): string | null {
  const store = useStore();
  const seq = useSim((s) => s.seq);
  const playing = useSim((s) => s.status === 'playing');
  const info = useSim((s) => s.info);
  const footprint = useSim((s) => s.trace?.summary.footprint_bytes);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (playing || !info || !store.live) return;
    let live = true;
    store.client
      .request<'metrics'>({ type: 'metrics' })
      .then((r) => {
        const m = JSON.parse(r.json);
        const capacityBytes = info.blocks * info.pagesPerBlock * info.pageBytes;
        const requestsDone = m.requests_done ?? 0;
        if (live) setNote(queueingNote({ meanResponseUs: m.response_us?.mean ?? 0, serviceTotalUs: m.service_time_us?.total ?? 0, requestsDone, capacityBytes, footprintBytes: footprint }));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [seq, playing, info, footprint, store]);
  return note;
}

/** The run's counters, updated every frame. */
export function Counters() {
  const names = useSim((s) => s.info?.counterNames);
  const counters = useSim((s) => s.frame?.counters);
  const note = useQueueingNote();
  return (
    <section className="counters" aria-label="Counters">
      <h2>Counters</h2>
      <dl>
        {SHOWN.map(([name, label]) => {
          const i = names?.indexOf(name) ?? -1;
          const v = counters && i >= 0 ? counters[i] : NaN;
          return (
            <div key={name} className={name === 'integrity_errors' && v > 0 ? 'counter counter--bad' : 'counter'}>
              <dt>{label}</dt>
              <dd data-counter={name}>{formatCounter(name, v)}</dd>
            </div>
          );
        })}
      </dl>
      {note && (
        <p className="counters__note" data-testid="queueing-note">
          {note}
        </p>
      )}
    </section>
  );
}
