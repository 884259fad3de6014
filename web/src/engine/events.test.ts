// The worker reads event batches without a full JSON.parse; these tests hold the fast
// paths to the engine's real output.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { groupByRequest, parseTail, scanPrograms, type EngineEvent } from './events';
import { PageTable, isCurrent } from './pageTable';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';
const CONFIG = JSON.stringify({ scheme: 'page', record_events: true, device: { blocks: 16, pages_per_block: 8 } });

function batch(requests: number) {
  const wasm = loadWasm();
  const sim = new wasm.Simulation(CONFIG, new Uint8Array(shippedTrace(TRACE)), TRACE);
  sim.step(requests);
  const json = sim.takeEventsJson();
  return { sim, json, events: JSON.parse(json) as EngineEvent[] };
}

describe('event batches', () => {
  it('scans every program and erase in order, as JSON.parse reads them', () => {
    const { sim, json, events } = batch(300);
    const seen: string[] = [];
    scanPrograms(
      json,
      (ppn, block, kind, key, version) => seen.push(`p ${ppn} ${block} ${kind} ${key} ${version}`),
      (block) => seen.push(`e ${block}`),
    );
    const expected = events.flatMap((e) =>
      e.type === 'flash_program' ? [`p ${e.ppn} ${e.block} ${e.kind} ${e.key} ${e.version}`] : e.type === 'erase' ? [`e ${e.block}`] : [],
    );
    expect(expected.filter((s) => s.startsWith('e')).length).toBeGreaterThan(5);
    expect(seen).toEqual(expected);
    sim.free();
  });

  it('parses only the last requests of a batch', () => {
    const { sim, json, events } = batch(50);
    const all = groupByRequest(events);
    expect(all.map((r) => r.index)).toEqual([...Array(50).keys()]);
    expect(parseTail(json, 3)).toEqual(all.slice(-3));
    expect(parseTail(json, 500)).toEqual(all);
    expect(parseTail('[]', 3)).toEqual([]);
    sim.free();
  });

  it('knows what every programmed page holds, across erases', () => {
    const { sim, json } = batch(400);
    const f = sim.frame();
    const table = new PageTable(f.pageStates.length, 8);
    table.ingest(json, f.eraseCounts);
    // Every valid page's recorded key is unique (the page map is a bijection onto valid pages).
    const keys = new Set<number>();
    let known = 0;
    for (let p = 0; p < f.pageStates.length; p++) {
      if (f.pageStates[p] !== 1) continue;
      const info = table.info(p);
      if (!isCurrent(info, f.pageStates[p], f.eraseCounts[Math.floor(p / 8)])) continue;
      known++;
      expect(keys.has(info.key)).toBe(false);
      keys.add(info.key);
    }
    // Pre-filled pages were written before recording started; the rest are known.
    expect(known).toBeGreaterThan(20);
    sim.free();
  });
});
