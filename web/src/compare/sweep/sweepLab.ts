/**
 * The Sweep mode's state: one parameter over a list of values for several
 * schemes on the loaded trace, or a paper experiment of the engine's registry on its own
 * traces. The engine expands and checks the points (the same expansion as `ftl sweep`); the
 * runs go through the tab's RunPool in fast mode and appear as they finish. Stop ends the
 * runs still going; finished points stay.
 */
import { SimClient } from '../../engine/client';
import type { Experiment } from '../../store/experiment';
import { fetchSource, fileSource, streamTrace, type ParseChoices } from '../../engine/traceStream';
import type { RunMetrics } from '../../engine/metrics';
import { defaultCold, lanesFor, type Cold } from '../cold';
import { experimentTrace, type Reading, type RunEvent, type RunPool, type RunTrace } from '../pool';
import type { ExperimentInfo, ReportRow, SweepCatalog, SweepPoint } from './types';
import { Observable } from '../../store/observable';

export type { Cold };

/** One point's run. */
export interface PointRun {
  /** `trace|index|scheme`: unique within a sweep. */
  key: string;
  trace: string;
  point: SweepPoint;
  status: 'queued' | 'running' | 'done' | 'error' | 'stopped';
  done: number;
  total: number;
  metrics?: RunMetrics;
  json?: string;
  /** The paper experiment's over-time readings through the run (experiments that take them). */
  readings?: Reading[];
  message?: string;
}

/**
 * A trace of the last sweep: its name, the bytes it addresses from 0 when it was measured
 * (the user's own trace on a footprint axis), and whether it is the user's.
 */
export interface SweepTrace {
  name: string;
  footprintBytes: number | null;
  user: boolean;
}

export interface SweepState {
  /** The parameter (short name or dotted key) and the value list, as typed. */
  param: string;
  values: string;
  /** Schemes picked for a custom sweep. */
  selected: string[];
  running: boolean;
  /** Why the last sweep could not start (the engine's message naming the bad value). */
  error: string | null;
  /** The configuration key of the last sweep. */
  key: string | null;
  /** Traces of the last sweep, in order. */
  traces: string[];
  /** What is known of each trace of the last sweep, in the same order. */
  traceInfo: SweepTrace[];
  runs: PointRun[];
  /** The paper experiment of the last sweep, if it was one. */
  experiment: ExperimentInfo | null;
  report: ReportRow[] | null;
}

/** Parses a trace and answers the bytes it addresses from 0 (its statistics' `end_max`). */
export type Extent = (trace: RunTrace, signal: AbortSignal) => Promise<number>;

/** Measures in a worker of its own (the pool's lanes stay free for the runs). */
function defaultExtent(): Extent {
  let client: SimClient | null = null;
  return async (trace, signal) => {
    client ??= new SimClient();
    return (await streamTrace(client, await trace.open(signal), trace.choices, () => {}, signal)).summary.end_max;
  };
}

/** One trace of a sweep with the points to run on it. */
interface Slot {
  trace: RunTrace;
  points: SweepPoint[];
  info: SweepTrace;
}

/** The footprint-utilization axis' name in the engine's points (seed 004's utilization). */
export const FOOTPRINT_UTILIZATION = 'footprint_utilization';

/** Where the app serves shipped traces from (as the manifest's entries are fetched). */
const SHIPPED = 'traces/';

export class SweepLab extends Observable<SweepState> {
  private stopped = false;
  /** Ends the measuring of the user's traces before a footprint-axis experiment (Stop). */
  private measuring: AbortController | null = null;
  /** Trace slots of the running experiment that hold the user's own files. */
  private userSlots: string[] = [];
  private catalogReq: Promise<SweepCatalog> | null = null;

  constructor(
    private readonly pool: () => RunPool,
    private readonly cold: Cold = defaultCold(),
    private readonly extent: Extent = defaultExtent(),
  ) {
    super({
      param: 'ram_bytes',
      values: '8KiB,16KiB,32KiB,64KiB',
      selected: [],
      running: false,
      error: null,
      key: null,
      traces: [],
      traceInfo: [],
      runs: [],
      experiment: null,
      report: null,
    });
  }

  /** The named parameters and the paper experiments (asked once). */
  catalog(): Promise<SweepCatalog> {
    this.catalogReq ??= this.cold({ fn: 'catalog' }).then(
      (j) => JSON.parse(j) as SweepCatalog,
      (e) => {
        this.catalogReq = null;
        throw e;
      },
    );
    return this.catalogReq;
  }

  setParam(param: string, values?: string) {
    this.set(values === undefined ? { param } : { param, values });
  }

  setValues(values: string) {
    this.set({ values });
  }

  toggle(id: string) {
    const s = this.state.selected;
    this.set({ selected: s.includes(id) ? s.filter((x) => x !== id) : [...s, id] });
  }

  /** Sweeps the chosen parameter over the values for the picked schemes on `experiment`'s trace. */
  async run(experiment: Experiment, choices: ParseChoices) {
    if (this.state.running) return;
    let points: SweepPoint[];
    try {
      const json = await this.cold({
        fn: 'expand',
        baseJson: JSON.stringify(experiment.config),
        param: this.state.param,
        values: this.state.values,
        schemesJson: JSON.stringify(this.state.selected),
      });
      points = JSON.parse(json) as SweepPoint[];
    } catch (e) {
      this.set({ error: e instanceof Error ? e.message : String(e) });
      return;
    }
    const trace = experimentTrace(experiment, choices);
    await this.runPoints([{ trace, points, info: { name: trace.name, footprintBytes: null, user: false } }], null);
  }

  /**
   * Runs paper experiment `info` on its traces, then (and as points finish) its report.
   * `user` puts the user's own file in a trace slot (their copy of the paper's trace): it is
   * read whole and counts as carrying the effect. On a footprint axis (seed 004's
   * utilization), the engine sizes each point's device around the user's trace's own
   * footprint, as `ftl sweep --trace-file` does: the trace is parsed once first to measure it.
   */
  async runExperiment(info: ExperimentInfo, user: Record<string, File> = {}) {
    if (this.state.running) return;
    const traces = info.traces.map((t): RunTrace => {
      const mine = user[t.id];
      if (mine) return { name: t.id, choices: {}, open: () => Promise.resolve(fileSource(mine)) };
      const choices: ParseChoices = t.max_requests ? { maxRequests: t.max_requests } : {};
      if (t.kind === 'shipped' && t.file) {
        const file = t.file;
        return { name: t.id, choices, open: (signal) => fetchSource(`${SHIPPED}${file}`, file, signal) };
      }
      return {
        name: t.id,
        choices,
        open: async () => {
          const csv = JSON.parse(await this.cold({ fn: 'trace', experiment: info.name, trace: t.id })) as string;
          const blob = new Blob([csv]);
          return { name: `${t.id}.csv`, size: blob.size, stream: () => blob.stream() };
        },
      };
    });
    this.set({ param: info.param, values: info.values });
    this.userSlots = Object.keys(user).filter((id) => info.traces.some((t) => t.id === id));
    // Measuring a long upload takes seconds: the sweep counts as running (Stop ends it).
    const measuring = new AbortController();
    this.measuring = measuring;
    if (info.param === FOOTPRINT_UTILIZATION && this.userSlots.length > 0)
      this.set({ running: true, error: null, runs: [], traces: [], traceInfo: [], experiment: info, report: null });
    const slots: Slot[] = [];
    try {
      // One at a time: the measuring worker parses one trace at a time.
      for (const trace of traces)
        slots.push(await this.slot(info, trace, this.userSlots.includes(trace.name), measuring.signal));
    } catch (e) {
      this.set({ running: false, error: measuring.signal.aborted ? null : e instanceof Error ? e.message : String(e) });
      return;
    } finally {
      this.measuring = null;
    }
    await this.runPoints(slots, info);
  }

  /** A trace's points: the user's trace on a footprint axis gets a device sized around it. */
  private async slot(info: ExperimentInfo, trace: RunTrace, user: boolean, signal: AbortSignal): Promise<Slot> {
    if (!user || info.param !== FOOTPRINT_UTILIZATION)
      return { trace, points: info.points, info: { name: trace.name, footprintBytes: null, user } };
    const bytes = await this.extent(trace, signal);
    signal.throwIfAborted();
    const points = JSON.parse(
      await this.cold({ fn: 'points', experiment: info.name, footprintBytes: bytes }),
    ) as SweepPoint[];
    // The experiment as given may hold a subset of its points: keep the same ones.
    const asked = new Set(info.points.map((p) => `${p.index}|${p.series ?? p.scheme}`));
    return {
      trace,
      points: points.filter((p) => asked.has(`${p.index}|${p.series ?? p.scheme}`)),
      info: { name: trace.name, footprintBytes: bytes, user },
    };
  }

  /** Stops the sweep: queued points are dropped, running ones end; finished points stay. */
  stop() {
    if (!this.state.running) return;
    this.stopped = true;
    this.measuring?.abort(new Error('Stopped.'));
    this.pool().stop();
  }

  private async runPoints(slots: Slot[], experiment: ExperimentInfo | null) {
    const runs: PointRun[] = slots.flatMap(({ trace, points }) =>
      points.map((point) => ({
        key: `${trace.name}|${point.index}|${point.series ?? point.scheme}`,
        trace: trace.name,
        point,
        status: 'queued' as const,
        done: 0,
        total: 0,
      })),
    );
    const all = slots.flatMap((s) => s.points);
    this.stopped = false;
    this.set({
      running: true,
      error: null,
      key: all[0]?.key ?? null,
      traces: slots.map((s) => s.trace.name),
      traceInfo: slots.map((s) => s.info),
      runs,
      experiment,
      report: null,
    });
    // A paper preset runs its own schemes: the form shows those, not the ones ticked before.
    if (experiment) this.set({ selected: [...new Set(all.map((p) => p.scheme))] });
    const overTime = experiment?.over_time?.length ? experiment.over_time : undefined;
    const pool = this.pool();
    try {
      for (const { trace } of slots) {
        if (this.stopped) break;
        const jobs = runs
          .filter((r) => r.trace === trace.name)
          .map((r) => ({ key: r.key, config: r.point.config, overTime }));
        await pool.run(jobs, trace, (e) => this.onEvent(e), await lanesFor(this.cold, pool.size, jobs));
      }
    } catch (e) {
      this.set({ error: e instanceof Error ? e.message : String(e) });
    } finally {
      // Points of traces never started are stopped, not left waiting.
      this.set({
        running: false,
        runs: this.state.runs.map((r) => (r.status === 'queued' ? { ...r, status: 'stopped' } : r)),
      });
    }
    if (experiment) await this.updateReport(experiment);
  }

  private async updateReport(info: ExperimentInfo) {
    const results = this.state.runs.flatMap((r) =>
      r.status === 'done' && r.json
        ? [
            `{"trace":${JSON.stringify(r.trace)},"series":${JSON.stringify(r.point.series ?? r.point.scheme)},"index":${r.point.index},"metrics":${r.json}}`,
          ]
        : [],
    );
    try {
      const json = await this.cold({
        fn: 'report',
        experiment: info.name,
        resultsJson: `[${results.join(',')}]`,
        userJson: JSON.stringify(this.userSlots),
      });
      if (this.state.experiment === info) this.set({ report: JSON.parse(json) as ReportRow[] });
    } catch (e) {
      this.set({ error: e instanceof Error ? e.message : String(e) });
    }
  }

  private onEvent(e: RunEvent) {
    const runs = this.state.runs.map((r): PointRun => {
      if (r.key !== e.key) return r;
      switch (e.kind) {
        case 'started':
          return { ...r, status: 'running' };
        case 'reading':
          return { ...r, status: 'running' };
        case 'progress':
          return { ...r, status: 'running', done: e.done, total: e.total };
        case 'done':
          return {
            ...r,
            status: 'done',
            done: e.metrics.trace.requests,
            total: e.metrics.trace.requests,
            metrics: e.metrics,
            json: e.json,
            readings: e.readings,
          };
        case 'error':
          return { ...r, status: 'error', message: e.message };
        case 'stopped':
          return { ...r, status: 'stopped' };
      }
    });
    this.set({ runs });
    if (e.kind === 'done' && this.state.experiment) void this.updateReport(this.state.experiment);
  }
}
