/**
 * Response times folded into a fixed number of bins over the whole trace (max, its request,
 * and mean per bin), so the chart stays a few hundred SVG elements for a million requests
 * and a spike is never averaged away.
 */

/** The chart's data: one entry per bin. */
export interface ResponseSeries {
  /** Requests per bin (the last bin may hold fewer). */
  binSize: number;
  /** Requests whose response time is known (served at least once). */
  served: number;
  /** Largest response (µs) in each bin; NaN for bins not reached yet. */
  max: Float32Array;
  /** Request index of that largest response (-1 when empty). */
  argmax: Int32Array;
  /** Mean response (µs) per bin; NaN when empty. */
  mean: Float32Array;
}

/** Bins used for every trace (about one per pixel of a wide chart). */
export const RESPONSE_BINS = 800;

export class ResponseBins {
  readonly binSize: number;
  readonly count: number;
  private readonly max: Float32Array;
  private readonly argmax: Int32Array;
  private readonly sum: Float64Array;
  private readonly n: Uint32Array;
  /** Requests folded in so far. */
  upTo = 0;

  constructor(total: number, bins = RESPONSE_BINS) {
    this.binSize = Math.max(1, Math.ceil(total / bins));
    this.count = Math.max(1, Math.ceil(total / this.binSize));
    this.max = new Float32Array(this.count).fill(NaN);
    this.argmax = new Int32Array(this.count).fill(-1);
    this.sum = new Float64Array(this.count);
    this.n = new Uint32Array(this.count);
  }

  /** Folds response times of requests `upTo, upTo+1, …` (as returned by `responses()`). */
  fold(values: Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const req = this.upTo + i;
      const b = Math.min(this.count - 1, Math.floor(req / this.binSize));
      const v = values[i];
      if (!(v <= this.max[b])) {
        this.max[b] = v;
        this.argmax[b] = req;
      }
      this.sum[b] += v;
      this.n[b]++;
    }
    this.upTo += values.length;
  }

  /** A copy for the UI (its buffers can be transferred). */
  series(): ResponseSeries {
    const mean = new Float32Array(this.count);
    for (let b = 0; b < this.count; b++) mean[b] = this.n[b] ? this.sum[b] / this.n[b] : NaN;
    return { binSize: this.binSize, served: this.upTo, max: this.max.slice(), argmax: this.argmax.slice(), mean };
  }
}
