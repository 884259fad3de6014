/**
 * The comparison lab's state, beside the app's store (which it only reads: the experiment's
 * trace, device and parse choices). Holds the picked schemes, the baseline, each run's
 * progress and result, and the table's sort; runs go through a RunPool.
 */
import { SimClient } from '../engine/client';
import type { Experiment } from '../store/experiment';
import type { ParseChoices } from '../engine/traceStream';
import type { RunMetrics } from '../engine/metrics';
import { defaultCold, lanesFor, type Cold } from './cold';
import { experimentTrace, poolSize, RunPool, type RunEvent } from './pool';
import { Observable } from '../store/observable';

/** Schemes a comparison takes (2–8). */
export const MIN_SCHEMES = 2;
export const MAX_SCHEMES = 8;

/** One scheme's run. */
export interface RunState {
  status: 'queued' | 'running' | 'done' | 'error' | 'stopped';
  done: number;
  total: number;
  /** Share of the trace its worker has read (before the run's own progress). */
  read?: number;
  metrics?: RunMetrics;
  json?: string;
  message?: string;
}

/** What the Compare tab shows: schemes side by side, or a sweep (compare/sweep/). */
export type CompareMode = 'schemes' | 'sweep';

export interface LabState {
  /** The tab's mode (here, so a shared link can name it). */
  mode: CompareMode;
  /** Scheme ids picked, in the order picked. */
  selected: string[];
  /** Scheme the ratios are taken against (one of the finished runs). */
  baseline: string | null;
  /** Runs of the last comparison, by scheme id, in the order they were started. */
  runs: Record<string, RunState>;
  /** The schemes of the last comparison, in the order asked. */
  order: string[];
  running: boolean;
  /** Trace and device the results are for. */
  traceName?: string;
  /** Table sort: a column id (or 'scheme') and direction. */
  sort: { column: string; dir: 1 | -1 } | null;
}

/**
 * A comparison lab. `makePool` is swapped in tests for an in-process one; `cold` answers how
 * much memory a run takes (the pool runs only as many at once as fit).
 */
export class CompareLab extends Observable<LabState> {
  private pool: RunPool | null = null;

  constructor(
    private readonly makePool: () => RunPool = () =>
      new RunPool(() => new SimClient(), poolSize(navigator.hardwareConcurrency)),
    private readonly cold: Cold = defaultCold(),
  ) {
    super({ mode: 'schemes', selected: [], baseline: null, runs: {}, order: [], running: false, sort: null });
  }

  /** Picks or unpicks a scheme (no more than MAX_SCHEMES). */
  toggle(id: string) {
    const s = this.state.selected;
    if (s.includes(id)) this.set({ selected: s.filter((x) => x !== id) });
    else if (s.length < MAX_SCHEMES) this.set({ selected: [...s, id] });
  }

  /**
   * Picks exactly `ids` (at most MAX_SCHEMES, in that order) with `baseline` if it is one of
   * them: a shared link's comparison. Ignored while a comparison runs.
   */
  choose(ids: string[], baseline?: string) {
    if (this.state.running) return;
    const selected = [...new Set(ids)].slice(0, MAX_SCHEMES);
    this.set({ selected, baseline: baseline && selected.includes(baseline) ? baseline : null });
  }

  /** Shows schemes side by side or the sweep (not while a comparison runs). */
  setMode(mode: CompareMode) {
    if (!this.state.running) this.set({ mode });
  }

  setBaseline(id: string) {
    this.set({ baseline: id });
  }

  /** Sorts by `column`; the same column again flips the direction. */
  sortBy(column: string) {
    const cur = this.state.sort;
    this.set({ sort: { column, dir: cur?.column === column ? (-cur.dir as 1 | -1) : 1 } });
  }

  /**
   * Runs every picked scheme on `experiment`'s trace and device (its parse choices too);
   * the experiment's scheme options go only to its own scheme, the others take defaults.
   */
  async run(experiment: Experiment, choices: ParseChoices) {
    const schemes = this.state.selected;
    if (this.state.running || schemes.length < MIN_SCHEMES) return;
    this.pool ??= this.makePool();
    const runs: Record<string, RunState> = {};
    for (const s of schemes) runs[s] = { status: 'queued', done: 0, total: 0 };
    const baseline = this.state.baseline && schemes.includes(this.state.baseline) ? this.state.baseline : schemes[0];
    this.set({ runs, order: [...schemes], running: true, traceName: experiment.traceName, baseline });
    const trace = experimentTrace(experiment, choices);
    const jobs = schemes.map((scheme) => {
      const { options, ...rest } = experiment.config;
      return {
        key: scheme,
        config:
          scheme === experiment.config.scheme && options !== undefined
            ? { ...rest, scheme, options }
            : { ...rest, scheme },
      };
    });
    try {
      await this.pool.run(jobs, trace, (e) => this.onEvent(e), await lanesFor(this.cold, this.pool.size, jobs));
    } finally {
      this.set({ running: false });
    }
  }

  /** Stops the comparison; finished results stay. */
  stop() {
    this.pool?.stop();
  }

  private onEvent(e: RunEvent) {
    const prev = this.state.runs[e.key] ?? { status: 'queued', done: 0, total: 0 };
    let next: RunState;
    switch (e.kind) {
      case 'started':
        next = { ...prev, status: 'running' };
        break;
      case 'reading':
        next = { ...prev, status: 'running', read: e.share };
        break;
      case 'progress':
        next = { ...prev, status: 'running', done: e.done, total: e.total };
        break;
      case 'done':
        next = {
          ...prev,
          status: 'done',
          done: e.metrics.trace.requests,
          total: e.metrics.trace.requests,
          metrics: e.metrics,
          json: e.json,
        };
        break;
      case 'error':
        next = { ...prev, status: 'error', message: e.message };
        break;
      case 'stopped':
        next = { ...prev, status: 'stopped' };
        break;
    }
    this.set({ runs: { ...this.state.runs, [e.key]: next } });
  }
}
