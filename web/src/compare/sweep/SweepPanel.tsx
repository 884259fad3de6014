import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { SchemeSpec } from '../../engine/protocol';
import type { Experiment } from '../../store/experiment';
import type { ParseChoices } from '../../engine/traceStream';
import { download } from '../export';
import { columnsFor } from '../metrics';
import { sweepLab as lab } from '../theLab';
import { BreakdownChart } from '../charts/BreakdownChart';
import { metricLabel, seriesOf, SWEEP_METRICS, sweepBreakdown, sweepChartData, valueLabels } from './chartData';
import { sweepCsv, sweepJson } from './export';
import { deviceSizes } from './deviceSizes';
import { DeviceSizes } from './DeviceSizes';
import { overTimeCharts } from './overTime';
import { OverTimeChart } from './OverTimeChart';
import { PaperTable, TraceSlots } from './PaperTable';
import { SweepChart } from './SweepChart';
import { FOOTPRINT_UTILIZATION } from './sweepLab';
import type { SweepCatalog } from './types';
import './Sweep.css';

/** Colours of the extra series of a paper experiment (a scheme with stated options). */
const SERIES_COLORS = ['#7f3c8d', '#11a579', '#3969ac', '#f2b701', '#e73f74', '#80ba5a', '#e68310', '#008695'];

/** The Compare tab's mode switch: side by side or sweep (the sweep lab's runs lock it). */
export function SweepModes({
  sweep,
  onChange,
  disabled,
}: {
  sweep: boolean;
  onChange: (sweep: boolean) => void;
  disabled: boolean;
}) {
  const running = useSyncExternalStore(lab.subscribe, lab.getState).running;
  return (
    <div className="compare__modes" role="group" aria-label="Compare mode">
      <button type="button" aria-pressed={!sweep} disabled={disabled || running} onClick={() => onChange(false)}>
        Side by side
      </button>
      <button type="button" aria-pressed={sweep} disabled={disabled || running} onClick={() => onChange(true)}>
        Sweep
      </button>
    </div>
  );
}

export interface SweepPanelProps {
  specs: SchemeSpec[];
  names: Map<string, { name: string; color: string }>;
  experiment: Experiment;
  choices: ParseChoices;
}

/**
 * The Compare tab's Sweep mode: a parameter over a list of values for several
 * schemes on the loaded trace, or a paper experiment from the Presets menu; line charts fill
 * in as points finish; Stop keeps the finished points; CSV / JSON / SVG downloads.
 */
export function SweepPanel({ specs, names, experiment, choices }: SweepPanelProps) {
  const st = useSyncExternalStore(lab.subscribe, lab.getState);
  const [catalog, setCatalog] = useState<SweepCatalog | null>(null);
  const [preset, setPreset] = useState('');
  const [traceShown, setTraceShown] = useState('');
  const [userFiles, setUserFiles] = useState<Record<string, File>>({});
  const chosen = catalog?.experiments.find((x) => x.name === preset) ?? null;
  useEffect(() => {
    lab.catalog().then(setCatalog, () => setCatalog({ params: [], experiments: [] }));
  }, []);

  const trace = st.traces.includes(traceShown) ? traceShown : (st.traces[0] ?? '');
  const done = st.runs.filter((r) => r.status === 'done');
  // Charts follow the finished points only, not the progress ticks of the points still going.
  const doneKey = `${st.runs.length}:${st.runs.map((r) => (r.status === 'done' ? r.key : '')).join('|')}`;
  const { columns, charts, breakdown, overTime, devices } = useMemo(() => {
    const columns = columnsFor(st.runs.flatMap((r) => (r.metrics ? [r.metrics] : [])));
    const xs = valueLabels(st.runs);
    const ids = [...new Set(st.runs.map((r) => seriesOf(r.point)))];
    const schemes = ids.map((id, i) => {
      const series = st.experiment?.series?.find((x) => x.id === id);
      const scheme = series?.scheme ?? id;
      // A second series of one scheme gets a colour of its own.
      const color =
        series && series.id !== series.scheme
          ? SERIES_COLORS[i % SERIES_COLORS.length]
          : (names.get(scheme)?.color ?? '#888');
      return { id, name: series?.label ?? names.get(id)?.name ?? id, color };
    });
    const metrics = st.experiment?.metrics ?? SWEEP_METRICS;
    const xTitle =
      st.key === FOOTPRINT_UTILIZATION
        ? 'Utilization (footprint / capacity)'
        : (catalog?.params.find((p) => p.key === st.key)?.label ?? st.key ?? '');
    const charts = metrics
      .map((m) => sweepChartData(st.runs, trace, m, { ...metricLabel(m, columns), xTitle, xs }, schemes))
      .filter((d) => d.series.some((s) => s.points.length > 0));
    const overTime = overTimeCharts(st.runs, trace, st.experiment?.over_time ?? [], schemes);
    const devices = st.key === FOOTPRINT_UTILIZATION ? deviceSizes(st.runs, st.traceInfo) : [];
    return { columns, charts, breakdown: sweepBreakdown(st.runs, trace, ids), overTime, devices };
    // st.runs is read through doneKey: a finished point's result never changes.
  }, [doneKey, st.experiment, st.key, st.traceInfo, trace, names, catalog]);

  const fileName = `sweep-${(st.experiment?.name ?? st.key ?? 'sweep').replace(/[^\w.-]+/g, '_')}`;
  const finished = done.length;
  const paramInfo = catalog?.params.find((p) => p.name === st.param || p.key === st.param);

  return (
    <div className="sweep" data-testid="sweep">
      <div className="compare__actions">
        <label>
          Paper preset{' '}
          <select
            value={preset}
            onChange={(e) => setPreset(e.target.value)}
            aria-label="Paper preset"
            disabled={st.running}
          >
            <option value="">choose…</option>
            {catalog?.experiments.map((x) => (
              <option key={x.name} value={x.name} title={x.title}>
                {x.title}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={st.running || !preset}
          onClick={() => {
            const info = catalog?.experiments.find((x) => x.name === preset);
            if (info) void lab.runExperiment(info, userFiles);
          }}
        >
          Run preset
        </button>
      </div>
      {chosen && <TraceSlots info={chosen} files={userFiles} onChange={setUserFiles} disabled={st.running} />}
      <fieldset className="sweep__form" disabled={st.running}>
        <legend>Or sweep on {experiment.traceName}</legend>
        <label>
          Parameter{' '}
          <input
            list="sweep-params"
            value={st.param}
            aria-label="Sweep parameter"
            onChange={(e) => {
              const p = catalog?.params.find((x) => x.name === e.target.value);
              lab.setParam(e.target.value, p?.example);
            }}
          />
          <datalist id="sweep-params">
            {catalog?.params.map((p) => (
              <option key={p.name} value={p.name}>
                {p.label}
              </option>
            ))}
          </datalist>
        </label>
        {paramInfo && (
          <small>
            {paramInfo.label} ({paramInfo.key}, {paramInfo.unit})
          </small>
        )}
        <label>
          Values{' '}
          <input
            value={st.values}
            aria-label="Sweep values"
            onChange={(e) => lab.setValues(e.target.value)}
            size={28}
          />
        </label>
        <div className="compare__schemes" role="group" aria-label="Schemes to sweep">
          {specs.map((s) => (
            <label key={s.id} title={s.source}>
              <input type="checkbox" checked={st.selected.includes(s.id)} onChange={() => lab.toggle(s.id)} />
              <span className="compare__swatch" style={{ background: names.get(s.id)?.color }} aria-hidden="true" />
              <strong>{s.id}</strong>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="compare__actions">
        <button
          type="button"
          disabled={st.running || st.selected.length === 0}
          onClick={() => void lab.run(experiment, choices)}
        >
          Run sweep
        </button>
        <button type="button" disabled={!st.running} onClick={() => lab.stop()}>
          Stop
        </button>
      </div>
      {st.error && (
        <p role="alert" className="sweep__error">
          {st.error}
        </p>
      )}
      {st.running && st.runs.length === 0 && (
        <p className="compare__status" role="status" data-testid="sweep-status">
          Measuring the footprint of your traces…
        </p>
      )}
      {st.runs.length > 0 && (
        <>
          <p className="compare__status" role="status" data-testid="sweep-status">
            {st.running ? 'Running: ' : 'Sweep finished: '}
            {finished} of {st.runs.length} points done
            {st.runs.some((r) => r.status === 'error')
              ? `, ${st.runs.filter((r) => r.status === 'error').length} failed`
              : ''}
            {st.runs.some((r) => r.status === 'stopped')
              ? `, ${st.runs.filter((r) => r.status === 'stopped').length} stopped`
              : ''}
            .
          </p>
          <progress max={st.runs.length} value={finished} aria-label="Sweep points done" />
          {st.runs
            .filter((r) => r.status === 'error')
            .slice(0, 3)
            .map((r) => (
              <p key={r.key} className="sweep__error">
                {seriesOf(r.point)} at {r.point.label} on {r.trace}: {r.message}
              </p>
            ))}
        </>
      )}
      {st.traces.length > 1 && (
        <label>
          Trace{' '}
          <select value={trace} onChange={(e) => setTraceShown(e.target.value)} aria-label="Trace shown">
            {st.traces.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
      )}
      {finished > 0 && (
        <div className="compare__actions">
          <button type="button" onClick={() => download(`${fileName}.csv`, sweepCsv(st.runs, columns), 'text/csv')}>
            Download CSV
          </button>
          <button
            type="button"
            onClick={() => download(`${fileName}.json`, sweepJson(st.key ?? '', st.runs), 'application/json')}
          >
            Download JSON
          </button>
        </div>
      )}
      <div className="sweep__charts">
        {charts.map((d) => (
          <SweepChart key={d.metric} data={d} fileName={`${fileName}-${trace}`} />
        ))}
      </div>
      {breakdown.stacks.length > 0 && <BreakdownChart data={breakdown} fileName={`${fileName}-${trace}`} />}
      {overTime.length > 0 && (
        <section className="sweep__overtime" aria-label="Readings over the run">
          <h3>Over the run, on {trace}</h3>
          <div className="sweep__charts">
            {overTime.map((d) => (
              <OverTimeChart
                key={d.title}
                data={d}
                fileName={`${fileName}-${trace}-${d.y.label.replace(/\W+/g, '_')}`}
              />
            ))}
          </div>
        </section>
      )}
      {devices.length > 0 && <DeviceSizes traces={devices} />}
      {st.experiment && <PaperTable info={st.experiment} rows={st.report} />}
    </div>
  );
}
