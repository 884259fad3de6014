/**
 * Scales of the response-time chart: x over the whole trace (request index), y from zero
 * to the largest response seen, and the inverse the chart needs for clicks. Pure, so the
 * geometry is tested without a DOM.
 */
import { scaleLinear, type ScaleLinear } from 'd3';
import type { ResponseSeries } from '../../engine/responseBins';

/** Chart box and margins (px). */
export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export interface ChartScales {
  /** Request index → x (px). */
  x: ScaleLinear<number, number>;
  /** Response (µs) → y (px). */
  y: ScaleLinear<number, number>;
  /** The bin under x (px), or -1 outside the plot. */
  binAt(px: number): number;
  /** Left edge (px) of bin `b`. */
  binX(b: number): number;
}

/** `atLeast`: a value (µs) the y axis must reach even if no response does (a drawn bound). */
export function chartScales(series: ResponseSeries, total: number, box: ChartBox, atLeast = 0): ChartScales {
  const { width, height, margin } = box;
  const x = scaleLinear()
    .domain([0, Math.max(1, total)])
    .range([margin.left, width - margin.right]);
  let top = atLeast;
  for (const v of series.max) if (v > top) top = v;
  const y = scaleLinear()
    .domain([0, top > 0 ? top : 1])
    .nice(4)
    .range([height - margin.bottom, margin.top]);
  const bins = series.max.length;
  return {
    x,
    y,
    binAt(px: number) {
      if (px < margin.left || px > width - margin.right) return -1;
      return Math.min(bins - 1, Math.max(0, Math.floor(x.invert(px) / series.binSize)));
    },
    binX: (b: number) => x(b * series.binSize),
  };
}

/**
 * The `n` highest bins (spikes), highest first, at least `minGap` bins apart so that one
 * burst does not take every marker; empty bins never count.
 */
export function spikes(series: ResponseSeries, n: number, minGap = 0): number[] {
  const bins = [...series.max.keys()].filter((b) => series.max[b] > 0);
  bins.sort((a, b) => series.max[b] - series.max[a] || a - b);
  const out: number[] = [];
  for (const b of bins) {
    if (out.length >= n) break;
    if (out.every((o) => Math.abs(o - b) >= minGap)) out.push(b);
  }
  return out;
}

/** SVG path of the per-bin maxima as steps (gaps where bins are empty). */
export function stepPath(series: ResponseSeries, s: ChartScales): string {
  let d = '';
  let open = false;
  for (let b = 0; b < series.max.length; b++) {
    const v = series.max[b];
    if (!(v >= 0)) {
      open = false;
      continue;
    }
    const x0 = s.binX(b).toFixed(1);
    const x1 = s.binX(b + 1).toFixed(1);
    const y = s.y(v).toFixed(1);
    d += `${open ? 'L' : 'M'}${x0},${y}H${x1}`;
    open = true;
  }
  return d;
}
