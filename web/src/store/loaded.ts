/**
 * The loaded experiment (its slice of the store): loading an experiment (through the timeline's queue, as a new
 * generation), switching scheme at the same moment, and returning to the loaded experiment
 * when a load fails or is stopped. The load pipeline itself is loadExperiment.ts; sharing an
 * experiment by URL belongs here next.
 */
import { isFatal, type SimClient } from '../engine/client';
import { errorMessage } from '../engine/errors';
import { plainConfigMessage } from '../engine/plainWords';
import type { ParseChoices } from '../engine/traceStream';
import type { Experiment } from './experiment';
import { loadExperiment, type Loaded } from './loadExperiment';
import type { SimState, StateCell } from './state';
import type { MoveQueue } from './moveQueue';

/** What loading needs from the rest of the store. */
export interface ExperimentHost {
  readonly client: SimClient;
  /** Stops playing, and any long work in progress. */
  pause(): void;
  cancel(): void;
  playing(): boolean;
  play(): void;
  seek(request: number): Promise<unknown>;
  /** The store's load (switching scheme loads through it, so it is observed as a load). */
  load(experiment: Experiment, choices: ParseChoices): Promise<void>;
  refreshChart(): void;
}

export class LoadedExperiment {
  /** Aborts the load in progress (Stop / Esc). */
  private loading: AbortController | null = null;

  constructor(
    private readonly state: StateCell,
    private readonly moves: MoveQueue,
    private readonly host: ExperimentHost,
  ) {}

  /** Stops the load in progress, if any (the loaded experiment stays). */
  abort() {
    this.loading?.abort();
  }

  /**
   * Streams the experiment's trace into the engine (statistics first, with a progress bar
   * for big files), then builds the simulation. If the trace cannot be read, the engine
   * refuses the config, or Stop is pressed, the previous experiment stays loaded and the
   * reason is shown with the trace (or as a notice); with none loaded it is the error status.
   */
  async load(experiment: Experiment, choices: ParseChoices): Promise<void> {
    const { state, moves, host } = this;
    host.pause();
    host.cancel(); // a load replaces the one before it and any long move in progress
    const gen = moves.newGeneration();
    const abort = new AbortController();
    this.loading = abort;
    state.set({ status: 'loading', message: undefined, notice: undefined, traceError: undefined, refused: undefined });
    await moves.exec(
      `Loading ${experiment.traceName}`,
      gen,
      async (onProgress) => {
        let loaded: Loaded;
        try {
          loaded = await loadExperiment(host.client, experiment, choices, abort.signal, onProgress);
        } catch (e) {
          const cancelled = abort.signal.aborted && !isFatal(e);
          if (isFatal(e) || !state.get().info) throw cancelled ? new Error('Loading cancelled.') : e;
          if (moves.current(gen))
            await this.resume(
              cancelled
                ? { notice: 'Loading cancelled.' }
                : { traceError: plainConfigMessage(errorMessage(e)), refused: experiment },
            );
          return;
        }
        moves.failure = undefined;
        state.set({
          info: loaded.info,
          log: [],
          responses: undefined,
          experiment,
          trace: loaded.parse,
          parseChoices: choices,
        });
        // Built just before a newer load took over: show it, but that load owns the status.
        moves.apply(loaded.view, moves.current(gen) ? undefined : state.get().status);
      },
      true,
    );
    if (this.loading === abort) this.loading = null;
    host.refreshChart();
  }

  /**
   * Loads the experiment with another scheme and runs it to the request on screen, playing
   * on if it was playing: comparing schemes at one moment is the point of switching. Part-way
   * through a request it stands at that request's start (another scheme does other
   * operations). A refused scheme leaves everything as it was.
   */
  async switchScheme(scheme: string, choices: ParseChoices): Promise<void> {
    const { experiment, pos } = this.state.get();
    const playing = this.host.playing();
    // The old scheme's own options mean nothing to the new one: it starts from its defaults.
    await this.host.load({ ...experiment, config: { ...experiment.config, scheme, options: {} } }, choices);
    const s = this.state.get();
    if (s.refused || s.status === 'error' || s.info?.scheme !== scheme) return;
    if (pos.request > 0) await this.host.seek(pos.request);
    if (playing) this.host.play();
  }

  /** Clears a failed load's reason (the selectors return to the loaded experiment). */
  dismissError() {
    this.state.set({ traceError: undefined, refused: undefined });
  }

  /** Back to the loaded experiment after a load that did not happen; `why` says why. */
  private async resume(why: Partial<SimState>) {
    const failure = this.moves.failure;
    if (failure) return this.state.set({ status: 'error', message: failure, ...why });
    // Views of moves sent before the load were dropped: ask the engine where it stands.
    const r = await this.host.client.request<'view'>({ type: 'frame' });
    this.moves.apply(r.view);
    this.state.set(why);
  }
}
