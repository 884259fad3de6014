/**
 * The app's one store, outside React (components read it with useSim). It owns the engine
 * client; every timeline move goes through `exec`, which runs moves one at a time, shows a
 * progress bar for anything slower than half a second and applies the view that comes back.
 * The play loop lives in player.ts and the state's shape in state.ts; this file is state
 * and moves.
 */
import { SimClient } from '../engine/client';
import { errorMessage } from '../engine/core';
import { STOP_NAMES, type StopKind } from '../engine/events';
import type { PageInfo } from '../engine/pageTable';
import type { ToWorker, ViewData } from '../engine/protocol';
import { SPEEDS, type Experiment } from './experiment';
import { mergeLog } from './narrationLog';
import type { TraceParse } from '../engine/protocol';
import { fetchSource, fileSource, streamTrace, type ParseChoices } from '../traces/stream';
import { PlayLoop } from './player';
import { initialState, type Busy, type SimState } from './state';

export type { Busy, SimState, Status } from './state';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Delay before a progress bar appears (ms). */
const BUSY_AFTER_MS = 500;
/** Moves queued beyond this are dropped (a held-down key must not build a backlog). */
const MAX_QUEUED = 3;

export class SimStore {
  private state: SimState = initialState();
  private listeners = new Set<() => void>();
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;
  readonly player: PlayLoop;

  constructor(readonly client: SimClient = new SimClient()) {
    this.player = new PlayLoop(this);
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): SimState => this.state;

  /** Replaces part of the state and notifies subscribers. */
  set(patch: Partial<SimState>) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** Value of a named frame counter (NaN before the first frame). */
  counter(name: string): number {
    const { info, frame } = this.state;
    const i = info?.counterNames.indexOf(name) ?? -1;
    return i >= 0 && frame ? frame.counters[i] : NaN;
  }

  /** Whether the timeline can move (a simulation is loaded and healthy). */
  get live(): boolean {
    return this.state.status !== 'loading' && this.state.status !== 'error' && !!this.state.info;
  }

  /**
   * Streams the experiment's trace into the engine (statistics first, with a progress bar
   * for big files), then builds the simulation. If the trace cannot be read, the previous
   * experiment stays loaded and the error is shown with the trace.
   */
  async load(experiment: Experiment = this.state.experiment, choices: ParseChoices = this.state.parseChoices): Promise<void> {
    this.player.stop();
    const hadExperiment = !!this.state.info;
    this.set({ status: 'loading', message: undefined, notice: undefined, traceError: undefined, parseChoices: choices });
    await this.exec(`Loading ${experiment.traceName}`, async (onProgress) => {
      let parse: TraceParse;
      try {
        const source = experiment.file ? fileSource(experiment.file) : await fetchSource(experiment.traceUrl, experiment.traceName);
        parse = await streamTrace(this.client, source, choices, (done, total) =>
          onProgress({ label: `Reading ${experiment.traceName}`, done, total }),
        );
      } catch (e) {
        if (!hadExperiment) throw e;
        this.set({ traceError: errorMessage(e), status: this.state.pos.request >= (this.state.info?.total ?? 0) ? 'done' : 'ready' });
        return;
      }
      onProgress({ label: `Preparing ${parse.summary.requests.toLocaleString('en-US')} requests`, done: 0, total: 0 });
      const reply = await this.client.request<'loaded'>(
        { type: 'loadParsed', configJson: JSON.stringify(experiment.config), traceName: experiment.traceName },
        [],
        onProgress,
      );
      this.set({ info: reply.info, log: [], responses: undefined, experiment, trace: parse });
      this.apply(reply.view);
    }, true);
    void this.refreshResponses();
  }

  /** Reloads the current experiment from the start. */
  reset() {
    return this.load(this.state.experiment);
  }

  // ---- timeline moves (each pauses play first, except when the play loop calls them) ----

  /** Serves `requests` requests (or until `budgetMs` runs out); resolves with the count. */
  async step(requests = 1, budgetMs = Infinity, fromPlayer = false): Promise<number> {
    if (!fromPlayer) this.player.stop();
    if (this.state.status === 'done' && !this.state.pos.op) return 0;
    const v = await this.move({ type: 'step', requests, budgetMs, hash: !fromPlayer }, 'Stepping');
    return v?.stepped ?? 0;
  }

  /** One flash operation forwards or backwards. */
  async stepOp(delta: 1 | -1 = 1, fromPlayer = false) {
    if (!fromPlayer) this.player.stop();
    return this.move({ type: 'stepOp', delta }, delta > 0 ? 'Stepping' : 'Stepping back');
  }

  /** Back `requests` requests. */
  async back(requests = 1) {
    this.player.stop();
    return this.move({ type: 'back', requests }, 'Stepping back');
  }

  /** To request `request` (op `op`): the scrubber, the chart and the narration use it. */
  async seek(request: number, op = 0) {
    this.player.stop();
    return this.move({ type: 'seek', request, op }, 'Seeking');
  }

  /** To the next GC, mapping-cache miss or merge. */
  async jump(what: StopKind) {
    this.player.stop();
    const v = await this.move({ type: 'jump', what }, 'Searching');
    if (v && v.found === false) {
      this.set({ notice: v.cancelled ? 'Search stopped.' : `No ${STOP_NAMES[what]} until the end of the trace.` });
    }
    return v;
  }

  /** Asks the worker for the current frame again, with its state hash. */
  refresh() {
    return this.move({ type: 'frame' }, 'Refreshing');
  }

  /** Stops long work in the worker (a seek or jump returns where it got to). */
  cancel() {
    this.client.cancel();
  }

  /** What the worker recorded about physical page `ppn`. */
  async pageInfo(ppn: number): Promise<PageInfo | null> {
    if (!this.live) return null;
    const r = await this.client.request<'pageInfo'>({ type: 'pageInfo', ppn });
    return r.info;
  }

  /** Fetches the binned response times (the chart's data). */
  async refreshResponses(): Promise<void> {
    if (!this.live) return;
    try {
      const r = await this.client.request<'responses'>({ type: 'responses' });
      this.set({ responses: r.series });
    } catch {
      // The chart keeps its last data; the next move asks again.
    }
  }

  // ---- settings ----

  setSpeed(speed: number) {
    this.set({ speed: Math.max(0, Math.min(SPEEDS.length - 1, speed)) });
  }

  togglePlay() {
    this.player.toggle();
  }

  toggleHeat() {
    this.set({ heat: !this.state.heat });
  }

  setHelp(open: boolean) {
    this.set({ help: open });
  }

  // ---- machinery ----

  /** Sends a move and applies the view it returns (undefined when dropped or failed). */
  private async move(body: Body<ToWorker>, label: string): Promise<ViewData | undefined> {
    if (!this.live) return undefined;
    let view: ViewData | undefined;
    await this.exec(label, async (onProgress) => {
      const r = await this.client.request<'view'>(body, [], onProgress);
      view = r.view;
      this.apply(r.view);
    });
    // The play loop refreshes the chart on its own clock; single moves refresh it here.
    if (view && !this.player.running) void this.refreshResponses();
    return view;
  }

  /**
   * Runs `work` after the moves before it. A progress bar appears if it takes longer than
   * half a second; failures become the error status.
   */
  exec(label: string, work: (onProgress: (p: Busy) => void) => Promise<void>, force = false): Promise<void> {
    if (!force && this.queued >= MAX_QUEUED) return Promise.resolve();
    this.queued++;
    const run = async () => {
      const started = performance.now();
      const timer = setTimeout(() => this.set({ busy: { label, done: 0, total: 0 } }), BUSY_AFTER_MS);
      const onProgress = (p: Busy) => {
        if (performance.now() - started >= BUSY_AFTER_MS) this.set({ busy: { label: p.label, done: p.done, total: p.total } });
      };
      try {
        await work(onProgress);
      } catch (e) {
        this.player.stop();
        this.set({ status: 'error', message: errorMessage(e) });
      } finally {
        clearTimeout(timer);
        this.queued--;
        if (this.state.busy) this.set({ busy: undefined });
      }
    };
    const p = this.chain.then(run);
    this.chain = p;
    return p;
  }

  /** Shows a view from the engine. */
  private apply(v: ViewData) {
    const status = this.player.running ? 'playing' : v.done ? 'done' : 'ready';
    this.set({
      frame: v.frame,
      pos: v.pos,
      current: v.current,
      report: v.report,
      log: mergeLog(this.state.log, v.current ? [...v.recent, v.current] : v.recent, v.pos.request),
      status: this.state.status === 'error' ? 'error' : status,
      notice: undefined,
      seq: this.state.seq + 1,
    });
  }
}
