import { describe, expect, it } from 'vitest';
import type { RunMetrics } from '../../engine/metrics';
import { loadWasm, shippedTrace } from '../../test/wasmNode';
import { ramSplitSoFar } from './ramSplit';

const KEY = { id: 'treeftl', name: 'TreeFTL', color: '#4e79a7' };

describe('the RAM split of a real run follows the timeline', () => {
  const TRACE = 'msr-cambridge_hm_0_first1000.csv';
  it('after a step back the series is the one served up to there, not the later one', () => {
    const wasm = loadWasm();
    const metrics = (s: InstanceType<typeof wasm.Simulation>) => JSON.parse(s.metricsJson()) as RunMetrics;
    const sim = new wasm.Simulation(
      JSON.stringify({ scheme: 'treeftl' }),
      new Uint8Array(shippedTrace(TRACE)),
      TRACE,
      null,
    );
    sim.step(600);
    const at600 = metrics(sim);
    sim.step(400);
    expect(metrics(sim).series!.length).toBeGreaterThan(at600.series!.length);
    sim.seek(600);
    const back = metrics(sim);
    expect(back.requests_done).toBe(600);
    expect(back.series).toEqual(at600.series);
    const d = ramSplitSoFar(back.series, back.requests_done!, KEY)!;
    expect(d.lines[0].points.map((p) => p.y * 1024)).toEqual(at600.series!.map((p) => p.ram!.mapping_bytes));
    expect(d.lines[1].points.map((p) => p.y * 1024)).toEqual(at600.series!.map((p) => p.ram!.buffer_bytes));
    expect(d.lines[0].points.at(-1)!.x).toBeLessThanOrEqual(600);
    sim.free();
  });
});
