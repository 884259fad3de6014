/**
 * A sweep's line chart, as the sources draw theirs (Shin Fig 3: write response against
 * utilization): the swept values along x (evenly spaced, in the order given), one line per
 * scheme through the points finished so far, a metric on y; drawn by the one line drawer
 * (`charts/lines.ts`), which this turns the sweep's results into.
 */
import type { LinesData } from '../../charts/lines';

/** One scheme's line: (value index, metric) for the points that finished. */
export interface SweepSeries {
  scheme: string;
  name: string;
  color: string;
  points: { index: number; value: number }[];
}

export interface SweepChartData {
  /** Metric path and its label and unit (y axis). */
  metric: string;
  label: string;
  unit: string;
  /** The parameter (x axis title) and each value's label, by index. */
  xTitle: string;
  xs: string[];
  series: SweepSeries[];
}

/** Text of a point's hover value and accessible name. */
export function pointText(d: SweepChartData, s: SweepSeries, p: { index: number; value: number }): string {
  const v = p.value.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return `${s.scheme} · ${d.label} at ${d.xTitle} ${d.xs[p.index]}: ${v}${d.unit ? ` ${d.unit}` : ''}`;
}

/**
 * The chart as the one line drawer draws it (`drawLines`): the swept values on a point
 * scale, a line and a dot per finished point for each scheme, 8 % room above the highest.
 */
export function sweepLines(data: SweepChartData): LinesData {
  const bySchemes = new Map(data.series.map((s) => [s.scheme, s]));
  return {
    title: `${data.label} against ${data.xTitle}`,
    x: { label: data.xTitle, unit: '', labels: data.xs },
    y: { label: data.label, unit: data.unit, headroom: 1.08 },
    lines: data.series.map((s) => ({
      scheme: s.scheme,
      points: [...s.points].sort((a, b) => a.index - b.index).map((p) => ({ x: p.index, y: p.value })),
    })),
    schemes: data.series.map((s) => ({ id: s.scheme, name: s.name, color: s.color })),
    pointText: (l, p) => pointText(data, bySchemes.get(l.scheme)!, { index: p.x, value: p.y }),
  };
}
