/**
 * What a sweep chart draws, from the finished points of one trace: for a metric, each
 * scheme's value at each swept value it has finished. A point without the metric (a hit
 * ratio of a scheme with no cache) is left out of its line.
 */
import { breakdownOf, type BreakdownData } from '../../charts/breakdown';
import { valueAt, type Column } from '../metrics';
import type { SweepChartData } from './draw';
import type { PointRun } from './sweepLab';
import type { SweepPoint } from './types';

/** The series a point belongs to (a paper experiment's series id, else its scheme). */
export function seriesOf(p: SweepPoint): string {
  return p.series ?? p.scheme;
}

/** Labels of the metrics a sweep shows by default or a paper experiment names. */
const EXTRA: Record<string, { label: string; unit: string }> = {
  'response_us.std': { label: 'Response std', unit: 'µs' },
  'response_by_op_us.write.mean': { label: 'Mean write response', unit: 'µs' },
  'response_by_op_us.read.mean': { label: 'Mean read response', unit: 'µs' },
  'flash.by_purpose.translation.page_reads': { label: 'Translation page reads', unit: 'pages' },
};

/** Metrics a custom sweep starts with (response, WAF, erases, hit ratio). */
export const SWEEP_METRICS = ['response_us.mean', 'waf', 'flash.erases', 'mapping.hit_ratio', 'buffer.hit_ratio'];

/** Label and unit of a metric path (the table's column when it has one). */
export function metricLabel(path: string, columns: Column[]): { label: string; unit: string } {
  const c = columns.find((x) => x.id === path);
  return c ? { label: c.label, unit: c.unit } : (EXTRA[path] ?? { label: path, unit: '' });
}

/**
 * Chart data for `metric` over the runs of `trace`; `xs` labels the values by index and
 * `schemes` orders the lines and gives their names and colours.
 */
export function sweepChartData(
  runs: PointRun[],
  trace: string,
  metric: string,
  meta: { label: string; unit: string; xTitle: string; xs: string[] },
  schemes: { id: string; name: string; color: string }[],
): SweepChartData {
  const series = schemes.map((s) => ({
    scheme: s.id,
    name: s.name,
    color: s.color,
    points: runs.flatMap((r) => {
      if (r.trace !== trace || seriesOf(r.point) !== s.id || r.status !== 'done' || !r.metrics) return [];
      const v = valueAt(r.metrics, metric);
      return v == null ? [] : [{ index: r.point.index, value: v }];
    }),
  }));
  return { metric, label: meta.label, unit: meta.unit, xTitle: meta.xTitle, xs: meta.xs, series };
}

/** The value labels of a sweep's points, by index. */
export function valueLabels(runs: PointRun[]): string[] {
  const xs: string[] = [];
  for (const r of runs) xs[r.point.index] = r.point.label;
  return Array.from(xs, (l) => l ?? '');
}

/**
 * Seed 003's time breakdown of the finished points of `trace` placed by a metadata model:
 * one stacked bar per point, in value order then series order, labelled by the value (and
 * the series, when there are several).
 */
export function sweepBreakdown(runs: PointRun[], trace: string, series: string[]): BreakdownData {
  const rank = (r: PointRun) => r.point.index * (series.length + 1) + series.indexOf(seriesOf(r.point));
  const stacks = runs
    .filter((r) => r.trace === trace && r.status === 'done' && r.metrics)
    .sort((a, b) => rank(a) - rank(b))
    .flatMap((r) => {
      const parts = breakdownOf(r.metrics!);
      const label = series.length > 1 ? `${seriesOf(r.point)} · ${r.point.label}` : r.point.label;
      return parts ? [{ id: r.key, label, parts }] : [];
    });
  return { title: 'Time breakdown (seed 003)', stacks };
}
