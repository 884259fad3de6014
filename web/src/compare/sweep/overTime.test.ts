// Over-time readings of a paper experiment shaped for the line chart.
import { describe, expect, it } from 'vitest';
import type { RunMetrics } from '../../engine/metrics';
import { overTimeCharts } from './overTime';
import type { PointRun } from './sweepLab';

const SCHEMES = [
  { id: 'tpftl-baseline', name: 'TPFTL', color: '#111' },
  { id: 'hcftl', name: 'HCFTL', color: '#222' },
];

function run(
  series: string,
  index: number,
  label: string,
  trace: string,
  readings: [number, Record<string, number | null>][],
): PointRun {
  return {
    key: `${trace}|${index}|${series}`,
    trace,
    point: { index, scheme: series.split('-')[0], series, key: 'timing', value: label, label, config: {} },
    status: 'done',
    done: 1,
    total: 1,
    metrics: {} as RunMetrics,
    readings: readings.map(([requests_done, values]) => ({ requests_done, values })),
  };
}

describe('overTimeCharts', () => {
  const runs = [
    run('hcftl', 0, 'trace', 'a', [
      [50, { 'mapping.hit_ratio': 0.5, dtp_index_occupancy: 0.1 }],
      [100, { 'mapping.hit_ratio': 0.6, dtp_index_occupancy: 0.2 }],
    ]),
    run('tpftl-baseline', 0, 'trace', 'a', [
      [50, { 'mapping.hit_ratio': 0.4, dtp_index_occupancy: null }],
      [100, { 'mapping.hit_ratio': 0.7, dtp_index_occupancy: null }],
    ]),
    run('hcftl', 0, 'trace', 'b', [[10, { 'mapping.hit_ratio': 0.9, dtp_index_occupancy: 0.3 }]]),
  ];

  it('gives a chart per reading with a line per series of the trace, in series order, x = requests served', () => {
    const [hit, occ] = overTimeCharts(runs, 'a', ['mapping.hit_ratio', 'dtp_index_occupancy'], SCHEMES);
    expect(hit.title).toBe('CMT hit ratio so far over the run');
    expect(hit.x).toEqual({ label: 'Requests served', unit: 'requests' });
    expect(hit.y.top).toBe(1);
    expect(hit.lines).toEqual([
      {
        scheme: 'tpftl-baseline',
        points: [
          { x: 50, y: 0.4 },
          { x: 100, y: 0.7 },
        ],
      },
      {
        scheme: 'hcftl',
        points: [
          { x: 50, y: 0.5 },
          { x: 100, y: 0.6 },
        ],
      },
    ]);
    expect(hit.styles).toEqual([]);
    // A reading only HCFTL has: one line, and the legend lists HCFTL only.
    expect(occ.lines.map((l) => l.scheme)).toEqual(['hcftl']);
    expect(occ.schemes.map((s) => s.id)).toEqual(['hcftl']);
  });

  it('leaves out readings no run has and runs without readings, unfinished runs, other traces', () => {
    const unfinished = { ...run('tpftl-baseline', 0, 'trace', 'a', [[1, { x: 1 }]]), status: 'running' as const };
    const bare = { ...run('hcftl', 0, 'trace', 'a', []), readings: undefined };
    expect(overTimeCharts([unfinished, bare], 'a', ['x'], SCHEMES)).toEqual([]);
    expect(overTimeCharts(runs, 'a', ['not.read'], SCHEMES)).toEqual([]);
    expect(overTimeCharts(runs, 'b', ['mapping.hit_ratio'], SCHEMES)[0].lines).toEqual([
      { scheme: 'hcftl', points: [{ x: 10, y: 0.9 }] },
    ]);
  });

  it('draws each value in a style of its own when the experiment has several (open and closed loop)', () => {
    const two = [
      run('hcftl', 0, 'trace', 'a', [[100, { 'mapping.hit_ratio': 0.5 }]]),
      run('hcftl', 1, 'closed', 'a', [[100, { 'mapping.hit_ratio': 0.55 }]]),
    ];
    const [hit] = overTimeCharts(two, 'a', ['mapping.hit_ratio'], SCHEMES);
    expect(hit.styles).toEqual([
      { label: 'trace', dash: '' },
      { label: 'closed', dash: '5 3' },
    ]);
    expect(hit.lines.map((l) => [l.scheme, l.style])).toEqual([
      ['hcftl', 'trace'],
      ['hcftl', 'closed'],
    ]);
  });
});
