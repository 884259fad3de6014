/**
 * Long work in the worker (seeks, jumps) runs as a generator that yields progress between
 * slices; the worker posts the progress and returns to its event loop, tests just drain it.
 * Slices adapt their size to take about SLICE_MS whatever the device and scheme cost.
 */

/** A progress report from long work. */
export interface Progress {
  label: string;
  done: number;
  total: number;
}

/** Long work: yields progress, returns its result. */
export type Work<T> = Generator<Progress, T, void>;

/** Target time of one slice of long work between progress reports (ms). */
export const SLICE_MS = 40;

/** Grows or shrinks a slice (in requests) so that the next one takes about SLICE_MS. */
export function adapt(chunk: number, tookMs: number): number {
  if (tookMs < SLICE_MS / 2) return Math.min(chunk * 2, 1 << 20);
  if (tookMs > SLICE_MS * 2) return Math.max(16, Math.floor(chunk / 2));
  return chunk;
}
