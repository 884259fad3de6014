import { useEffect, useState } from 'react';
import { queueingNote } from '../../narration/context';
import { useSim, useStore } from '../../store/useSim';
import { Terms } from '../../ui/Terms';
import { formatCounter } from './format';
import { translationView, type TranslationMetrics, type TranslationView } from './translation';
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
  ['waf', 'write amplification (WAF)'],
  ['response_mean_us', 'mean response (µs)'],
  ['last_response_us', 'last response (µs)'],
  ['integrity_errors', 'integrity errors'],
];

/**
 * What the counters show from the engine's metrics: whether the mean response is mostly
 * queueing (service time summed over requests) and the translation-page traffic; asked
 * again after every move, not while playing.
 */
function useMetricsNotes(): { note: string | null; tpages?: TranslationView } {
  const store = useStore();
  const seq = useSim((s) => s.seq);
  const playing = useSim((s) => s.status === 'playing');
  const info = useSim((s) => s.info);
  const footprint = useSim((s) => s.trace?.summary.footprint_bytes);
  const [notes, setNotes] = useState<{ note: string | null; tpages?: TranslationView }>({ note: null });
  useEffect(() => {
    if (playing || !info || !store.live) return;
    let live = true;
    store.client
      .request<'metrics'>({ type: 'metrics' })
      .then((r) => {
        const m = JSON.parse(r.json);
        const capacityBytes = info.blocks * info.pagesPerBlock * info.pageBytes;
        const requestsDone = m.requests_done ?? 0;
        const note = queueingNote({
          meanResponseUs: m.response_us?.mean ?? 0,
          serviceTotalUs: m.service_time_us?.total ?? 0,
          requestsDone,
          capacityBytes,
          footprintBytes: footprint,
        });
        const tpages = translationView(
          m.translation_pages as TranslationMetrics | undefined,
          info.vocab.tpage_causes ?? [],
        );
        if (live) setNotes({ note, tpages });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [seq, playing, info, footprint, store]);
  return notes;
}

const count = (v: number) => v.toLocaleString('en-US');

/** Translation-page reads and writes by cause, extra reads per miss, bloom false positives. */
function TranslationPages({ v }: { v: TranslationView }) {
  return (
    <section className="counters__tpages" aria-label="Translation pages" data-testid="tpage-counters">
      <h3>Translation pages</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">cause</th>
            <th scope="col">reads</th>
            <th scope="col">writes</th>
          </tr>
        </thead>
        <tbody>
          {v.rows.map((r) => (
            <tr key={r.id} data-cause={r.id}>
              <th scope="row">{r.label}</th>
              <td>{count(r.reads)}</td>
              <td>{count(r.writes)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">all causes</th>
            <td>{count(v.reads)}</td>
            <td>{count(v.writes)}</td>
          </tr>
        </tbody>
      </table>
      <dl>
        <div className="counter">
          <dt>extra flash reads per miss</dt>
          <dd data-counter="extra_reads_per_miss">{v.extraReadsPerMiss.toFixed(3)}</dd>
        </div>
        <div className="counter">
          <dt>bloom false positives</dt>
          <dd data-counter="bloom_false_positives">{count(v.bloomFalsePositives)}</dd>
        </div>
      </dl>
    </section>
  );
}

/** The run's counters, updated every frame. */
export function Counters() {
  const names = useSim((s) => s.info?.counterNames);
  const counters = useSim((s) => s.frame?.counters);
  const { note, tpages } = useMetricsNotes();
  return (
    <section className="counters" aria-label="Counters">
      <h2>Counters</h2>
      <dl>
        {SHOWN.map(([name, label]) => {
          const i = names?.indexOf(name) ?? -1;
          const v = counters && i >= 0 ? counters[i] : NaN;
          return (
            <div key={name} className={name === 'integrity_errors' && v > 0 ? 'counter counter--bad' : 'counter'}>
              <dt>
                <Terms text={label} />
              </dt>
              <dd data-counter={name}>{formatCounter(name, v)}</dd>
            </div>
          );
        })}
      </dl>
      {tpages && <TranslationPages v={tpages} />}
      {note && (
        <p className="counters__note" data-testid="queueing-note">
          {note}
        </p>
      )}
    </section>
  );
}
