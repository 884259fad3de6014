// Chart data against the metrics objects it comes from: hand-made ones (every branch) and the
// real engine's (the TS types of `series`, `response_cdf_us` and the percentiles must match
// what the wasm build serialises).
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import type { RunMetrics } from '../engine/metrics';
import { valueAt } from '../compare/metrics';
import {
  CHARTS,
  copiesAndWaf,
  flashByPurpose,
  freeBlocksOverTrace,
  hitRatios,
  percentiles,
  ramOverTrace,
  responseCdf,
  responseOverTrace,
  worstCase,
} from './data';
import type { PanelsData } from './grouped';
import { TEST_KEYS, TEST_RUNS } from './testRuns';

/** Every bar as [panel, group, scheme, value]. */
function bars(d: PanelsData) {
  return d.panels.flatMap((p) => p.groups.flatMap((g) => g.bars.map((b) => [p.id, g.id, b.scheme, b.value])));
}

const run = (id: string) => TEST_RUNS.find((m) => m.scheme === id)!;

describe('panel charts', () => {
  it('hit ratios: the mapping and buffer hit ratios of the schemes that have those caches', () => {
    const d = hitRatios(TEST_RUNS, TEST_KEYS);
    expect(bars(d)).toEqual([
      ['hit', 'mapping', 'dftl', 0.5],
      ['hit', 'mapping', 'aps', 0.8],
      ['hit', 'buffer', 'aps', 0.25],
    ]);
    expect(d.panels[0].top).toBe(1);
    expect(d.schemes.map((s) => [s.id, s.color])).toEqual([...TEST_KEYS].map(([id, k]) => [id, k.color]));
    // No scheme with a cache: no panel at all (the picker still offers the chart).
    expect(hitRatios([run('page')], TEST_KEYS).panels).toEqual([]);
  });

  it("flash operations: each purpose used by some run, each value the metrics object's", () => {
    const d = flashByPurpose(TEST_RUNS, TEST_KEYS);
    expect(d.panels.map((p) => [p.id, p.unit, p.groups.map((g) => g.id)])).toEqual([
      ['page_reads', 'pages', ['data', 'translation']],
      ['page_writes', 'pages', ['data', 'gc']],
      ['erases', 'blocks', ['gc']],
    ]);
    for (const [panel, purpose, scheme, value] of bars(d))
      expect(value).toBe(valueAt(run(scheme as string), `flash.by_purpose.${purpose}.${panel}`));
    expect(bars(d)).toHaveLength(15);
  });

  it('copies and WAF, percentiles and worst case read the metrics objects', () => {
    for (const [, , s, v] of bars(copiesAndWaf(TEST_RUNS, TEST_KEYS)).filter((b) => b[0] === 'copies'))
      expect(v).toBe(run(s as string).gc.valid_copies);
    for (const [, , s, v] of bars(copiesAndWaf(TEST_RUNS, TEST_KEYS)).filter((b) => b[0] === 'waf'))
      expect(v).toBe(run(s as string).waf);
    const p = percentiles(TEST_RUNS, TEST_KEYS);
    expect(p.panels[0].groups.map((g) => g.label)).toEqual(['p50', 'p90', 'p99', 'p99.9', 'max']);
    for (const [, g, s, v] of bars(p)) expect(v).toBe(valueAt(run(s as string), `response_us.${g}`));
    const w = worstCase(TEST_RUNS, TEST_KEYS);
    expect(
      bars(w)
        .filter((b) => b[1] === 'all')
        .map((b) => b[3]),
    ).toEqual(TEST_RUNS.map((m) => m.response_us.max));
    expect(
      bars(w)
        .filter((b) => b[1] === 'read')
        .map((b) => b[3]),
    ).toEqual(TEST_RUNS.map((m) => m.response_by_op_us!.read.max));
    // aps served no writes in this fixture (count 0): no write bar for it.
    expect(
      bars(w)
        .filter((b) => b[1] === 'write')
        .map((b) => b[2]),
    ).toEqual(['page', 'dftl']);
  });
});

describe('line charts', () => {
  it('the CDF is response_cdf_us (share against µs)', () => {
    const d = responseCdf(TEST_RUNS, TEST_KEYS);
    expect(d.x.log).toBe(true);
    for (const l of d.lines) expect(l.points).toEqual(run(l.scheme).response_cdf_us!.map((c) => ({ x: c.us, y: c.p })));
  });

  it('over the trace: each point is a series window', () => {
    const r = responseOverTrace(TEST_RUNS, TEST_KEYS);
    const f = freeBlocksOverTrace(TEST_RUNS, TEST_KEYS);
    for (const m of TEST_RUNS) {
      const s = m.series!;
      expect(r.lines.find((l) => l.scheme === m.scheme)!.points.map((p) => [p.x, p.y])).toEqual(
        s.map((p) => [p.requests_done, p.mean_response_us]),
      );
      expect(f.lines.find((l) => l.scheme === m.scheme)!.points.map((p) => [p.x, p.y])).toEqual(
        s.map((p) => [p.requests_done, p.free_blocks]),
      );
    }
    expect(r.lines[1].points[2].note).toBe('max 240 µs');
  });

  it('RAM: mapping (solid) for every scheme reporting a split, buffer (dashed) where something was buffered, in KiB', () => {
    const d = ramOverTrace(TEST_RUNS, TEST_KEYS);
    expect(d.lines.map((l) => [l.scheme, l.style])).toEqual([
      ['page', 'mapping'],
      ['dftl', 'mapping'],
      ['aps', 'mapping'],
      ['aps', 'buffer'],
    ]);
    expect(d.lines[3].points.map((p) => p.y)).toEqual(run('aps').series!.map((p) => p.ram!.buffer_bytes / 1024));
    expect(d.lines[1].points.map((p) => p.y)).toEqual(run('dftl').series!.map((p) => p.ram!.mapping_bytes / 1024));
    expect(d.styles!.map((s) => s.label)).toEqual(['mapping', 'buffer']);
    const noRam = { ...run('page'), series: run('page').series!.map(({ ram: _ram, ...p }) => p) };
    expect(ramOverTrace([noRam], TEST_KEYS).lines).toEqual([]);
  });
});

describe('charts of real engine runs', () => {
  const TRACE = 'msr-cambridge_hm_0_first1000.csv';
  function engineRun(scheme: string): RunMetrics {
    const wasm = loadWasm();
    const sim = new wasm.Simulation(JSON.stringify({ scheme }), new Uint8Array(shippedTrace(TRACE)), TRACE, null);
    while (!sim.done()) sim.step(4096);
    const m = JSON.parse(sim.metricsJson()) as RunMetrics;
    sim.free();
    return m;
  }
  const runs = ['page', 'dftl', 'block'].map(engineRun);
  const keys = new Map(runs.map((m, i) => [m.scheme, { name: m.scheme, color: `#00000${i}` }]));

  it("has the fields the charts read, with the engine's numbers", () => {
    for (const m of runs) {
      expect(m.series!.length).toBeGreaterThan(1);
      expect(m.series!.length).toBeLessThanOrEqual(200);
      expect(m.series!.at(-1)!.requests_done).toBe(m.requests_done);
      expect(Math.max(...m.series!.map((p) => p.max_response_us))).toBe(m.response_us.max);
      expect(m.response_cdf_us!.at(-1)).toEqual({ p: 1, us: m.response_us.max });
      expect(m.response_us.p90! <= m.response_us.p99 && m.response_us.p99 <= m.response_us.p999!).toBe(true);
    }
    expect(runs[1].series!.every((p) => p.ram!.buffer_bytes === 0 && p.ram!.mapping_bytes <= runs[1].ram_bytes!)).toBe(
      true,
    );
    expect(runs[2].series!.every((p) => p.ram === undefined)).toBe(true);
  });

  it('every chart draws exactly the numbers of the metrics objects', () => {
    for (const c of CHARTS) {
      if (c.kind === 'panels') {
        const d = c.data(runs, keys);
        for (const p of d.panels)
          for (const g of p.groups) for (const b of g.bars) expect(b.value).toBeTypeOf('number');
        expect(d.schemes.map((s) => s.color)).toEqual(['#000000', '#000001', '#000002']);
      } else {
        const d = c.data(runs, keys);
        for (const l of d.lines)
          for (const p of l.points) expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
      }
    }
    const r = responseOverTrace(runs, keys);
    expect(r.lines.map((l) => l.points.length)).toEqual(runs.map((m) => m.series!.length));
    expect(
      flashByPurpose(runs, keys)
        .panels.find((p) => p.id === 'erases')!
        .groups.reduce((s, g) => s + (g.bars.find((b) => b.scheme === 'dftl')?.value ?? 0), 0),
    ).toBe(runs[1].flash.erases);
    expect(ramOverTrace(runs, keys).lines.map((l) => l.scheme)).toEqual(['page', 'dftl']);
  });
});
