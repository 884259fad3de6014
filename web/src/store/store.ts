/**
 * The app's one store, outside React (components read it with useSim). It owns the engine
 * client; every timeline move goes through `exec`, which runs moves one at a time, shows a
 * progress bar for anything slower than half a second and applies the view that comes back.
 * The play loop lives in player.ts, the state's shape in state.ts, the load pipeline in
 * loadExperiment.ts; this file is state and moves.
 *
 * Loads and moves share one queue, and a load bumps a generation number: a move begun before
 * it belongs to the experiment being replaced, so its view is dropped (it would otherwise
 * end the 'loading' status while the new trace is still read).
 */
import { isFatal, SimClient } from '../engine/client';
import { errorMessage } from '../engine/errors';
import type { ToWorker, ViewData } from '../engine/protocol';
import type { ParseChoices } from '../traces/stream';
import { SPEEDS, type Experiment } from './experiment';
import { loadExperiment, type Loaded } from './loadExperiment';
import { mergeLog } from './narrationLog';
import { PlayLoop, type PlayHost } from './player';
import { Reads } from './reads';
import { initialState, type Busy, type SimState, type Status } from './state';

export type { Busy, SimState, Status } from './state';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Delay before a progress bar appears (ms). */
const BUSY_AFTER_MS = 500;
/** Moves queued beyond this are dropped (a held-down key must not build a backlog). */
const MAX_QUEUED = 3;

/** The store: state, subscriptions, the load and every timeline move. */
export class SimStore {
  private state: SimState = initialState();
  private listeners = new Set<() => void>();
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Bumped by every load; work begun under an older number is skipped or dropped. */
  private gen = 0;
  /** Aborts the load in progress (Stop / Esc). */
  private loading: AbortController | null = null;
  /** Why the engine failed since the last load that succeeded: a failed reload returns to it. */
  private failure: string | undefined;
  readonly player: PlayLoop;
  private readonly reads: Reads;

  constructor(readonly client: SimClient = new SimClient()) {
    const host: PlayHost = {
      speed: () => SPEEDS[this.state.speed],
      tick: (n, budgetMs) => this.step(n, budgetMs, true),
      tickOp: async () => void (await this.stepOp(1, true)),
      finished: () => {
        const s = this.state;
        return (s.pos.request >= (s.info?.total ?? 0) && !s.pos.op) || s.status === 'error';
      },
      refreshChart: () => void this.refreshResponses(),
      ended: () => this.settleAfterPlay(),
    };
    this.player = new PlayLoop(host);
    this.reads = new Reads(client, () => this.live, (patch) => this.set(patch));
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): SimState => this.state;

  /** Replaces part of the state and notifies subscribers (tests seed state with
   * `store['set']`; everything else changes state through the methods below). */
  private set(patch: Partial<SimState>) {
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
   * for big files), then builds the simulation. If the trace cannot be read, the engine
   * refuses the config, or Stop is pressed, the previous experiment stays loaded and the
   * reason is shown with the trace (or as a notice); with none loaded it is the error status.
   */
  async load(experiment: Experiment = this.state.experiment, choices: ParseChoices = this.state.parseChoices): Promise<void> {
    this.pause();
    this.cancel(); // a load replaces the one before it and any long move in progress
    const gen = ++this.gen;
    const abort = new AbortController();
    this.loading = abort;
    this.set({ status: 'loading', message: undefined, notice: undefined, traceError: undefined, refused: undefined });
    await this.exec(`Loading ${experiment.traceName}`, gen, async (onProgress) => {
      let loaded: Loaded;
      try {
        loaded = await loadExperiment(this.client, experiment, choices, abort.signal, onProgress);
      } catch (e) {
        const cancelled = abort.signal.aborted && !isFatal(e);
        if (isFatal(e) || !this.state.info) throw cancelled ? new Error('Loading cancelled.') : e;
        if (gen === this.gen) await this.resume(cancelled ? { notice: 'Loading cancelled.' } : { traceError: errorMessage(e), refused: experiment });
        return;
      }
      this.failure = undefined;
      this.set({ info: loaded.info, log: [], responses: undefined, inspection: undefined, experiment, trace: loaded.parse, parseChoices: choices });
      // Built just before a newer load took over: show it, but that load owns the status.
      this.apply(loaded.view, gen === this.gen ? undefined : this.state.status);
    }, true);
    if (this.loading === abort) this.loading = null;
    void this.refreshResponses();
  }

  /**
   * Loads the experiment with another scheme and runs it to the request on screen, playing
   * on if it was playing: comparing schemes at one moment is the point of switching. Part-way
   * through a request it stands at that request's start (another scheme does other
   * operations). A refused scheme leaves everything as it was.
   */
  async switchScheme(scheme: string, choices: ParseChoices = this.state.parseChoices): Promise<void> {
    const { experiment, pos } = this.state;
    const playing = this.player.running;
    // The old scheme's own options mean nothing to the new one: it starts from its defaults.
    await this.load({ ...experiment, config: { ...experiment.config, scheme, options: {} } }, choices);
    const s = this.state;
    if (s.refused || s.status === 'error' || s.info?.scheme !== scheme) return;
    if (pos.request > 0) await this.seek(pos.request);
    if (playing) this.play();
  }

  /** Clears a failed load's reason (the selectors return to the loaded experiment). */
  dismissError() {
    this.set({ traceError: undefined, refused: undefined });
  }

  /** Reloads the current experiment from the start. */
  reset() {
    return this.load(this.state.experiment);
  }

  // ---- timeline moves (each pauses play first, except when the play loop calls them) ----

  /** Serves `requests` requests (or until `budgetMs` runs out); resolves with the count. */
  async step(requests = 1, budgetMs = Infinity, fromPlayer = false): Promise<number> {
    if (!fromPlayer) this.pause();
    if (this.state.status === 'done' && !this.state.pos.op) return 0;
    const v = await this.move({ type: 'step', requests, budgetMs, hash: !fromPlayer }, 'Stepping');
    return v?.stepped ?? 0;
  }

  /** One flash operation forwards or backwards. */
  async stepOp(delta: 1 | -1 = 1, fromPlayer = false) {
    if (!fromPlayer) this.pause();
    return this.move({ type: 'stepOp', delta }, delta > 0 ? 'Stepping' : 'Stepping back');
  }

  /** Back `requests` requests. */
  async back(requests = 1) {
    this.pause();
    return this.move({ type: 'back', requests }, 'Stepping back');
  }

  /** To request `request` (op `op`): the scrubber, the chart and the narration use it. */
  async seek(request: number, op = 0) {
    this.pause();
    return this.move({ type: 'seek', request, op }, 'Seeking');
  }

  /** To the next stop `what` (an engine stop id: GC, mapping-cache miss, merge…). */
  async jump(what: string) {
    this.pause();
    const v = await this.move({ type: 'jump', what }, 'Searching');
    if (v && v.found === false) {
      const stop = this.state.info?.vocab.stops.find((s) => s.id === what);
      const label = stop ? stop.label.replace(/^Next /i, '') : what;
      this.set({ notice: v.cancelled ? 'Search stopped.' : `No ${label} until the end of the trace.` });
    }
    return v;
  }

  /** Asks the worker for the current frame again, with its state hash. */
  refresh() {
    return this.move({ type: 'frame' }, 'Refreshing');
  }

  /**
   * Stops long work: a load (the loaded experiment stays), or a seek or jump in the worker
   * (it returns where it got to).
   */
  cancel() {
    this.loading?.abort();
    this.client.cancel();
  }

  // ---- reads that change no position (reads.ts) ----

  /** What the worker recorded about physical page `ppn`. */
  pageInfo = (ppn: number) => this.reads.pageInfo(ppn);
  /** Fetches the binned response times (the chart's data). */
  refreshResponses = () => this.reads.responses();
  /** Fetches the scheme's RAM inspection at the current position (the cache panel's data). */
  refreshInspection = () => this.reads.inspection();
  /** What the engine can build (config schema, presets, scheme specs); asked once. */
  catalog = () => this.reads.catalog();
  /** The engine's verdict on a config, without building it (the running experiment stays). */
  validate = (config: object) => this.reads.validate(config);

  // ---- settings ----

  setSpeed(speed: number) {
    this.set({ speed: Math.max(0, Math.min(SPEEDS.length - 1, speed)) });
  }

  /** Plays from here at the chosen speed (nothing at the end of the trace). */
  play() {
    const s = this.state;
    if (this.player.running || !this.live || (s.status === 'done' && !s.pos.op)) return;
    this.set({ status: 'playing', notice: undefined });
    this.player.start();
  }

  /** Stops playing (no-op when not playing). */
  pause() {
    if (this.player.stop()) this.settleAfterPlay();
  }

  togglePlay() {
    if (this.player.running) this.pause();
    else this.play();
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
    const gen = this.gen;
    let view: ViewData | undefined;
    await this.exec(label, gen, async (onProgress) => {
      if (!this.live) return; // a move queued before it failed: the engine may be gone
      const r = await this.client.request<'view'>(body, [], onProgress);
      if (gen !== this.gen) return; // a load began meanwhile (it resyncs if it fails)
      view = r.view;
      this.apply(r.view);
    });
    // The play loop refreshes the chart on its own clock; single moves refresh it here.
    if (view && !this.player.running) void this.refreshResponses();
    return view;
  }

  /**
   * Runs `work` after the moves before it, unless a load began since `gen`. A progress bar
   * appears if it takes longer than half a second; failures become the error status.
   */
  private exec(label: string, gen: number, work: (onProgress: (p: Busy) => void) => Promise<void>, force = false): Promise<void> {
    if (!force && this.queued >= MAX_QUEUED) return Promise.resolve();
    this.queued++;
    const run = async () => {
      if (gen !== this.gen) return void this.queued--;
      const started = performance.now();
      const timer = setTimeout(() => this.set({ busy: { label, done: 0, total: 0 } }), BUSY_AFTER_MS);
      const onProgress = (p: Busy) => {
        if (performance.now() - started >= BUSY_AFTER_MS) this.set({ busy: { label: p.label, done: p.done, total: p.total } });
      };
      try {
        await work(onProgress);
      } catch (e) {
        this.fail(e, gen);
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

  /** The error status (unless a newer load owns the status; it returns to this if it fails). */
  private fail(e: unknown, gen: number) {
    // After a trap the worker was replaced, empty: Reset loads the experiment into it.
    const message = isFatal(e) ? `${errorMessage(e)} Press Reset (R) to reload the experiment.` : errorMessage(e);
    this.failure = message;
    if (gen === this.gen) this.set({ status: 'error', message });
    this.pause();
  }

  /** After playing: the status it leaves, the chart, and the state hash (skipped while
   * playing big devices). */
  private settleAfterPlay() {
    const s = this.state;
    const done = s.pos.request >= (s.info?.total ?? Infinity) && !s.pos.op;
    if (s.status === 'playing') this.set({ status: done ? 'done' : 'ready' });
    void this.refreshResponses();
    if (s.frame && !s.frame.hash) void this.refresh();
  }

  /** Back to the loaded experiment after a load that did not happen; `why` says why. */
  private async resume(why: Partial<SimState>) {
    if (this.failure) return this.set({ status: 'error', message: this.failure, ...why });
    // Views of moves sent before the load were dropped: ask the engine where it stands.
    const r = await this.client.request<'view'>({ type: 'frame' });
    this.apply(r.view);
    this.set(why);
  }

  /** Shows a view from the engine; `status` overrides the one it implies. */
  private apply(v: ViewData, status?: Status) {
    const implied = this.state.status === 'error' ? 'error' : this.player.running ? 'playing' : v.done ? 'done' : 'ready';
    this.set({
      frame: v.frame,
      pos: v.pos,
      current: v.current,
      report: v.report,
      log: mergeLog(this.state.log, v.current ? [...v.recent, v.current] : v.recent, v.pos.request),
      status: status ?? implied,
      notice: undefined,
      seq: this.state.seq + 1,
    });
  }
}
