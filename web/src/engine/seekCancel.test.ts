// A forward seek stopped by a cancel (Esc) must stand where the engine stopped, not where it
// was asked to go: the position is only true if the engine really served that many requests.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import type { FromWorker, ToWorker, ViewData } from './protocol';

const TRACE = 'mqsim_wsrch-small_websearch.trace';

function load(core: SimCore) {
  const [r] = core.handle({
    type: 'load',
    id: 1,
    configJson: '{"scheme":"page"}',
    trace: shippedTrace(TRACE),
    traceName: TRACE,
  });
  if (r.type !== 'loaded') throw new Error(JSON.stringify(r));
  return r.info;
}

function viewOf(r: FromWorker): ViewData {
  if (r.type !== 'view') throw new Error(JSON.stringify(r));
  return r.view;
}

describe('a cancelled forward seek into a request', () => {
  it('lands where the engine stopped, at a request boundary', () => {
    const core = new SimCore(loadWasm());
    const info = load(core);
    const target = info.total - 10;
    const work = core.run({ type: 'seek', id: 2, request: target, op: 1 } as ToWorker);
    // The first slice is served; the cancel arrives while the worker yields to its event loop.
    expect(work.next().done).toBe(false);
    core.cancel();
    let r = work.next();
    while (!r.done) r = work.next();
    const v = viewOf(r.value[0]);
    expect(v.pos.op).toBe(0);
    expect(v.pos.request).toBeGreaterThan(0);
    expect(v.pos.request).toBeLessThan(target);

    // The view is the engine's real state at that request: the same hash as stepping there.
    const ref = new SimCore(loadWasm());
    load(ref);
    const at = viewOf(ref.handle({ type: 'step', id: 2, requests: v.pos.request, budgetMs: Infinity, hash: true })[0]);
    expect(v.frame.hash).toBe(at.frame.hash);
    expect(v.current?.index).toBe(v.pos.request - 1);

    // And the timeline goes on from there: one more request matches the reference too.
    const next = viewOf(core.handle({ type: 'step', id: 3, requests: 1, budgetMs: Infinity, hash: true })[0]);
    const refNext = viewOf(ref.handle({ type: 'step', id: 3, requests: 1, budgetMs: Infinity, hash: true })[0]);
    expect(next.pos.request).toBe(v.pos.request + 1);
    expect(next.frame.hash).toBe(refNext.frame.hash);
  });
});
