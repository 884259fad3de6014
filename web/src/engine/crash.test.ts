// A wasm trap leaves the instance unusable (Rust state half-updated), so SimCore answers it
// with a fatal error and refuses everything after; the client then replaces the worker.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { viewReply } from '../test/messages';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { EngineError, SimClient } from './client';
import { SimCore, type WasmApi } from './core';
import type { FromWorker, ToWorker } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

/** The real wasm API, with a Simulation whose `step` traps while `state.trap` is set. */
function trappingApi() {
  const real = loadWasm();
  // `failAfter`: step calls that still succeed before each later one throws `failWith`, an
  // ordinary engine error (by default the heap guard's "out of memory"); `null`: never.
  // `seekStopsAt`: a seek moves the engine there, then throws the heap guard's error.
  const state = {
    trap: false,
    calls: 0,
    failAfter: null as number | null,
    failWith: 'out of memory: the engine holds 3073 MiB',
    seekStopsAt: null as number | null,
  };
  function Simulation(...args: ConstructorParameters<typeof real.Simulation>) {
    const sim = new real.Simulation(...args);
    return new Proxy(sim, {
      get(target, key) {
        const v = Reflect.get(target, key);
        if (typeof v !== 'function') return v;
        return (...a: unknown[]) => {
          if (state.trap && key === 'step') throw new WebAssembly.RuntimeError('unreachable');
          if (key === 'step' && state.failAfter !== null) {
            if (state.failAfter === 0) throw new Error(state.failWith);
            state.failAfter--;
          }
          if (key === 'seek' && state.seekStopsAt !== null) {
            target.seek(state.seekStopsAt);
            throw new Error('out of memory: the engine holds 3073 MiB');
          }
          state.calls++;
          return v.apply(target, a);
        };
      },
    });
  }
  Simulation.fromLoader = real.Simulation.fromLoader;
  return { api: { ...real, Simulation } as unknown as WasmApi, state };
}

/** A SimCore over `trappingApi` with the shipped trace loaded under `page`. */
function loadedCore() {
  const { api, state } = trappingApi();
  const core = new SimCore(api);
  const [loaded] = core.handle({
    type: 'load',
    id: 1,
    configJson: '{"scheme":"page"}',
    trace: shippedTrace(TRACE),
    traceName: TRACE,
  });
  expect(loaded.type).toBe('loaded');
  return { core, state };
}

describe('a wasm trap in SimCore', () => {
  it('is answered as fatal, and nothing runs on the instance afterwards', () => {
    const { core, state } = loadedCore();
    state.trap = true;
    const [r] = core.handle({ type: 'step', id: 2, requests: 1, budgetMs: Infinity });
    expect(r).toMatchObject({
      type: 'error',
      id: 2,
      fatal: true,
      message: expect.stringMatching(/crashed.*unreachable/),
    });
    state.trap = false;
    const calls = state.calls;
    const [after] = core.handle({ type: 'frame', id: 3 });
    expect(after).toMatchObject({ type: 'error', id: 3, fatal: true });
    expect(state.calls).toBe(calls);
  });

  it('keeps what a step served before an engine error part-way, and reports the error next', () => {
    const { core, state } = loadedCore();
    // Two chunks of the step succeed, the third fails.
    state.failAfter = 2;
    const [r] = core.handle({ type: 'step', id: 2, requests: 500, budgetMs: Infinity });
    if (r.type !== 'view') throw new Error(JSON.stringify(r));
    expect(r.view.pos.request).toBeGreaterThan(0);
    expect(r.view.pos.request).toBeLessThan(500);
    const [next] = core.handle({ type: 'step', id: 3, requests: 1, budgetMs: Infinity });
    expect(next).toMatchObject({ type: 'error', id: 3, message: expect.stringMatching(/out of memory/) });
    expect(next.type === 'error' && next.fatal).toBeFalsy();
  });

  it('reports any other engine error part-way through a step at once', () => {
    const { core, state } = loadedCore();
    state.failAfter = 2;
    state.failWith = 'invariant broken: page 7 is mapped twice';
    const [r] = core.handle({ type: 'step', id: 2, requests: 500, budgetMs: Infinity });
    expect(r).toMatchObject({ type: 'error', id: 2, message: expect.stringMatching(/mapped twice/) });
  });

  it('after a move the engine stops part-way, the session stands where the engine is', () => {
    const { core, state } = loadedCore();
    const [r] = core.handle({ type: 'step', id: 2, requests: 500, budgetMs: Infinity });
    expect(r.type).toBe('view');
    // A step back whose seek ends at request 300 with an error, then an operation-level
    // move forward from request 300 whose seek does the same.
    state.seekStopsAt = 300;
    const [back] = core.handle({ type: 'back', id: 3, requests: 1 });
    expect(back).toMatchObject({ type: 'error', message: expect.stringMatching(/out of memory/) });
    state.seekStopsAt = null;
    const [here] = core.handle({ type: 'frame', id: 4 });
    if (here.type !== 'view') throw new Error(JSON.stringify(here));
    expect(here.view.pos).toMatchObject({ request: 300, op: 0 });
    // The frame is the engine's at 300: the state hash a fresh seek there gives.
    const [away] = core.handle({ type: 'seek', id: 5, request: 10, op: 0 });
    const [again] = core.handle({ type: 'seek', id: 6, request: 300, op: 0 });
    const [fresh] = core.handle({ type: 'frame', id: 7 });
    if (away.type !== 'view' || again.type !== 'view' || fresh.type !== 'view') throw new Error('not views');
    expect(fresh.view.pos).toMatchObject({ request: 300, op: 0 });
    expect(here.view.frame.hash).toBe(fresh.view.frame.hash);

    // Part-way into a request, a step back whose seek stops early: the same.
    const [inside] = core.handle({ type: 'seek', id: 8, request: 200, op: 1 });
    if (inside.type !== 'view') throw new Error(JSON.stringify(inside));
    expect(inside.view.pos).toMatchObject({ request: 200, op: 1 });
    state.seekStopsAt = 150;
    const [back2] = core.handle({ type: 'back', id: 10, requests: 3 });
    expect(back2.type).toBe('error');
    state.seekStopsAt = null;
    const [there] = core.handle({ type: 'frame', id: 11 });
    if (there.type !== 'view') throw new Error(JSON.stringify(there));
    expect(there.view.pos).toMatchObject({ request: 150, op: 0, ops: 0 });
  });

  it('leaves ordinary engine errors non-fatal', () => {
    const core = new SimCore(loadWasm());
    const [r] = core.handle({ type: 'step', id: 1, requests: 1, budgetMs: 1 });
    expect(r.type === 'error' && r.fatal).toBeFalsy();
  });
});

/** A stand-in for the browser's Worker: records messages, replies on demand. */
class FakeWorker {
  static made: FakeWorker[] = [];
  posted: ToWorker[] = [];
  terminated = false;
  onmessage: ((e: { data: FromWorker }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  constructor() {
    FakeWorker.made.push(this);
  }
  postMessage(m: ToWorker) {
    this.posted.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  reply(m: FromWorker) {
    this.onmessage?.({ data: m });
  }
}

describe('SimClient after a fatal error', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeWorker.made = [];
  });

  it('fails every pending call, terminates the worker and starts a new one for the next call', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const client = new SimClient();
    const a = client.request({ type: 'step', requests: 1, budgetMs: 1 });
    const b = client.request({ type: 'responses' });
    const w = FakeWorker.made[0];
    w.reply({ type: 'error', id: w.posted[0].id, message: 'The engine crashed (unreachable).', fatal: true });
    await expect(a).rejects.toMatchObject({ fatal: true, message: 'The engine crashed (unreachable).' });
    await expect(b).rejects.toBeInstanceOf(EngineError);
    expect(w.terminated).toBe(true);

    const c = client.request<'view'>({ type: 'frame' });
    expect(FakeWorker.made).toHaveLength(2);
    const w2 = FakeWorker.made[1];
    expect(w2.posted.map((m) => m.type)).toEqual(['frame']);
    w2.reply({ type: 'error', id: w2.posted[0].id, message: 'no simulation loaded' });
    await expect(c).rejects.toMatchObject({ fatal: false });
    expect(w2.terminated).toBe(false);
  });

  it('treats a change list against a frame the page does not hold as a crash (frameWire.ts)', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const client = new SimClient();
    const a = client.request<'view'>({ type: 'frame' });
    const w = FakeWorker.made[0];
    const pageDelta = { base: 3, pagesPerBlock: 2, blocks: Uint32Array.of(0), states: Uint8Array.of(1, 1) };
    const frame = {
      pageStates: new Uint8Array(0),
      blockRoles: new Uint8Array(1),
      validCounts: new Uint32Array(1),
      eraseCounts: new Uint32Array(1),
      counters: new Float64Array(0),
      hash: '',
      pageDelta,
    };
    w.reply(viewReply(frame, w.posted[0].id));
    await expect(a).rejects.toMatchObject({ fatal: true, message: expect.stringMatching(/against frame 3/) });
    expect(w.terminated).toBe(true);
    void client.request({ type: 'frame' }).catch(() => {});
    expect(FakeWorker.made).toHaveLength(2);
  });
});
