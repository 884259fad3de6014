/**
 * The app's one store, outside React (components read it with useSim). It owns the engine
 * client and composes the slices that change its state: the move queue (moveQueue.ts: the move
 * queue, generations, applying views), the loaded experiment (loaded.ts: load, switch scheme,
 * resume after a failed load), the ui (ui.ts: speed, heat, help) and the read-outs (reads.ts).
 * state.ts says which fields each slice owns. The play loop lives in player.ts; this file is
 * the public API the views call and the glue between the slices.
 */
import { SimClient } from '../engine/client';
import type { InspectQuery } from '../engine/inspection';
import type { ParseChoices } from '../engine/traceStream';
import type { Experiment } from './experiment';
import { LoadedExperiment } from './loaded';
import { PlayLoop, type PlayHost } from './player';
import { Reads } from './reads';
import { SPEEDS } from './speeds';
import { initialState, type SimState, type StageChoice, type StateCell } from './state';
import { MoveQueue } from './moveQueue';
import { Ui } from './ui';
import { Observable } from './observable';

export type { Busy, SimState, Status } from './state';

/** The store: state, subscriptions, and every action the views take. */
export class SimStore extends Observable<SimState> {
  readonly player: PlayLoop;
  private readonly moves: MoveQueue;
  private readonly experiments: LoadedExperiment;
  private readonly ui: Ui;
  private readonly reads: Reads;

  constructor(readonly client: SimClient = new SimClient()) {
    super(initialState());
    const cell: StateCell = { get: () => this.state, set: (patch) => this.set(patch) };
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
    const common = {
      client,
      playing: () => this.player.running,
      pause: () => this.pause(),
      refreshChart: () => void this.refreshResponses(),
    };
    this.moves = new MoveQueue(cell, common);
    this.experiments = new LoadedExperiment(cell, this.moves, {
      ...common,
      cancel: () => this.cancel(),
      play: () => this.play(),
      seek: (request) => this.seek(request),
      load: (experiment, choices) => this.load(experiment, choices),
    });
    this.ui = new Ui(cell);
    this.reads = new Reads(
      client,
      () => this.live,
      (patch) => this.set(patch),
      () => this.state,
    );
  }

  /** Value of a named frame counter (NaN before the first frame). */
  counter(name: string): number {
    const { info, frame } = this.state;
    const i = info?.counterNames.indexOf(name) ?? -1;
    return i >= 0 && frame ? frame.counters[i] : NaN;
  }

  /** Whether the timeline can move (a simulation is loaded and healthy). */
  get live(): boolean {
    return this.moves.live;
  }

  // ---- the loaded experiment (loaded.ts) ----

  /** Loads `experiment` (by default the loaded one again); see LoadedExperiment.load. */
  load(experiment: Experiment = this.state.experiment, choices: ParseChoices = this.state.parseChoices): Promise<void> {
    return this.experiments.load(experiment, choices);
  }

  /** Loads the experiment with another scheme at the request on screen; see LoadedExperiment.switchScheme. */
  switchScheme(scheme: string, choices: ParseChoices = this.state.parseChoices): Promise<void> {
    return this.experiments.switchScheme(scheme, choices);
  }

  /** Clears a failed load's reason (the selectors return to the loaded experiment). */
  dismissError() {
    this.experiments.dismissError();
  }

  /**
   * Reloads the current experiment from the start. After the engine crashed it reloads the
   * last experiment that loaded (a refused or crashing one never replaces it) and returns to
   * the request on screen, so a crash costs no position.
   */
  async reset() {
    const { status, pos, info, experiment } = this.state;
    const crashed = status === 'error' && !!info;
    await this.load(experiment);
    const s = this.state;
    if (crashed && pos.request > 0 && s.status !== 'error' && !s.refused)
      await this.seek(Math.min(pos.request, s.info?.total ?? 0));
  }

  // ---- timeline moves (each pauses play first, except when the play loop calls them) ----

  /** Serves `requests` requests (or until `budgetMs` runs out); resolves with the count. */
  async step(requests = 1, budgetMs = Infinity, fromPlayer = false): Promise<number> {
    if (!fromPlayer) this.pause();
    if (this.state.status === 'done' && !this.state.pos.op) return 0;
    const v = await this.moves.move({ type: 'step', requests, budgetMs, hash: !fromPlayer }, 'Stepping');
    return v?.stepped ?? 0;
  }

  /** One flash operation forwards or backwards. */
  async stepOp(delta: 1 | -1 = 1, fromPlayer = false) {
    if (!fromPlayer) this.pause();
    return this.moves.move({ type: 'stepOp', delta }, delta > 0 ? 'Stepping' : 'Stepping back');
  }

  /** Back `requests` requests. */
  async back(requests = 1) {
    this.pause();
    return this.moves.move({ type: 'back', requests }, 'Stepping back');
  }

  /** To request `request` (op `op`): the scrubber, the chart and the narration use it. */
  async seek(request: number, op = 0) {
    this.pause();
    return this.moves.move({ type: 'seek', request, op }, 'Seeking');
  }

  /** To the next stop `what` (an engine stop id: GC, mapping-cache miss, merge…). */
  async jump(what: string) {
    this.pause();
    const v = await this.moves.move({ type: 'jump', what }, 'Searching');
    if (v && v.found === false) {
      const stop = this.state.info?.vocab.stops.find((s) => s.id === what);
      const label = stop ? stop.label.replace(/^Next /i, '') : what;
      this.set({ notice: v.cancelled ? 'Search stopped.' : `No ${label} until the end of the trace.` });
    }
    return v;
  }

  /** Asks the worker for the current frame again, with its state hash. */
  refresh() {
    return this.moves.move({ type: 'frame' }, 'Refreshing');
  }

  /**
   * Stops long work: a load (the loaded experiment stays), or a seek or jump in the worker
   * (it returns where it got to).
   */
  cancel() {
    this.experiments.abort();
    this.client.cancel();
  }

  // ---- reads that change no position (reads.ts) ----

  /** What the worker recorded about physical page `ppn`. */
  pageInfo = (ppn: number) => this.reads.pageInfo(ppn);
  /** Fetches the binned response times (the chart's data). */
  refreshResponses = () => this.reads.responses();
  /** The scheme's answer to a view's question at the current position (views ask through useInspection). */
  inspect = (query: InspectQuery) => this.reads.inspect(query);
  /** What the engine can build (config schema, presets, scheme specs); asked once. */
  catalog = () => this.reads.catalog();
  /** The engine's verdict on a config, without building it (the running experiment stays). */
  validate = (config: object) => this.reads.validate(config);

  // ---- playing and the ui (ui.ts) ----

  setSpeed(speed: number) {
    this.ui.setSpeed(speed);
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
    this.ui.toggleHeat();
  }

  setHelp(open: boolean) {
    this.ui.setHelp(open);
  }

  setTab(id: string | undefined) {
    this.ui.setTab(id);
  }

  /** Puts views on the stage: `main` in the main area, `side` beside it (app/stageViews.ts). */
  setStage(choice: StageChoice) {
    this.ui.setStage(choice);
  }

  /** Shows `text` in the status area until the next move. */
  notify(text: string) {
    this.ui.notify(text);
  }

  // ---- glue ----

  /** After playing: the status it leaves, the chart, and the state hash (skipped while
   * playing big devices). */
  private settleAfterPlay() {
    const s = this.state;
    const done = s.pos.request >= (s.info?.total ?? Infinity) && !s.pos.op;
    if (s.status === 'playing') this.set({ status: done ? 'done' : 'ready' });
    void this.refreshResponses();
    if (s.frame && !s.frame.hash) void this.refresh();
  }
}
