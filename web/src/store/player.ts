/**
 * How many requests to step this animation frame at a given speed: a fractional carry keeps
 * slow speeds exact (1 request per second = one step every ~60 frames).
 */
export class Pacer {
  private carry = 0;

  /** Requests to step for a frame `dtMs` long at `speed` requests per second. */
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
