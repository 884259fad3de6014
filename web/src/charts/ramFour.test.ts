import { describe, expect, it } from 'vitest';
import type { RunMetrics } from '../engine/metrics';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { ramOverTrace } from './data';

/** The RAM split over time for the four RAM-managing schemes side by side. */
describe('RAM over the trace for treeftl, tree-pl, aps and jtl (real runs)', () => {
  const TRACE = 'msr-cambridge_hm_0_first1000.csv';
  const SCHEMES = ['treeftl', 'tree-pl', 'aps', 'jtl'];
  function engineRun(scheme: string): RunMetrics {
    const wasm = loadWasm();
    const sim = new wasm.Simulation(JSON.stringify({ scheme }), new Uint8Array(shippedTrace(TRACE)), TRACE, null);
    while (!sim.done()) sim.step(4096);
    const m = JSON.parse(sim.metricsJson()) as RunMetrics;
    sim.free();
    return m;
  }
  const runs = SCHEMES.map(engineRun);
  const keys = new Map(runs.map((m, i) => [m.scheme, { name: m.scheme, color: `#00000${i}` }]));

  it("draws each run's series exactly: mapping (solid) and, where it buffered, buffer (dashed) KiB", () => {
    const d = ramOverTrace(runs, keys);
    for (const m of runs) {
      expect(m.series!.length).toBeGreaterThan(1);
      expect(m.series!.every((p) => p.ram !== undefined)).toBe(true);
      const mine = d.lines.filter((l) => l.scheme === m.scheme);
      const mapping = mine.find((l) => l.style === 'mapping')!;
      expect(mapping.points).toEqual(m.series!.map((p) => ({ x: p.requests_done, y: p.ram!.mapping_bytes / 1024 })));
      const buffered = m.series!.some((p) => p.ram!.buffer_bytes > 0);
      const buffer = mine.find((l) => l.style === 'buffer');
      if (buffered)
        expect(buffer!.points).toEqual(m.series!.map((p) => ({ x: p.requests_done, y: p.ram!.buffer_bytes / 1024 })));
      else expect(buffer).toBeUndefined();
    }
    expect([...new Set(d.lines.map((l) => l.scheme))]).toEqual(SCHEMES);
    // The tree schemes buffer data pages in RAM on this write-heavy trace.
    expect(d.lines.filter((l) => l.style === 'buffer').map((l) => l.scheme)).toContain('treeftl');
  });
});
