import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { SchemeSpec } from '../engine/protocol';
import { schemeColor } from '../charts/schemeColors';
import { useSim, useStore } from '../store/useSim';
import { BreakdownChart } from './charts/BreakdownChart';
import { compareBreakdown } from '../charts/breakdown';
import { ChartDeck } from './charts/ChartDeck';
import { download, toCsv, toJson } from './export';
import { MAX_SCHEMES, MIN_SCHEMES, type RunState } from './lab';
import type { RunMetrics } from '../engine/metrics';
import { columnsFor } from './metrics';
import { ResultsTable } from './ResultsTable';
import { SweepModes, SweepPanel } from './sweep/SweepPanel';
import { compareLab as lab } from './theLab';
import './Compare.css';

function useLab() {
  return useSyncExternalStore(lab.subscribe, lab.getState);
}

function runLabel(r: RunState): string {
  switch (r.status) {
    case 'queued':
      return 'waiting';
    case 'running':
      if (r.total) return `${r.done.toLocaleString('en-US')} / ${r.total.toLocaleString('en-US')} requests`;
      return r.read ? `reading the trace, ${Math.round(100 * r.read)} %` : 'reading the trace';
    case 'done':
      return `done, ${r.total.toLocaleString('en-US')} requests`;
    case 'stopped':
      return 'stopped';
    case 'error':
      return `failed: ${r.message ?? ''}`;
  }
}

/** One line for the live region: how many runs finished (said once, not per progress tick). */
function summary(runs: RunState[], running: boolean): string {
  const count = (st: RunState['status']) => runs.filter((r) => r.status === st).length;
  const done = count('done');
  const failed = count('error');
  const stopped = count('stopped');
  const parts = [`${done} of ${runs.length} runs done`];
  if (failed) parts.push(`${failed} failed`);
  if (stopped) parts.push(`${stopped} stopped`);
  return `${running ? 'Running: ' : 'Comparison finished: '}${parts.join(', ')}.`;
}

/**
 * The comparison lab: pick 2–8 of the engine's schemes, run each on
 * the loaded trace and device in the worker pool, and compare the metrics in a table and a
 * chart normalised to a baseline; take them away as CSV, JSON or SVG.
 */
export function ComparePanel() {
  const store = useStore();
  const experiment = useSim((s) => s.experiment);
  const choices = useSim((s) => s.parseChoices);
  const st = useLab();
  const [specs, setSpecs] = useState<SchemeSpec[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // The side panel is narrow for a table of 20-odd columns: Widen lays the lab over the page.
  const [wide, setWide] = useState(false);
  // Side by side, or a sweep; in Sweep mode CSS hides the side-by-side parts. The
  // mode is the lab's, so a shared link can name it.
  const sweep = st.mode === 'sweep';
  const setSweep = (on: boolean) => lab.setMode(on ? 'sweep' : 'schemes');

  useEffect(() => {
    store.catalog().then(
      (c) => setSpecs(c.schemes),
      (e: Error) => setFailed(e.message),
    );
  }, [store]);

  const names = useMemo(() => {
    const order = (specs ?? []).map((s) => s.id);
    return new Map((specs ?? []).map((s) => [s.id, { name: s.name, color: schemeColor(s.id, order) }]));
  }, [specs]);
  // Memoised on the finished runs, so the table and charts redraw (and a focused bar keeps
  // focus) only when a result lands: not on every hover, nor on the progress ticks of the
  // runs still going (a long trace's runs tick hundreds of times each).
  const doneKey = st.order.map((id) => (st.runs[id]?.status === 'done' ? id : '')).join(',');
  const { finished, metrics, columns, breakdown } = useMemo(() => {
    const finished = st.order.flatMap((id) => {
      const r = st.runs[id];
      return r?.status === 'done' && r.metrics && r.json ? [{ metrics: r.metrics, json: r.json }] : [];
    });
    const metrics: RunMetrics[] = finished.map((f) => f.metrics);
    return { finished, metrics, columns: columnsFor(metrics), breakdown: compareBreakdown(metrics) };
    // A finished run's result never changes: doneKey says when one lands.
  }, [doneKey]);
  const fileName = `compare-${(st.traceName ?? 'trace').replace(/[^\w.-]+/g, '_')}`;

  if (failed)
    return (
      <p className="compare" role="alert">
        Could not list the schemes: {failed}
      </p>
    );
  if (!specs) return <p className="compare">Loading schemes…</p>;
  const n = st.selected.length;
  return (
    <div
      className={`compare${wide ? ' compare--wide' : ''}${sweep ? ' compare--sweep' : ''}`}
      data-testid="compare"
      role={wide ? 'region' : undefined}
      aria-label={wide ? 'Comparison lab' : undefined}
    >
      <div className="compare__top">
        <h2>Compare schemes</h2>
        <button
          type="button"
          aria-pressed={wide}
          onClick={() => setWide((w) => !w)}
          title="Lay the lab over the whole page (or back into the side panel)"
        >
          {wide ? 'Narrow' : 'Widen'}
        </button>
      </div>
      <SweepModes sweep={sweep} onChange={setSweep} disabled={st.running} />
      {sweep && <SweepPanel specs={specs} names={names} experiment={experiment} choices={choices} />}
      <fieldset className="compare__schemes" disabled={st.running}>
        <legend>
          Schemes to compare ({MIN_SCHEMES}–{MAX_SCHEMES}; {n} picked)
        </legend>
        {specs.map((s) => (
          <label key={s.id} title={s.source}>
            <input
              type="checkbox"
              checked={st.selected.includes(s.id)}
              disabled={!st.selected.includes(s.id) && n >= MAX_SCHEMES}
              onChange={() => lab.toggle(s.id)}
            />
            <span className="compare__swatch" style={{ background: names.get(s.id)?.color }} aria-hidden="true" />
            <span>
              <strong>{s.id}</strong> <small>{s.name}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <p className="compare__what">
        On <strong>{experiment.traceName}</strong> with the loaded device and settings; fast mode (no events recorded).
      </p>
      <div className="compare__actions">
        <label>
          Baseline{' '}
          <select
            value={st.baseline ?? ''}
            onChange={(e) => lab.setBaseline(e.target.value)}
            aria-label="Baseline scheme"
          >
            <option value="" disabled>
              first picked
            </option>
            {(st.running || finished.length ? st.order : st.selected).map((id) => (
              <option key={id} value={id}>
                {names.get(id)?.name ?? id}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => void lab.run(experiment, choices)}
          disabled={st.running || n < MIN_SCHEMES}
        >
          Run
        </button>
        <button type="button" onClick={() => lab.stop()} disabled={!st.running}>
          Stop
        </button>
      </div>
      {st.order.length > 0 && (
        <ul className="compare__progress" aria-label="Runs">
          {st.order.map((id) => {
            const r = st.runs[id];
            const label = `${names.get(id)?.name ?? id}: ${runLabel(r)}`;
            return (
              <li key={id} data-status={r.status}>
                <span className="compare__swatch" style={{ background: names.get(id)?.color }} aria-hidden="true" />
                <span className="compare__runname" title={names.get(id)?.name}>
                  {id}
                </span>
                <progress max={r.total || 1} value={r.status === 'done' ? r.total || 1 : r.done} aria-label={label} />
                <span className="compare__runstate">{runLabel(r)}</span>
              </li>
            );
          })}
        </ul>
      )}
      {st.order.length > 0 && (
        <p className="compare__status" role="status">
          {summary(
            st.order.map((id) => st.runs[id]),
            st.running,
          )}
        </p>
      )}
      {finished.length > 0 && (
        <>
          <p className="compare__what">
            Results on <strong>{st.traceName}</strong>
            {st.traceName !== experiment.traceName ? ' (an earlier trace: Run again for the loaded one)' : ''}.
          </p>
          <div className="compare__actions">
            <button type="button" onClick={() => download(`${fileName}.csv`, toCsv(finished, columns), 'text/csv')}>
              Download CSV
            </button>
            <button type="button" onClick={() => download(`${fileName}.json`, toJson(finished), 'application/json')}>
              Download JSON
            </button>
          </div>
          <ResultsTable
            runs={metrics}
            columns={columns}
            baseline={st.baseline}
            sort={st.sort}
            onSort={(c) => lab.sortBy(c)}
            names={names}
          />
          <ChartDeck runs={metrics} columns={columns} baseline={st.baseline} names={names} fileName={fileName} />
          {breakdown.stacks.length > 0 && <BreakdownChart data={breakdown} fileName={fileName} />}
        </>
      )}
    </div>
  );
}
