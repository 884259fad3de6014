// Event replay over a frame must give exactly the engine's next frame: checked with the
// real wasm build on a real trace, through many garbage collections.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../../test/wasmNode';
import { groupByRequest, type EngineEvent } from '../events';
import { applyEvent, composeAt, copyGrid } from './grid';
import { program } from '../../test/events';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

describe('event replay', () => {
  it('replaying each request over the frame before it gives the frame after it', () => {
    const wasm = loadWasm();
    // A tiny device so that GC runs often within the first requests.
    const config = { scheme: 'page', record_events: true, device: { blocks: 16, pages_per_block: 8 } };
    const sim = new wasm.Simulation(JSON.stringify(config), new Uint8Array(shippedTrace(TRACE)), TRACE);
    let gcs = 0;
    for (let r = 0; r < 600 && !sim.done(); r++) {
      const before = sim.frame();
      sim.step(1);
      const after = sim.frame();
      const [req] = groupByRequest(JSON.parse(sim.takeEventsJson()) as EngineEvent[]);
      expect(req.index).toBe(r);
      const s = copyGrid(before);
      for (const e of req.ops) applyEvent(s, e, 8, after);
      gcs += req.ops.filter((e) => e.type === 'gc_start').length;
      expect(s.pageStates).toEqual(after.pageStates);
      expect(s.validCounts).toEqual(after.validCounts);
      expect(s.eraseCounts).toEqual(after.eraseCounts);
      // Roles are exact at the boundary: composing all ops returns the frame after.
      expect(composeAt(before, after, req.ops, req.ops.length, 8).blockRoles).toEqual(after.blockRoles);
    }
    expect(gcs).toBeGreaterThan(20);
    sim.free();
  });

  it('composes part-way states without touching its inputs', () => {
    const before = {
      pageStates: new Uint8Array([1, 1, 0, 0]),
      blockRoles: new Uint8Array([1, 0]),
      validCounts: new Uint32Array([2, 0]),
      eraseCounts: new Uint32Array([3, 0]),
    };
    const after = {
      pageStates: new Uint8Array([0, 0, 1, 0]),
      blockRoles: new Uint8Array([0, 7]),
      validCounts: new Uint32Array([0, 1]),
      eraseCounts: new Uint32Array([4, 0]),
    };
    const ops: EngineEvent[] = [
      { type: 'gc_start', victim: 0, valid: 1 },
      { type: 'flash_read', ppn: 0, block: 0, page: 0, purpose: 'gc', key: 9, ns: 25_000 },
      program({ ppn: 2, block: 1, page: 0, purpose: 'gc', key: 9, version: 4 }),
      { type: 'invalidate', ppn: 0 },
      { type: 'invalidate', ppn: 1 },
      { type: 'erase', block: 0, purpose: 'gc', ns: 700_000 },
      { type: 'gc_end', victim: 0 },
    ];
    const mid = composeAt(before, after, ops, 4, 2);
    expect([...mid.pageStates]).toEqual([2, 1, 1, 0]);
    expect([...mid.validCounts]).toEqual([1, 1]);
    expect([...mid.blockRoles]).toEqual([1, 7]);
    const end = composeAt(before, after, ops, 6, 2);
    expect([...end.pageStates]).toEqual([0, 0, 1, 0]);
    expect([...end.eraseCounts]).toEqual([4, 0]);
    expect([...before.pageStates]).toEqual([1, 1, 0, 0]);
  });
});
