// The binary event records against the engine's own JSON of the same run.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { EVENT_WORDS, EventCodec } from './eventCodec';
import { groupByRequest, type EngineEvent } from './events';
import { PageTable, isCurrent } from './pageTable';
import type { Vocab } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

/** Two identical runs of `requests` requests: one read as records, one as JSON. */
function run(scheme: string, requests: number) {
  const wasm = loadWasm();
  // Spare blocks for the log-block schemes (they need two beyond the logical blocks).
  const config = JSON.stringify({
    scheme,
    record_events: true,
    device: { blocks: 32, pages_per_block: 8, over_provisioning: 0.25 },
  });
  const make = () => {
    const sim = new wasm.Simulation(config, new Uint8Array(shippedTrace(TRACE)), TRACE);
    sim.step(requests);
    return sim;
  };
  const a = make();
  const b = make();
  const words = a.takeEvents();
  const json = JSON.parse(b.takeEventsJson()) as EngineEvent[];
  const frame = a.frame();
  a.free();
  b.free();
  return { words, json, frame, codec: new EventCodec(JSON.parse(wasm.vocabJson()) as Vocab) };
}

describe('event records', () => {
  it('use the engine’s record width', () => {
    expect((JSON.parse(loadWasm().vocabJson()) as Vocab).event_words).toBe(EVENT_WORDS);
  });

  for (const scheme of ['page', 'dftl', 'bast', 'fast', 'nftl']) {
    it(`decode to exactly the JSON events of the same run (${scheme}, with GC, cache and merge events)`, () => {
      const { words, json, codec } = run(scheme, 400);
      expect(words.length).toBe(json.length * EVENT_WORDS);
      expect(json.some((e) => e.type === 'erase')).toBe(true);
      if (scheme === 'dftl') expect(json.some((e) => e.type === 'cache_evict')).toBe(true);
      if (['bast', 'fast', 'nftl'].includes(scheme)) expect(json.some((e) => e.type === 'merge')).toBe(true);
      expect(codec.decodeAll(words)).toEqual(json);
    });
  }

  it('decode a merge naming its data, log and result blocks (none: 2^32-1) and why it had its kind', () => {
    // Records as events/record.rs writes them (its layout table): kind | cause << 8.
    const codec = new EventCodec(JSON.parse(loadWasm().vocabJson()) as Vocab);
    const words = new Uint32Array([12, 2 | (2 << 8), 4, 2, 6, 7, 4, 3, 12, 0, 3, 0xffffffff, 5, 5, 8, 1]);
    expect(codec.decodeAll(words)).toEqual([
      {
        type: 'merge',
        kind: 'full',
        lbn: 4,
        data_block: 2,
        log_block: 6,
        result_block: 7,
        cause: 'shared',
        written: 4,
        degree: 3,
      },
      {
        type: 'merge',
        kind: 'switch',
        lbn: 3,
        data_block: null,
        log_block: 5,
        result_block: 5,
        cause: 'in_order',
        written: 8,
        degree: 1,
      },
    ]);
  });

  it('decode only the last requests for narration', () => {
    const { words, json, codec } = run('page', 50);
    const all = groupByRequest(json);
    expect(codec.tail(words, 3)).toEqual(all.slice(-3));
    expect(codec.tail(words, 500)).toEqual(all);
    expect(codec.tail(new Uint32Array(0), 3)).toEqual([]);
  });

  it('feed the page table: every valid page it knows holds a distinct logical page', () => {
    const { words, frame, codec } = run('page', 400);
    const table = new PageTable(frame.pageStates.length, 8);
    table.ingest(words, frame.eraseCounts, codec);
    const keys = new Set<number>();
    let known = 0;
    for (let p = 0; p < frame.pageStates.length; p++) {
      if (frame.pageStates[p] !== 1) continue;
      const info = table.info(p);
      if (!isCurrent(info, frame.pageStates[p], frame.eraseCounts[Math.floor(p / 8)])) continue;
      known++;
      expect(keys.has(info.key)).toBe(false);
      keys.add(info.key);
    }
    expect(known).toBeGreaterThan(20);
  });

  it('fold the RAM and LRU time charged between events into the event before', () => {
    const wasm = loadWasm();
    const config = {
      scheme: 'treeftl',
      record_events: true,
      device: { latency: { ram_access_ns: 2000, cache_op_ns: 2000 } },
    };
    const make = () => {
      const sim = new wasm.Simulation(JSON.stringify(config), new Uint8Array(shippedTrace(TRACE)), TRACE);
      sim.step(300);
      return sim;
    };
    const a = make();
    const b = make();
    const words = a.takeEvents();
    const json = JSON.parse(b.takeEventsJson()) as EngineEvent[];
    const m = JSON.parse(a.metricsJson()) as { service_time_us: { ram: number; lru: number } };
    a.free();
    b.free();
    const codec = new EventCodec(JSON.parse(wasm.vocabJson()) as Vocab);
    const events = codec.decodeAll(words);
    // More records than events: the cost records, which are no events.
    expect(words.length).toBeGreaterThan(json.length * EVENT_WORDS);
    expect(events.map(({ ram_ns: _r, lru_ns: _l, ...e }) => e)).toEqual(json);
    const sum = (k: 'ram_ns' | 'lru_ns') => events.reduce((s, e) => s + (e[k] ?? 0), 0);
    expect(sum('ram_ns') / 1000).toBeCloseTo(m.service_time_us.ram, 3);
    expect(sum('lru_ns') / 1000).toBeCloseTo(m.service_time_us.lru, 3);
    expect(sum('lru_ns')).toBeGreaterThan(0);
    // Each charge is a whole number of 2 µs operations.
    expect(events.every((e) => (e.ram_ns ?? 0) % 2000 === 0 && (e.lru_ns ?? 0) % 2000 === 0)).toBe(true);
  });
});
