/**
 * The comparison lab's worker pool: headless runs (one scheme, one trace, one device each)
 * spread over a few engine workers. Each run parses the trace in its worker with the same
 * parse choices as the loaded experiment, then serves it to the end in fast mode (`run`
 * message: no events, no checkpoints) and reports the engine's metrics object, the same JSON
 * as `ftl run --json`. Results are reported as they finish; Stop ends every run still going.
 */
import type { FromWorker, ToWorker } from '../engine/protocol';
import { fetchSource, fileSource, streamTrace, type ParseChoices, type TraceSource } from '../engine/traceStream';
import type { Experiment } from '../store/experiment';
import type { RunMetrics } from '../engine/metrics';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;
type ProgressFn = (p: { label: string; done: number; total: number }) => void;

/** The part of SimClient a pool lane needs (tests drive SimCore in-process instead). */
export interface PoolClient {
  request<T extends FromWorker['type']>(
    body: Body<ToWorker>,
    transfer?: Transferable[],
    onProgress?: ProgressFn,
  ): Promise<Extract<FromWorker, { type: T }>>;
  /** Ends whatever the client is doing now; it must still take requests afterwards. */
  stop(): void;
}

/**
 * One run: `key` names it in reports (the scheme id), `config` is the engine config;
 * `overTime`, metric paths read at points through the run (a paper experiment's readings).
 */
export interface RunJob {
  key: string;
  config: Record<string, unknown>;
  overTime?: string[];
}

/** A reading taken through a run (engine `experiments::Reading`). */
export interface Reading {
  requests_done: number;
  values: Record<string, number | null>;
}

/** The trace every run of a comparison replays. */
export interface RunTrace {
  name: string;
  choices: ParseChoices;
  /** Opens the trace's bytes afresh (each run parses its own copy in its worker). */
  open(signal: AbortSignal): Promise<TraceSource>;
}

/** The loaded experiment's trace, opened afresh for each run (its upload, or the shipped file). */
export function experimentTrace(experiment: Experiment, choices: ParseChoices): RunTrace {
  return {
    name: experiment.traceName,
    choices,
    open: (signal) =>
      experiment.file
        ? Promise.resolve(fileSource(experiment.file))
        : fetchSource(experiment.traceUrl, experiment.traceName, signal),
  };
}

/** What a pool reports about a run. */
export type RunEvent =
  | { key: string; kind: 'started' }
  /** The run's worker is reading the trace: `share` of its bytes so far (0–1). */
  | { key: string; kind: 'reading'; share: number }
  | { key: string; kind: 'progress'; done: number; total: number }
  | { key: string; kind: 'done'; metrics: RunMetrics; json: string; readings?: Reading[] }
  | { key: string; kind: 'error'; message: string }
  | { key: string; kind: 'stopped' };

/** Most workers the tab starts, whatever the cores (each holds an engine and a trace copy). */
export const MAX_WORKERS = 8;

/** Workers for a machine with `cores` cores (`navigator.hardwareConcurrency`): 1 to MAX_WORKERS. */
export function poolSize(cores: number | undefined): number {
  return Math.min(MAX_WORKERS, Math.max(1, Math.floor(cores || 1)));
}

/** Memory assumed when the browser does not say (`navigator.deviceMemory` is Chromium's only). */
const DEFAULT_MEMORY_GIB = 4;
/** Share of the machine's memory the runs in flight may hold together. */
const MEMORY_SHARE = 0.5;
/** What a worker holds besides its run: the wasm module, its JS heap, allocator slack. */
export const WORKER_BASE_BYTES = 64 * 2 ** 20;

/**
 * Runs to keep in flight at once, of `size` lanes, when each holds about `runBytes` (the
 * engine's estimate for the largest run): as many as fit in half of `memoryGiB` (the
 * browser's `navigator.deviceMemory`, in GiB; 4 when unknown), at least one.
 */
export function lanesForMemory(size: number, runBytes: number, memoryGiB: number | undefined): number {
  const budget = (memoryGiB && memoryGiB > 0 ? memoryGiB : DEFAULT_MEMORY_GIB) * 2 ** 30 * MEMORY_SHARE;
  const each = Math.max(0, runBytes) + WORKER_BASE_BYTES;
  return Math.max(1, Math.min(size, Math.floor(budget / each)));
}

/** A fixed set of lanes (one client each, kept warm between comparisons). */
export class RunPool {
  private clients: PoolClient[] = [];
  private busy = new Set<PoolClient>();
  private abort: AbortController | null = null;
  private queue: RunJob[] = [];

  constructor(
    private readonly makeClient: () => PoolClient,
    readonly size: number,
  ) {}

  /** Whether a comparison is in progress. */
  get running(): boolean {
    return this.abort !== null;
  }

  /**
   * Runs `jobs` on `trace`, at most `size` (and `maxLanes`, the memory's bound) at a time,
   * reporting each through `report`; resolves when every run has finished, failed or been
   * stopped. One comparison at a time. Workers beyond `maxLanes` are ended, so the memory
   * their earlier runs grew is given back.
   */
  async run(jobs: RunJob[], trace: RunTrace, report: (e: RunEvent) => void, maxLanes = this.size): Promise<void> {
    if (this.abort) throw new Error('a comparison is already running');
    const abort = new AbortController();
    this.abort = abort;
    this.queue = [...jobs];
    const n = Math.max(1, Math.min(this.size, maxLanes, jobs.length));
    while (this.clients.length < n) this.clients.push(this.makeClient());
    if (maxLanes < this.size) for (const idle of this.clients.slice(n)) idle.stop();
    const lanes = this.clients.slice(0, n);
    try {
      await Promise.all(lanes.map((c) => this.lane(c, trace, abort.signal, report)));
    } finally {
      for (const job of this.queue) report({ key: job.key, kind: 'stopped' });
      this.queue = [];
      this.abort = null;
    }
  }

  /** Stops the comparison: queued runs are dropped and running ones end at once. */
  stop() {
    if (!this.abort) return;
    this.abort.abort(new Error('Stopped.'));
    for (const c of this.busy) c.stop();
  }

  private async lane(client: PoolClient, trace: RunTrace, signal: AbortSignal, report: (e: RunEvent) => void) {
    while (!signal.aborted) {
      const job = this.queue.shift();
      if (!job) return;
      const key = job.key;
      this.busy.add(client);
      report({ key, kind: 'started' });
      try {
        const source = await trace.open(signal);
        // Reading a long trace takes seconds per run: say how far it has got (a tenth at a time).
        let said = 0;
        const onRead = (bytes: number, size: number) => {
          const share = size > 0 ? Math.min(1, bytes / size) : 0;
          if (share < 1 && share - said < 0.1) return;
          said = share;
          report({ key, kind: 'reading', share });
        };
        await streamTrace(client, source, trace.choices, onRead, signal);
        signal.throwIfAborted();
        const onProgress: ProgressFn = (p) => report({ key, kind: 'progress', done: p.done, total: p.total });
        const reply = await client.request<'metrics'>(
          { type: 'run', configJson: JSON.stringify(job.config), overTime: job.overTime },
          [],
          onProgress,
        );
        const readings = reply.readings ? (JSON.parse(reply.readings) as Reading[]) : undefined;
        report({ key, kind: 'done', metrics: JSON.parse(reply.json) as RunMetrics, json: reply.json, readings });
      } catch (e) {
        report(
          signal.aborted
            ? { key, kind: 'stopped' }
            : { key, kind: 'error', message: e instanceof Error ? e.message : String(e) },
        );
      } finally {
        this.busy.delete(client);
      }
    }
  }
}
