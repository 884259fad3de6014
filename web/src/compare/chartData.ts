/**
 * What the comparison chart draws, from the finished runs: for each chosen metric, each
 * scheme's value and its ratio to the baseline scheme's. A metric the baseline lacks, or
 * where it is 0, has no ratio and is left out (the table still shows its values).
 */
import type { BarGroup, CompareChartData } from '../charts/draw';
import type { RunMetrics } from '../engine/metrics';
import { ratio, valueAt, type Column } from './metrics';

/** Metrics the chart starts with (the sources' usual figures), where the results have them. */
export const DEFAULT_CHART_COLUMNS = [
  'response_us.mean',
  'response_us.p99',
  'waf',
  'flash.erases',
  'gc.valid_copies',
  'flash.page_writes',
];

/**
 * Chart data for `runs` (in legend order) on `columns`, normalised to `baseline`'s run.
 * `schemes` gives each scheme id its name and colour.
 */
export function chartData(
  runs: RunMetrics[],
  columns: Column[],
  baseline: string,
  schemes: Map<string, { name: string; color: string }>,
): CompareChartData {
  const base = runs.find((m) => m.scheme === baseline);
  const groups: BarGroup[] = [];
  for (const c of columns) {
    const b = base ? valueAt(base, c.id) : null;
    const bars = runs.flatMap((m) => {
      const value = valueAt(m, c.id);
      const r = ratio(value, b);
      return value == null || r == null ? [] : [{ scheme: m.scheme, value, ratio: r }];
    });
    if (bars.length) groups.push({ id: c.id, label: c.label, unit: c.unit, bars });
  }
  return {
    baseline,
    groups,
    schemes: runs.map((m) => ({
      id: m.scheme,
      name: schemes.get(m.scheme)?.name ?? m.scheme,
      color: schemes.get(m.scheme)?.color ?? '#888',
    })),
  };
}
