/**
 * The Sweep mode's state: one parameter over a list of values for several
 * schemes on the loaded trace, or a paper experiment of the engine's registry on its own
 * traces. The engine expands and checks the points (the same expansion as `ftl sweep`); the
 * runs go through the tab's RunPool in fast mode and appear as they finish. Stop ends the
 * runs still going; finished points stay.
 */
import { SimClient } from '../../engine/client';
import type { SweepCall } from '../../engine/protocol';
import type { Experiment } from '../../store/experiment';
import { fetchSource, fileSource, type ParseChoices } from '../../engine/traceStream';
import type { RunMetrics } from '../../engine/metrics';
import type { RunEvent, RunPool, RunTrace } from '../pool';
import type { ExperimentInfo, ReportRow, SweepCatalog, SweepPoint } from './types';
import { Observable } from '../../store/observable';

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
  message?: string;
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
  runs: PointRun[];
  /** The paper experiment of the last sweep, if it was one. */
  experiment: ExperimentInfo | null;
  report: ReportRow[] | null;
}

/** Asks the engine a sweep question; answers JSON text. */
export type Cold = (call: SweepCall) => Promise<string>;

function defaultCold(): Cold {
  let client: SimClient | null = null;
  return async (call) => {
    client ??= new SimClient();
    return (await client.request<'sweep'>({ type: 'sweep', call })).json;
  };
}

/** Where the app serves shipped traces from (as the manifest's entries are fetched). */
const SHIPPED = 'traces/';

export class SweepLab extends Observable<SweepState> {
  private stopped = false;
  /** Trace slots of the running experiment that hold the user's own files. */
  private userSlots: string[] = [];
  private catalogReq: Promise<SweepCatalog> | null = null;

  constructor(
    private readonly pool: () => RunPool,
    private readonly cold: Cold = defaultCold(),
  ) {
    super({
      param: 'ram_bytes',
      values: '8KiB,16KiB,32KiB,64KiB',
      selected: [],
      running: false,
      error: null,
      key: null,
      traces: [],
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
    const trace: RunTrace = {
      name: experiment.traceName,
      choices,
      open: (signal) => (experiment.file ? Promise.resolve(fileSource(experiment.file)) : fetchSource(experiment.traceUrl, experiment.traceName, signal)),
    };
    await this.runPoints(points, [trace], null);
  }

  /**
   * Runs paper experiment `info` on its traces, then (and as points finish) its report.
   * `user` puts the user's own file in a trace slot (their copy of the paper's trace): it is
   * read whole and counts as carrying the effect.
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
    await this.runPoints(info.points, traces, info);
  }

  /** Stops the sweep: queued points are dropped, running ones end; finished points stay. */
  stop() {
    if (!this.state.running) return;
    this.stopped = true;
    this.pool().stop();
  }

  private async runPoints(points: SweepPoint[], traces: RunTrace[], experiment: ExperimentInfo | null) {
    const runs: PointRun[] = traces.flatMap((t) =>
      points.map((point) => ({ key: `${t.name}|${point.index}|${point.series ?? point.scheme}`, trace: t.name, point, status: 'queued' as const, done: 0, total: 0 })),
    );
    this.stopped = false;
    this.set({ running: true, error: null, key: points[0]?.key ?? null, traces: traces.map((t) => t.name), runs, experiment, report: null });
    // A paper preset runs its own schemes: the form shows those, not the ones ticked before.
    if (experiment) this.set({ selected: [...new Set(points.map((p) => p.scheme))] });
    const pool = this.pool();
    try {
      for (const trace of traces) {
        if (this.stopped) break;
        const jobs = runs.filter((r) => r.trace === trace.name).map((r) => ({ key: r.key, config: r.point.config }));
        await pool.run(jobs, trace, (e) => this.onEvent(e));
      }
    } catch (e) {
      this.set({ error: e instanceof Error ? e.message : String(e) });
    } finally {
      // Points of traces never started are stopped, not left waiting.
      this.set({ running: false, runs: this.state.runs.map((r) => (r.status === 'queued' ? { ...r, status: 'stopped' } : r)) });
    }
    if (experiment) await this.updateReport(experiment);
  }

  private async updateReport(info: ExperimentInfo) {
    const results = this.state.runs.flatMap((r) => (r.status === 'done' && r.json ? [`{"trace":${JSON.stringify(r.trace)},"series":${JSON.stringify(r.point.series ?? r.point.scheme)},"index":${r.point.index},"metrics":${r.json}}`] : []));
    try {
      const json = await this.cold({ fn: 'report', experiment: info.name, resultsJson: `[${results.join(',')}]`, userJson: JSON.stringify(this.userSlots) });
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
        case 'progress':
          return { ...r, status: 'running', done: e.done, total: e.total };
        case 'done':
          return { ...r, status: 'done', done: e.metrics.trace.requests, total: e.metrics.trace.requests, metrics: e.metrics, json: e.json };
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
