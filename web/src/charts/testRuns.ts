/** Metrics objects for the chart tests: every field the charts read, numbers easy to check. */
import type { RunMetrics } from '../engine/metrics';

export function testRun(
  scheme: string,
  k: number,
  opts: { mapping?: number; buffer?: number; ram?: boolean; bufferBytes?: number } = {},
): RunMetrics {
  const series = [1, 2, 3].map((i) => ({
    requests_done: 100 * i,
    sim_time_us: 1000 * i * k,
    mean_response_us: 10 * i * k,
    max_response_us: 40 * i * k,
    free_blocks: 20 - 2 * i * k,
    ...(opts.ram ? { ram: { mapping_bytes: 1024 * i * k, buffer_bytes: (opts.bufferBytes ?? 0) * i } } : {}),
  }));
  const dist = (f: number) => ({
    mean: 100 * f,
    p50: 80 * f,
    p90: 150 * f,
    p99: 400 * f,
    p999: 700 * f,
    max: 900 * f,
    min: 20 * f,
    count: 50,
  });
  return {
    scheme,
    trace: { name: 't.csv', requests: 300 },
    flash: {
      page_reads: 100 * k,
      page_writes: 200 * k,
      erases: 10 * k,
      by_purpose: {
        data: { page_reads: 90 * k, page_writes: 150 * k, erases: 0 },
        translation: { page_reads: 10 * k, page_writes: 0, erases: 0 },
        gc: { page_reads: 0, page_writes: 50 * k, erases: 10 * k },
        merge: { page_reads: 0, page_writes: 0, erases: 0 },
      },
    },
    gc: { runs: 4 * k, valid_copies: 50 * k },
    ...(opts.mapping == null ? {} : { mapping: { hit_ratio: opts.mapping } }),
    ...(opts.buffer == null ? {} : { buffer: { hit_ratio: opts.buffer } }),
    response_us: { ...dist(k), count: 100 },
    response_by_op_us: { read: dist(k * 0.5), write: { ...dist(k * 2), count: opts.buffer == null ? 50 : 0 } },
    response_cdf_us: [
      { p: 0, us: 20 * k },
      { p: 0.5, us: 80 * k },
      { p: 0.9, us: 150 * k },
      { p: 1, us: 900 * k },
    ],
    service_time_us: { total: 1000 * k, flash: 900 * k, ram: 50 * k, lru: 50 * k, host: 0 },
    waf: 1.5 * k,
    series,
  };
}

export const TEST_RUNS = [
  testRun('page', 1, { ram: true }),
  testRun('dftl', 2, { mapping: 0.5, ram: true }),
  testRun('aps', 1.5, { mapping: 0.8, buffer: 0.25, ram: true, bufferBytes: 512 }),
];

export const TEST_KEYS = new Map([
  ['page', { name: 'Page', color: '#4e79a7' }],
  ['dftl', { name: 'DFTL', color: '#f28e2c' }],
  ['aps', { name: 'APS', color: '#e15759' }],
]);
