// The timeline model in the worker, on the real wasm build: operation steps forwards and
// backwards, request steps back, seeks and jumps all land on the engine's exact states.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import type { FromWorker, ToWorker, ViewData } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

function start(config: object = { scheme: 'page' }) {
  const core = new SimCore(loadWasm());
  let id = 1;
  const send = (m: Body<ToWorker>): FromWorker => core.handle({ ...m, id: id++ } as ToWorker)[0];
  const view = (m: Body<ToWorker>): ViewData => {
    const r = send(m);
    if (r.type !== 'view') throw new Error(JSON.stringify(r));
    return r.view;
  };
  const loaded = send({
    type: 'load',
    configJson: JSON.stringify(config),
    trace: shippedTrace(TRACE),
    traceName: TRACE,
  });
  if (loaded.type !== 'loaded') throw new Error(JSON.stringify(loaded));
  return { core, send, view, info: loaded.info };
}

describe('session timeline', () => {
  it('steps operation by operation through a request to the same state as a request step', () => {
    const a = start();
    const b = start();
    a.view({ type: 'step', requests: 40, budgetMs: Infinity });
    const target = b.view({ type: 'step', requests: 41, budgetMs: Infinity });
    let v = a.view({ type: 'stepOp', delta: 1 });
    const ops = v.pos.ops;
    if (ops > 1) {
      expect(v.pos).toEqual({ request: 40, op: 1, ops });
      expect(v.current?.index).toBe(40);
      for (let k = 2; k <= ops; k++) v = a.view({ type: 'stepOp', delta: 1 });
    }
    expect(v.pos).toEqual({ request: 41, op: 0, ops: 0 });
    expect(v.frame.hash).toBe(target.frame.hash);
    expect(v.frame.pageStates).toEqual(target.frame.pageStates);
    expect(v.current?.index).toBe(40);
  });

  it('steps back by operations and by requests to identical state hashes', () => {
    const s = start();
    const at100 = s.view({ type: 'step', requests: 100, budgetMs: Infinity });
    const at101 = s.view({ type: 'step', requests: 1, budgetMs: Infinity });
    // Back one op from a boundary opens the previous request at its last op.
    let v = s.view({ type: 'stepOp', delta: -1 });
    expect(v.pos.request).toBe(100);
    if (v.pos.op > 0) expect(v.pos.op).toBe(v.pos.ops - 1);
    while (v.pos.op > 0) v = s.view({ type: 'stepOp', delta: -1 });
    expect(v.pos).toEqual({ request: 100, op: 0, ops: 0 });
    expect(v.frame.hash).toBe(at100.frame.hash);
    expect(v.current?.index).toBe(99);
    v = s.view({ type: 'step', requests: 1, budgetMs: Infinity });
    expect(v.frame.hash).toBe(at101.frame.hash);
    s.view({ type: 'step', requests: 500, budgetMs: Infinity });
    v = s.view({ type: 'back', requests: 501 });
    expect(v.pos.request).toBe(100);
    expect(v.frame.hash).toBe(at100.frame.hash);
    expect(v.report?.index).toBe(99);
  });

  it('jumps to the next GC, standing on its start with the victim named', () => {
    const s = start();
    const v = s.view({ type: 'jump', what: 'gc' });
    expect(v.found).toBe(true);
    const ops = v.current!.ops;
    const last = ops[v.pos.op - 1];
    expect(last.type).toBe('gc_start');
    const again = s.view({ type: 'jump', what: 'gc' });
    expect(again.found).toBe(true);
    expect(again.pos.request * 1000 + again.pos.op).toBeGreaterThan(v.pos.request * 1000 + v.pos.op);
  });

  it('finds no miss in a scheme without a mapping cache and stays put', () => {
    const s = start();
    const at = s.view({ type: 'step', requests: 10, budgetMs: Infinity });
    const v = s.view({ type: 'jump', what: 'miss' });
    expect(v.found).toBe(false);
    expect(v.pos).toEqual(at.pos);
    expect(v.frame.hash).toBe(at.frame.hash);
  });

  it('seeks anywhere, to a request boundary or into a request', () => {
    const s = start();
    const ref = start();
    const at700 = ref.view({ type: 'step', requests: 700, budgetMs: Infinity });
    expect(s.view({ type: 'seek', request: 700 }).frame.hash).toBe(at700.frame.hash);
    const v = s.view({ type: 'seek', request: 300, op: 1 });
    expect(v.pos.request).toBe(v.pos.op > 0 ? 300 : 301);
    expect(s.view({ type: 'seek', request: 700 }).frame.hash).toBe(at700.frame.hash);
    expect(s.view({ type: 'seek', request: 0 }).current).toBeNull();
  });

  it('reports response times in bins over the whole trace', () => {
    const s = start();
    s.view({ type: 'step', requests: 1000, budgetMs: Infinity });
    const r = s.send({ type: 'responses' });
    if (r.type !== 'responses') throw new Error('expected responses');
    expect(r.series.served).toBe(1000);
    expect(r.series.max.length).toBe(Math.ceil(1000 / r.series.binSize));
    expect(Math.max(...r.series.max)).toBeGreaterThan(0);
  });
});
