/**
 * Taking a sweep away: CSV (one row per finished point: the trace, the parameter's key,
 * value and label, then the comparison's metric columns) and JSON in the shape `ftl sweep
 * --json` prints (`{"param", "results": [{index, scheme, series, key, value, label, trace, metrics}]}`).
 */
import { toCsv } from '../export';
import type { Column } from '../metrics';
import type { PointRun } from './sweepLab';

function finished(runs: PointRun[]) {
  return runs.filter((r) => r.status === 'done' && r.metrics && r.json);
}

/** The finished points as CSV. */
export function sweepCsv(runs: PointRun[], columns: Column[]): string {
  const done = finished(runs);
  return toCsv(
    done.map((r) => ({ metrics: r.metrics!, json: r.json! })),
    columns,
    {
      head: ['sweep.trace', 'sweep.series', 'sweep.key', 'sweep.value', 'sweep.label'],
      row: (i) => [
        done[i].trace,
        done[i].point.series ?? done[i].point.scheme,
        done[i].point.key,
        typeof done[i].point.value === 'string' ? (done[i].point.value as string) : JSON.stringify(done[i].point.value),
        done[i].point.label,
      ],
    },
  );
}

/** The finished points as `ftl sweep --json` prints them (metrics as the engine gave them). */
export function sweepJson(key: string, runs: PointRun[]): string {
  const results = finished(runs).map((r) => {
    const p = r.point;
    return `{"index":${p.index},"scheme":${JSON.stringify(p.scheme)},"series":${JSON.stringify(p.series ?? p.scheme)},"key":${JSON.stringify(p.key)},"value":${JSON.stringify(p.value)},"label":${JSON.stringify(p.label)},"trace":${JSON.stringify(r.trace)},"metrics":${r.json}}`;
  });
  return `{"param":${JSON.stringify(key)},"results":[${results.join(',')}]}`;
}
