// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { svgGoldenMismatch } from '../../test/svgGolden';
import type { RunMetrics } from '../../engine/metrics';
import { columnsFor } from '../metrics';
import { metricLabel, sweepChartData, valueLabels } from './chartData';
import { drawLines } from '../../charts/lines';
import { pointText, sweepLines } from './draw';
import type { PointRun } from './sweepLab';

const BOX = { width: 420, height: 230, margin: { top: 10, right: 10, bottom: 44, left: 48 } };

function metrics(scheme: string, resp: number, hit?: number): RunMetrics {
  return {
    scheme,
    trace: { name: 't.csv', requests: 100 },
    flash: { page_reads: 1, page_writes: 1, erases: 1, by_purpose: {} },
    gc: { runs: 0, valid_copies: 0 },
    ...(hit == null ? {} : { mapping: { hit_ratio: hit } }),
    response_us: { mean: resp, p50: resp, p99: resp, max: resp },
    service_time_us: { total: 0, flash: 0, ram: 0, lru: 0, host: 0 },
    waf: 1,
  };
}

function run(
  trace: string,
  index: number,
  label: string,
  scheme: string,
  status: PointRun['status'],
  m?: RunMetrics,
): PointRun {
  return {
    key: `${trace}|${index}|${scheme}`,
    trace,
    point: { index, scheme, key: 'ram.bytes', value: 1024 << index, label, config: {} },
    status,
    done: 0,
    total: 0,
    metrics: m,
  };
}

const RUNS: PointRun[] = [
  run('a', 0, '1 KiB', 'page', 'done', metrics('page', 100)),
  run('a', 0, '1 KiB', 'dftl', 'done', metrics('dftl', 300, 0.5)),
  run('a', 1, '2 KiB', 'page', 'done', metrics('page', 90)),
  run('a', 1, '2 KiB', 'dftl', 'stopped'),
  run('a', 2, '4 KiB', 'dftl', 'done', metrics('dftl', 150, 0.8)),
  run('b', 0, '1 KiB', 'page', 'done', metrics('page', 7)),
];
const SCHEMES = [
  { id: 'page', name: 'Page', color: '#4e79a7' },
  { id: 'dftl', name: 'DFTL', color: '#f28e2c' },
];

describe('sweep chart data', () => {
  it("takes each scheme's finished points of one trace from the metrics objects; unfinished and metric-less points are left out", () => {
    const xs = valueLabels(RUNS);
    expect(xs).toEqual(['1 KiB', '2 KiB', '4 KiB']);
    const d = sweepChartData(
      RUNS,
      'a',
      'response_us.mean',
      { label: 'Mean response', unit: 'µs', xTitle: 'RAM', xs },
      SCHEMES,
    );
    expect(d.series.map((s) => s.points)).toEqual([
      [
        { index: 0, value: 100 },
        { index: 1, value: 90 },
      ],
      [
        { index: 0, value: 300 },
        { index: 2, value: 150 },
      ],
    ]);
    const hit = sweepChartData(RUNS, 'a', 'mapping.hit_ratio', { label: 'h', unit: '', xTitle: 'RAM', xs }, SCHEMES);
    expect(hit.series[0].points).toEqual([]);
    expect(hit.series[1].points.map((p) => p.value)).toEqual([0.5, 0.8]);
    const cols = columnsFor(RUNS.flatMap((r) => (r.metrics ? [r.metrics] : [])));
    expect(metricLabel('response_us.mean', cols)).toEqual({ label: 'Mean response', unit: 'µs' });
    expect(metricLabel('response_by_op_us.write.mean', cols).unit).toBe('µs');
  });

  it('draws one line and its points per scheme, with hover text naming the value (golden SVG)', () => {
    const xs = valueLabels(RUNS);
    const d = sweepChartData(
      RUNS,
      'a',
      'response_us.mean',
      { label: 'Mean response', unit: 'µs', xTitle: 'RAM budget', xs },
      SCHEMES,
    );
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const seen: string[] = [];
    drawLines(svg, sweepLines(d), BOX, (t) => seen.push(t));
    expect(svg.querySelectorAll('path[stroke]').length).toBeGreaterThanOrEqual(2);
    const points = [...svg.querySelectorAll('circle.point')];
    expect(points).toHaveLength(4);
    expect(points[3].getAttribute('aria-label')).toBe(pointText(d, d.series[1], { index: 2, value: 150 }));
    expect(points[3].getAttribute('aria-label')).toBe('dftl · Mean response at RAM budget 4 KiB: 150 µs');
    points[0].dispatchEvent(new Event('mouseenter'));
    expect(seen.at(-1)).toContain('page · Mean response at RAM budget 1 KiB: 100 µs');
    expect(svgGoldenMismatch(svg, 'sweep-chart', import.meta.url)).toBeNull();
  });

  it('labels a ratio axis in plain decimals, not SI prefixes (a WAF of 0.5 is not "500m")', () => {
    const xs = valueLabels(RUNS);
    const d = sweepChartData(
      RUNS,
      'a',
      'mapping.hit_ratio',
      { label: 'Mapping hit ratio', unit: '', xTitle: 'RAM budget', xs },
      SCHEMES,
    );
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    drawLines(svg, sweepLines(d), BOX, () => {});
    const ticks = [...svg.querySelectorAll('.tick text')].map((t) => t.textContent ?? '');
    expect(ticks.length).toBeGreaterThan(2);
    for (const t of ticks) expect(t).not.toMatch(/[mµk]$/);
    expect(ticks).toContain('0.4');
  });
});
