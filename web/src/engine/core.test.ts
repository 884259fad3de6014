// Drives the real wasm build through SimCore in Node: the same code path as the worker.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

/** Names the frame's counters with the list the engine reported at load. */
function named(names: string[], counters: Float64Array): Record<string, number> {
  return Object.fromEntries(names.map((n, i) => [n, counters[i]]));
}

function load(core: SimCore, configJson = '{"scheme":"page"}') {
  const [reply] = core.handle({ type: 'load', id: 1, configJson, trace: shippedTrace(TRACE), traceName: TRACE });
  return reply;
}

describe('engine in wasm (Node)', () => {
  it('loads the default experiment and steps it to the end with no integrity errors', () => {
    const wasm = loadWasm();
    const core = new SimCore(wasm);
    const loaded = load(core);
    expect(loaded.type).toBe('loaded');
    if (loaded.type !== 'loaded') return;
    expect(loaded.info.total).toBe(1000);
    expect(loaded.info.blocks * loaded.info.pagesPerBlock).toBe(loaded.view.frame.pageStates.length);
    expect(loaded.info.schemes.map((s) => s.id)).toContain('page');
    expect(loaded.info.spec.caches).toEqual([]);
    expect(loaded.info.spec.stops).not.toContain('miss');

    const [first] = core.handle({ type: 'step', id: 2, requests: 10, budgetMs: Infinity });
    expect(first.type).toBe('view');
    if (first.type !== 'view') return;
    expect(first.view.stepped).toBe(10);
    expect(first.view.pos).toEqual({ request: 10, op: 0, ops: 0 });
    expect(first.view.recent.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(first.view.current?.index).toBe(9);
    expect(first.view.report?.index).toBe(9);

    const [last] = core.handle({ type: 'step', id: 3, requests: 5000, budgetMs: Infinity });
    if (last.type !== 'view') throw new Error(JSON.stringify(last));
    expect(last.view.done).toBe(true);
    expect(last.view.stepped).toBe(990);
    const c = named(loaded.info.counterNames, last.view.frame.counters);
    expect(c.requests_done).toBe(1000);
    expect(c.reads + c.writes).toBe(1000);
    expect(c.gc_runs).toBeGreaterThan(0);
    expect(c.integrity_errors).toBe(0);
    expect(c.waf).toBeGreaterThanOrEqual(1);

    const [m] = core.handle({ type: 'metrics', id: 4 });
    if (m.type !== 'metrics') throw new Error(JSON.stringify(m));
    const metrics = JSON.parse(m.json);
    expect(metrics.scheme).toBe('page');
    expect(metrics.requests.reads + metrics.requests.writes).toBe(1000);
    expect(metrics.gc.runs).toBe(c.gc_runs);
  });

  it('gives the same state hash for the same steps, and a different one after more', () => {
    const wasm = loadWasm();
    const a = new SimCore(wasm);
    const b = new SimCore(wasm);
    load(a);
    load(b);
    const ha = a.handle({ type: 'step', id: 2, requests: 300, budgetMs: Infinity })[0];
    const hb1 = b.handle({ type: 'step', id: 2, requests: 100, budgetMs: Infinity })[0];
    const hb2 = b.handle({ type: 'step', id: 3, requests: 200, budgetMs: Infinity })[0];
    if (ha.type !== 'view' || hb1.type !== 'view' || hb2.type !== 'view') throw new Error('expected views');
    expect(ha.view.frame.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(hb2.view.frame.hash).toBe(ha.view.frame.hash);
    expect(hb1.view.frame.hash).not.toBe(ha.view.frame.hash);
  });

  it('reports bad traces and impossible configs as errors, and keeps working', () => {
    const wasm = loadWasm();
    const core = new SimCore(wasm);
    const bad = new TextEncoder().encode('128166385295514663,hm,0,Wrote,0,512,1\n');
    const [r1] = core.handle({
      type: 'load',
      id: 1,
      configJson: '{}',
      trace: bad.buffer,
      traceName: 'bad.csv',
      format: 'msr',
    });
    expect(r1).toEqual({
      type: 'error',
      id: 1,
      message: expect.stringContaining("bad.csv:1:25: expected Type 'Read' or 'Write', found 'Wrote'"),
    });
    const [r2] = core.handle({
      type: 'load',
      id: 2,
      configJson: '{"device":{"blocks":1}}',
      trace: shippedTrace(TRACE),
      traceName: TRACE,
    });
    expect(r2.type === 'error' && r2.message).toContain('device.blocks');
    const [r3] = core.handle({ type: 'step', id: 3, requests: 1, budgetMs: 1 });
    expect(r3.type === 'error' && r3.message).toContain('no simulation loaded');
    expect(load(core).type).toBe('loaded');
  });
  it("answers what a block under the pointer does: rftl names its role and its logical block's GC state, page says nothing", () => {
    const core = new SimCore(loadWasm());
    load(core, '{"scheme":"rftl"}');
    const [jump] = core.handle({ type: 'jump', id: 2, what: 'gc' });
    if (jump.type !== 'view') throw new Error(JSON.stringify(jump));
    const start = jump.view.current!.ops[jump.view.pos.op - 1] as { type: string; victim: number };
    expect(start.type).toBe('gc_start');
    // The block is a field of the one inspection question (InspectQuery.block).
    const [r] = core.handle({ type: 'inspect', id: 3, query: { block: start.victim, limit: 0 } });
    if (r.type !== 'inspection') throw new Error(JSON.stringify(r));
    expect(r.inspection.block?.block).toBe(start.victim);
    expect(r.inspection.block?.role).toBe('primary');
    expect(r.inspection.block?.gc).toMatch(/^collecting the primary into the replacement \(Fig 4\.5 a\)/);

    load(core);
    const [none] = core.handle({ type: 'inspect', id: 4, query: { block: 0, limit: 0 } });
    if (none.type !== 'inspection') throw new Error(JSON.stringify(none));
    expect(none.inspection.block).toBeUndefined();
  });
});
