/**
 * The app's one store, outside React (components read it with useSim). It owns the engine
 * client and the play loop; views only render what it holds.
 */
import { SimClient } from '../engine/client';
import { errorMessage } from '../engine/core';
import type { FrameData, SimInfo } from '../engine/protocol';
import { DEFAULT_EXPERIMENT, type Experiment } from './experiment';
import { Pacer } from './player';

export type Status = 'loading' | 'ready' | 'playing' | 'done' | 'error';

export interface SimState {
  status: Status;
  /** What went wrong, when status is 'error' (or a step failed). */
  message?: string;
  info?: SimInfo;
  frame?: FrameData;
  /** Requests per second; Infinity = as fast as possible. */
  speed: number;
  experiment: Experiment;
}

/** Time the worker may spend per animation frame at full speed (ms). */
const MAX_SPEED_BUDGET_MS = 12;

export class SimStore {
  private state: SimState = { status: 'loading', speed: 20, experiment: DEFAULT_EXPERIMENT };
  private listeners = new Set<() => void>();
  private pacer = new Pacer();
  private loopToken = 0;

  constructor(private readonly client: SimClient = new SimClient()) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): SimState => this.state;

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

  /** Fetches the experiment's trace and builds the simulation. */
  async load(experiment: Experiment = this.state.experiment): Promise<void> {
    this.pause();
    this.set({ status: 'loading', experiment, message: undefined });
    try {
      const res = await fetch(experiment.traceUrl);
      if (!res.ok) throw new Error(`${experiment.traceName}: HTTP ${res.status} ${res.statusText}`);
      const trace = await res.arrayBuffer();
      const reply = await this.client.request<'loaded'>(
        { type: 'load', configJson: JSON.stringify(experiment.config), trace, traceName: experiment.traceName },
        [trace],
      );
      this.set({ status: 'ready', info: reply.info, frame: reply.frame });
    } catch (e) {
      this.set({ status: 'error', message: errorMessage(e) });
    }
  }

  /** Steps `requests` requests (or until the time budget runs out) and shows the result. */
  async step(requests = 1, budgetMs = Infinity): Promise<number> {
    if (this.state.status === 'loading' || this.state.status === 'error' || this.state.status === 'done') return 0;
    try {
      const r = await this.client.request<'frame'>({ type: 'step', requests, budgetMs });
      this.set({
        frame: r.frame,
        status: r.done ? 'done' : this.state.status,
      });
      return r.stepped;
    } catch (e) {
      this.set({ status: 'error', message: errorMessage(e) });
      return 0;
    }
  }

  play() {
    if (this.state.status !== 'ready') return;
    this.set({ status: 'playing' });
    this.pacer.reset();
    const token = ++this.loopToken;
    let last = performance.now();
    const tick = async (now: number) => {
      if (token !== this.loopToken || this.state.status !== 'playing') return;
      const n = this.pacer.take(this.state.speed, now - last);
      last = now;
      if (n > 0) {
        const budget = this.state.speed === Infinity ? MAX_SPEED_BUDGET_MS : Infinity;
        await this.step(n, budget);
      }
      if (token === this.loopToken && this.state.status === 'playing') requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause() {
    this.loopToken++;
    if (this.state.status === 'playing') this.set({ status: 'ready' });
  }

  togglePlay() {
    if (this.state.status === 'playing') this.pause();
    else this.play();
  }

  setSpeed(speed: number) {
    this.set({ speed });
  }

  /** Reloads the current experiment from the start. */
  reset() {
    return this.load(this.state.experiment);
  }
}
