// The family's translation-page metrics in the counters view, from a real run.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../../test/wasmNode';
import type { Vocab } from '../../engine/protocol';
import { translationView, type TranslationMetrics } from './translation';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function metricsAfter(scheme: string, n: number) {
  const wasm = loadWasm();
  const sim = new wasm.Simulation(JSON.stringify({ scheme }), new Uint8Array(shippedTrace(TRACE)), TRACE);
  sim.step(n);
  const m = JSON.parse(sim.metricsJson());
  sim.free();
  return m as { translation_pages?: TranslationMetrics; mapping?: { misses: number } };
}

describe('translation-page counters', () => {
  const causes = (JSON.parse(loadWasm().vocabJson()) as Vocab).tpage_causes;

  it('show the causes with traffic in the engine’s order and words, with their totals', () => {
    const m = metricsAfter('hcftl', 1000);
    const v = translationView(m.translation_pages, causes)!;
    const order = causes.map((c) => c.id);
    expect(v.rows.map((r) => order.indexOf(r.id))).toEqual(
      [...v.rows.map((r) => order.indexOf(r.id))].sort((a, b) => a - b),
    );
    expect(v.rows.every((r) => r.reads + r.writes > 0)).toBe(true);
    // HCFTL reads DTPs to find missed entries and writes DTPs as it packs the Ghost-CMT.
    expect(v.rows.find((r) => r.id === 'dtp_load')).toMatchObject({ label: 'DTP load' });
    expect(v.rows.find((r) => r.id === 'dtp_write')?.writes).toBeGreaterThan(0);
    const tp = m.translation_pages!;
    expect(v.reads).toBe(Object.values(tp.reads).reduce((a, b) => a + b, 0));
    expect(v.writes).toBe(v.rows.reduce((a, r) => a + r.writes, 0));
    // Extra reads per miss: the reads spent finding missed entries over the misses.
    expect(v.extraReadsPerMiss).toBeCloseTo((tp.reads.miss + tp.reads.dtp_load) / m.mapping!.misses, 9);
    expect(v.bloomFalsePositives).toBe(tp.bloom_false_positives);
  });

  it('are absent for a scheme without a mapping cache, and keep causes the vocabulary lacks', () => {
    expect(metricsAfter('page', 50).translation_pages).toBeUndefined();
    expect(translationView(undefined, causes)).toBeUndefined();
    const v = translationView(
      { reads: { miss: 2, newer: 1 }, writes: {}, extra_reads_per_miss: 1.5, bloom_false_positives: 0 },
      causes,
    )!;
    expect(v.rows.map((r) => [r.label, r.reads])).toEqual([
      ['Cache miss', 2],
      ['newer', 1],
    ]);
  });
});
