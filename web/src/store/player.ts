/**
 * Playback: a loop on requestAnimationFrame that pulls the next state from the worker
 * once per frame (one request in flight, latest state wins). Slow speeds move one
 * operation at a time; fast ones whole requests; "max" gives the worker a time budget per
 * frame so the page keeps drawing at the display's rate.
 */
import { SPEEDS } from './experiment';
import type { SimStore } from './store';

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

export class PlayLoop {
  private token = 0;
  private pacer = new Pacer();
  /** True between play() and stop(). */
  running = false;

  constructor(private readonly store: SimStore) {}

  play() {
    const s = this.store.getState();
    if (this.running || !this.store.live || (s.status === 'done' && !s.pos.op)) return;
    this.running = true;
    this.store.set({ status: 'playing', notice: undefined });
    this.pacer.reset();
    const token = ++this.token;
    let last = performance.now();
    let chartAt = 0;
    const tick = async (now: number) => {
      if (token !== this.token) return;
      const speed = SPEEDS[this.store.getState().speed];
      const max = speed.perSecond === Infinity;
      const n = this.pacer.take(speed.perSecond, now - last);
      last = now;
      let stepped = 0;
      if (n > 0) {
        if (speed.unit === 'op') await this.store.stepOp(1, true);
        else stepped = await this.store.step(n, max ? MAX_SPEED_BUDGET_MS : Infinity, true);
      }
      if (now - chartAt > CHART_EVERY_MS) {
        chartAt = now;
        void this.store.refreshResponses();
      }
      if (token !== this.token) return;
      const st = this.store.getState();
      if ((st.pos.request >= (st.info?.total ?? 0) && !st.pos.op) || st.status === 'error') {
        this.stop();
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

  /** Stops playing; the state hash (skipped while playing big devices) is fetched again. */
  stop() {
    this.token++;
    if (!this.running) return;
    this.running = false;
    const s = this.store.getState();
    const done = s.pos.request >= (s.info?.total ?? Infinity) && !s.pos.op;
    if (s.status === 'playing') this.store.set({ status: done ? 'done' : 'ready' });
    void this.store.refreshResponses();
    if (s.frame && !s.frame.hash) void this.store.refresh();
  }

  toggle() {
    if (this.running) this.stop();
    else this.play();
  }
}
