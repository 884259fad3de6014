/**
 * The move queue (the timeline slice): every move goes through `exec`, which runs moves one at a time, shows a
 * progress bar for anything slower than half a second and applies the view that comes back.
 *
 * Loads and moves share one queue, and a load bumps a generation number (`newGeneration`): a
 * move begun before it belongs to the experiment being replaced, so its view is dropped (it
 * would otherwise end the 'loading' status while the new trace is still read).
 */
import { isFatal, type SimClient } from '../engine/client';
import { errorMessage } from '../engine/errors';
import type { ToWorker, ViewData } from '../engine/protocol';
import { mergeLog } from './narrationLog';
import type { Busy, StateCell, Status } from './state';

/** What the error status adds after a crash: Reset loads the experiment into a new engine. */
export const RESET_HINT = ' Press Reset (R) to reload the experiment where it stood.';

export type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Delay before a progress bar appears (ms). */
const BUSY_AFTER_MS = 500;
/** Moves queued beyond this are dropped (a held-down key must not build a backlog). */
const MAX_QUEUED = 3;

/** What the move queue needs from the rest of the store. */
export interface MoveQueueHost {
  readonly client: SimClient;
  /** Whether the play loop is running (the status a view implies). */
  playing(): boolean;
  /** Stops playing (after a failure). */
  pause(): void;
  /** Refetches the response chart (after single moves; the play loop has its own clock). */
  refreshChart(): void;
}

export class MoveQueue {
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Bumped by every load; work begun under an older number is skipped or dropped. */
  private gen = 0;
  /** Why the engine failed since the last load that succeeded: a failed reload returns to it. */
  failure: string | undefined;

  constructor(
    private readonly state: StateCell,
    private readonly host: MoveQueueHost,
  ) {}

  /** Whether the timeline can move (a simulation is loaded and healthy). */
  get live(): boolean {
    const s = this.state.get();
    return s.status !== 'loading' && s.status !== 'error' && !!s.info;
  }

  /** Starts a new generation (a load): moves queued under older ones are dropped. */
  newGeneration(): number {
    return ++this.gen;
  }

  /** Whether `gen` is still the newest generation. */
  current(gen: number): boolean {
    return gen === this.gen;
  }

  /** Sends a move and applies the view it returns (undefined when dropped or failed). */
  async move(body: Body<ToWorker>, label: string): Promise<ViewData | undefined> {
    if (!this.live) return undefined;
    const gen = this.gen;
    let view: ViewData | undefined;
    await this.exec(label, gen, async (onProgress) => {
      if (!this.live) return; // a move queued before it failed: the engine may be gone
      const r = await this.host.client.request<'view'>(body, [], onProgress);
      if (gen !== this.gen) return; // a load began meanwhile (it resyncs if it fails)
      view = r.view;
      this.apply(r.view);
    });
    if (view && !this.host.playing()) this.host.refreshChart();
    return view;
  }

  /**
   * Runs `work` after the moves before it, unless a load began since `gen`. A progress bar
   * appears if it takes longer than half a second; failures become the error status.
   * `force` queues it even when the queue is full (a load).
   */
  exec(
    label: string,
    gen: number,
    work: (onProgress: (p: Busy) => void) => Promise<void>,
    force = false,
  ): Promise<void> {
    if (!force && this.queued >= MAX_QUEUED) return Promise.resolve();
    this.queued++;
    const run = async () => {
      if (gen !== this.gen) return void this.queued--;
      const started = performance.now();
      // The bar shows the latest progress, also one reported before it appeared (the label
      // of a long phase that has just begun).
      let latest: Busy = { label, done: 0, total: 0 };
      const timer = setTimeout(() => this.state.set({ busy: latest }), BUSY_AFTER_MS);
      const onProgress = (p: Busy) => {
        latest = { label: p.label, done: p.done, total: p.total };
        if (performance.now() - started >= BUSY_AFTER_MS) this.state.set({ busy: latest });
      };
      try {
        await work(onProgress);
      } catch (e) {
        this.fail(e, gen);
      } finally {
        clearTimeout(timer);
        this.queued--;
        if (this.state.get().busy) this.state.set({ busy: undefined });
      }
    };
    const p = this.chain.then(run);
    this.chain = p;
    return p;
  }

  /** Shows a view from the engine; `status` overrides the one it implies. */
  apply(v: ViewData, status?: Status) {
    const s = this.state.get();
    const implied = s.status === 'error' ? 'error' : this.host.playing() ? 'playing' : v.done ? 'done' : 'ready';
    this.state.set({
      frame: v.frame,
      pos: v.pos,
      current: v.current,
      report: v.report,
      log: mergeLog(s.log, v.current ? [...v.recent, v.current] : v.recent, v.pos.request),
      status: status ?? implied,
      notice: undefined,
      seq: s.seq + 1,
    });
  }

  /** The error status (unless a newer load owns the status; it returns to this if it fails). */
  private fail(e: unknown, gen: number) {
    // After a trap the worker was replaced, empty: Reset loads the experiment into it.
    const message = isFatal(e) ? `${errorMessage(e)}${RESET_HINT}` : errorMessage(e);
    this.failure = message;
    if (gen === this.gen) this.state.set({ status: 'error', message });
    this.host.pause();
  }
}
