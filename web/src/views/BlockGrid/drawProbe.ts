/**
 * What each block grid last drew and how long its paints take: read by window.__ftl so
 * end-to-end tests assert on the drawing's meaning (which block is highlighted) and so
 * frame times can be measured in the browser without a profiler.
 */
import type { GridHighlight } from './highlight';
import type { GridLayout } from './layout';

const RING = 600;
const paints = new Float64Array(RING);
const gaps = new Float64Array(RING);
let count = 0;
let lastPaintAt = 0;

/** What one grid drew last: the overlay's highlight and the page layout (null before). */
export interface GridProbe {
  highlight: GridHighlight | null;
  layout: GridLayout | null;
  pagesPerBlock: number;
}

/** The grid the app shows alone; side-by-side grids (comparison lab) take their own ids. */
export const MAIN_GRID = 'main';

const probes = new Map<string, GridProbe>();

/** The probe of grid `id`, created empty on first use: each grid writes only its own. */
export function gridProbe(id: string = MAIN_GRID): GridProbe {
  let p = probes.get(id);
  if (!p) probes.set(id, (p = { highlight: null, layout: null, pagesPerBlock: 1 }));
  return p;
}

/** Records one paint of the page layer that took `ms`. */
export function recordPaint(ms: number) {
  const now = performance.now();
  paints[count % RING] = ms;
  gaps[count % RING] = lastPaintAt ? now - lastPaintAt : NaN;
  lastPaintAt = now;
  count++;
}

/** Summary of the last paints: time per paint and time between paints (ms). */
export interface PaintSummary {
  count: number;
  paintMean: number;
  paintP95: number;
  paintMax: number;
  /** Median time between successive paints (1000 / this = painted frames per second). */
  gapMedian: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

export function paintSummary(): PaintSummary {
  const n = Math.min(count, RING);
  const p = [...paints.slice(0, n)].sort((a, b) => a - b);
  const g = [...gaps.slice(0, n)].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return {
    count,
    paintMean: p.reduce((a, b) => a + b, 0) / Math.max(1, n),
    paintP95: quantile(p, 0.95),
    paintMax: p[n - 1] ?? NaN,
    gapMedian: quantile(g, 0.5),
  };
}

/** Forgets recorded paints (start of a measurement). */
export function resetPaints() {
  count = 0;
  lastPaintAt = 0;
}
