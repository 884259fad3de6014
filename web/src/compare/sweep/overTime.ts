/**
 * A paper experiment's over-time readings as line charts (the CLI's `over_time` rows of
 * `ftl sweep --experiment NAME --json`): for each reading path, one line per series over the
 * requests served, drawn with the comparison's line chart. When the experiment has several
 * values (HCFTL's long run: open and closed loop), each value gets a line style of its own.
 */
import type { SchemeKey, StyleKey } from '../../charts/legend';
import type { Line, LinesData } from '../../charts/lines';
import { seriesOf } from './chartData';
import type { PointRun } from './sweepLab';

/** Labels of the readings the experiments take (a path without one shows as itself). */
const READINGS: Record<string, { label: string; unit: string; top?: number }> = {
  'mapping.hit_ratio': { label: 'CMT hit ratio so far', unit: '', top: 1 },
  'response_us.mean': { label: 'Mean response so far', unit: 'µs' },
  'translation_pages.reads.dtp_load': { label: 'DTP loads so far', unit: 'pages' },
  'translation_pages.bloom_false_positives': { label: 'Bloom false positives so far', unit: 'loads' },
  'translation_pages.writes.dtp_merge': { label: 'DTP merges so far', unit: 'pages' },
  dtp_index_occupancy: { label: 'DTP index occupancy', unit: '', top: 1 },
};

/** Dash patterns of the values, in value order (the first value solid). */
const DASHES = ['', '5 3', '1 3', '8 3 2 3'];

/**
 * One chart per path of `paths` over the finished runs of `trace` that carry readings;
 * `schemes` orders the series and gives their names and colours. Paths no run has a value
 * for (a reading of a structure none of the schemes keeps) are left out.
 */
export function overTimeCharts(runs: PointRun[], trace: string, paths: string[], schemes: SchemeKey[]): LinesData[] {
  const read = runs.filter((r) => r.trace === trace && r.status === 'done' && r.readings?.length);
  // A style per value only when the experiment has more than one.
  const values = [...new Map(read.map((r) => [r.point.index, r.point.label])).entries()].sort((a, b) => a[0] - b[0]);
  const styles: StyleKey[] =
    values.length > 1 ? values.map(([, label], i) => ({ label, dash: DASHES[i % DASHES.length] })) : [];
  const order = new Map(schemes.map((s, i) => [s.id, i]));
  const ranked = [...read].sort(
    (a, b) =>
      (order.get(seriesOf(a.point)) ?? 99) - (order.get(seriesOf(b.point)) ?? 99) || a.point.index - b.point.index,
  );
  return paths.flatMap((path) => {
    const lines: Line[] = ranked.flatMap((r) => {
      const points = r.readings!.flatMap((x) => {
        const y = x.values[path];
        return y == null ? [] : [{ x: x.requests_done, y }];
      });
      if (!points.length) return [];
      const line: Line = { scheme: seriesOf(r.point), points };
      if (styles.length) line.style = r.point.label;
      return [line];
    });
    if (!lines.length) return [];
    const meta = READINGS[path] ?? { label: path, unit: '' };
    const shown = new Set(lines.map((l) => l.scheme));
    return [
      {
        title: `${meta.label} over the run`,
        x: { label: 'Requests served', unit: 'requests' },
        y: { label: meta.label, unit: meta.unit, top: meta.top },
        lines,
        schemes: schemes.filter((s) => shown.has(s.id)),
        styles,
      },
    ];
  });
}
