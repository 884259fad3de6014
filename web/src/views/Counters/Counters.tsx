import { useSim } from '../../store/useSim';
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

/** The run's counters, updated every frame. */
export function Counters() {
  const names = useSim((s) => s.info?.counterNames);
  const counters = useSim((s) => s.frame?.counters);
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
    </section>
  );
}
