/**
 * Playback: a loop on requestAnimationFrame that pulls the next state from the worker
 * once per frame (one request in flight, latest state wins). Slow speeds move one
 * operation at a time; fast ones whole requests; "max" gives the worker a time budget per
 * frame so the page keeps drawing at the display's rate.
 *
 * The loop is a scheduler only: it drives a `PlayHost` it declares here (the store
 * implements it), and the status changes that playing implies are the host's business
 * (SimStore.play / pause), so the arrow points one way: store → player.
 */
import type { Speed } from './speeds';

/** Time the worker may spend per frame at full speed, serving and reading out (ms). */
export const MAX_SPEED_BUDGET_MS = 10;
/** The response chart refreshes at most this often while playing (ms). */
const CHART_EVERY_MS = 300;

/**
 * How many steps to take this animation frame at a given speed: a fractional carry keeps
 * slow speeds exact (1 per second = one step every ~60 frames).
 */
export class Pacer {
  private carry = 0;

  /** Steps for a frame `dtMs` long at `speed` steps per second. */
  take(speed: number, dtMs: number): number {
    if (speed === Infinity) return Number.MAX_SAFE_INTEGER;
    // Cap dt so a backgrounded tab does not come back with a huge burst.
    this.carry += (speed * Math.min(dtMs, 250)) / 1000;
    const n = Math.floor(this.carry);
    this.carry -= n;
    return n;
  }

  reset() {
    this.carry = 0;
  }
}

/** What the play loop drives; SimStore implements it. */
export interface PlayHost {
  /** The speed chosen now (read every frame: changing it while playing takes effect). */
  speed(): Speed;
  /** Serves up to `n` requests within `budgetMs`; resolves with the count served. */
  tick(n: number, budgetMs: number): Promise<number>;
  /** One flash operation forwards. */
  tickOp(): Promise<void>;
  /** The end of the trace or an error was reached: nothing more to play. */
  finished(): boolean;
  /** Refetches the response chart's data. */
  refreshChart(): void;
  /** The loop stopped by itself (end of trace, error). */
  ended(): void;
}

export class PlayLoop {
  private token = 0;
  private pacer = new Pacer();
  /** True between start() and stop(). */
  running = false;

  constructor(private readonly host: PlayHost) {}

  /** Starts pulling frames (the host has checked that playing makes sense). */
  start() {
    if (this.running) return;
    this.running = true;
    this.pacer.reset();
    const token = ++this.token;
    let last = performance.now();
    let chartAt = 0;
    const tick = async (now: number) => {
      if (token !== this.token) return;
      const speed = this.host.speed();
      const max = speed.perSecond === Infinity;
      const n = this.pacer.take(speed.perSecond, now - last);
      last = now;
      let stepped = 0;
      if (n > 0) {
        if (speed.unit === 'op') await this.host.tickOp();
        else stepped = await this.host.tick(n, max ? MAX_SPEED_BUDGET_MS : Infinity);
      }
      if (now - chartAt > CHART_EVERY_MS) {
        chartAt = now;
        this.host.refreshChart();
      }
      if (token !== this.token) return;
      if (this.host.finished()) {
        this.stop();
        this.host.ended();
        return;
      }
      // At full speed the next frame is asked for as soon as this one arrived, so the
      // worker computes it while the page paints this one (waiting for the next animation
      // frame first would leave the worker idle for up to a frame).
      if (max && stepped > 0) void tick(performance.now());
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  /** Stops pulling frames; returns whether it was running. */
  stop(): boolean {
    this.token++;
    const was = this.running;
    this.running = false;
    return was;
  }
}
