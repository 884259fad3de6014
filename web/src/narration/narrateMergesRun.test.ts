// The merge narration on real engine runs (the wasm build in Node). Every merge
// line names its kind, and the copies and erases it tells, summed by kind over the run,
// are the engine's own merge metrics: the narration's per-merge accounting is the engine's.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { groupByRequest, type EngineEvent } from '../engine/events';
import { narrate } from './narrate';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';
type Counts = { switch: number; partial: number; full: number };

function run(scheme: string) {
  const wasm = loadWasm();
  const sim = new wasm.Simulation(
    JSON.stringify({ scheme, record_events: true }),
    new Uint8Array(shippedTrace(TRACE)),
    TRACE,
  );
  sim.takeEventsJson(); // the pre-fill's events
  const log = () =>
    JSON.parse(sim.metricsJson()).gc.log_blocks as { merge_copies: Counts; merge_erases: Counts } | null;
  const before = log();
  const told = { copies: { switch: 0, partial: 0, full: 0 }, erases: { switch: 0, partial: 0, full: 0 } };
  const kinds = new Set<string>();
  while (!sim.done()) {
    sim.step(50);
    for (const t of groupByRequest(JSON.parse(sim.takeEventsJson()) as EngineEvent[])) {
      const lines = narrate(t, 16);
      t.ops.forEach((e, i) => {
        if (e.type !== 'merge') return;
        const text = lines.find((l) => l.first === i)!.text;
        const name = e.cause === 'fold' ? 'Fold (NFTL)' : `${e.kind.charAt(0).toUpperCase()}${e.kind.slice(1)} merge`;
        expect(text.startsWith(`${name} of logical block ${e.lbn}: `)).toBe(true);
        const m = / — (\d+) page cop(?:y|ies), (\d+) erases?, /.exec(text)!;
        told.copies[e.kind] += Number(m[1]);
        told.erases[e.kind] += Number(m[2]);
        kinds.add(`${e.kind}/${e.cause}`);
      });
    }
  }
  const after = log()!;
  sim.free();
  const delta = (k: 'merge_copies' | 'merge_erases') => {
    const b = before?.[k] ?? { switch: 0, partial: 0, full: 0 };
    return { switch: after[k].switch - b.switch, partial: after[k].partial - b.partial, full: after[k].full - b.full };
  };
  return { told, copies: delta('merge_copies'), erases: delta('merge_erases'), kinds };
}

describe('merge narration on real runs', () => {
  for (const scheme of ['bast', 'fast', 'nftl']) {
    it(`tells each merge's kind, and its copies and erases add up to the engine's (${scheme})`, () => {
      const r = run(scheme);
      expect(r.kinds.size).toBeGreaterThan(0);
      expect(r.told.copies).toEqual(r.copies);
      expect(r.told.erases).toEqual(r.erases);
    }, 60_000);
  }
});
