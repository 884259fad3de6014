/**
 * A few buffers kept for reuse, so that steady play allocates no buffer a frame: the worker
 * takes the buffers a frame's change list and counters go in from here, the page hands them
 * back (transferred) once it has applied them, and the worker gives them back here.
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  /** Buffers `take` had to make (none were large enough). */
  made = 0;

  /** Keeps at most `keep` buffers. */
  constructor(private readonly keep = 8) {}

  /**
   * A buffer of at least `bytes` bytes: the smallest kept one that is large enough, or a
   * new one rounded up to a power of two (so a change list a little larger than the last
   * still fits next time).
   */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const n = this.free[i].byteLength;
      if (n >= bytes && (best < 0 || n < this.free[best].byteLength)) best = i;
    }
    if (best >= 0) {
      const buf = this.free[best];
      this.free[best] = this.free[this.free.length - 1];
      this.free.pop();
      return buf;
    }
    this.made++;
    return new ArrayBuffer(roundUp(bytes));
  }

  /** Keeps `buf` for a later `take` (when full, in place of the smallest kept, if larger). */
  give(buf: ArrayBuffer) {
    // A buffer transferred away since is detached (length 0): nothing to keep.
    if (buf.byteLength === 0 || this.free.includes(buf)) return;
    if (this.free.length < this.keep) {
      this.free.push(buf);
      return;
    }
    let smallest = 0;
    for (let i = 1; i < this.free.length; i++)
      if (this.free[i].byteLength < this.free[smallest].byteLength) smallest = i;
    if (this.free[smallest].byteLength < buf.byteLength) this.free[smallest] = buf;
  }

  /** Buffers kept now. */
  get size() {
    return this.free.length;
  }
}

/** The next power of two at or above `n` (at least 256). */
function roundUp(n: number): number {
  let p = 256;
  while (p < n) p *= 2;
  return p;
}

/** The worker's pool for frame buffers (one per worker: the simulations in it share it). */
export const framePool = new BufferPool();
