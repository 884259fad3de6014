// Frames sent as changes (frameWire.ts) must arrive as the very frames the engine made.
import { describe, expect, it } from 'vitest';
import { viewReply } from '../test/messages';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import { framePool } from './bufferPool';
import { applyPages, diffFrame, diffPages, FrameReceiver, FrameSender, type WireFrame } from './frameWire';
import type { FrameData, FromWorker, SimInfo, ToWorker, ViewData } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';
type Msg = ToWorker extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

/** Seeded page states 0-2 (free, valid, invalid). */
function states(n: number, seed: number): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length: n }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16) % 3);
}

describe('frame page changes', () => {
  for (const ppb of [64, 6]) {
    it(`lists exactly the blocks that changed and applying them gives the new states (${ppb} pages a block)`, () => {
      const blocks = 40;
      const before = states(blocks * ppb, 7);
      const after = before.slice();
      const touched = [0, 3, 17, 39];
      // One page in most, a whole block in one; block 9 is written with what it holds.
      for (const b of touched) after[b * ppb + (b % ppb)] = (after[b * ppb + (b % ppb)] + 1) % 3;
      after.fill(2, 17 * ppb, 18 * ppb);
      after[9 * ppb] = before[9 * ppb];
      const prev = before.slice();
      const d = diffPages(prev, after, ppb, 5);
      expect(Array.from(d.blocks)).toEqual(touched);
      expect(d.base).toBe(5);
      expect(d.states.length).toBe(touched.length * ppb);
      // The sender's copy is brought up to date on the way.
      expect(prev).toEqual(after);
      const applied = before.slice();
      applyPages(applied, d);
      expect(applied).toEqual(after);
      // Nothing changed: an empty list.
      expect(diffPages(after.slice(), after, ppb, 6).blocks.length).toBe(0);
    });
  }

  it('sends a real run as changes that rebuild every frame, for each simulation on its own', () => {
    const core = new SimCore(loadWasm());
    const sender = new FrameSender();
    const receiver = new FrameReceiver();
    let id = 1;
    const frameOf = (r: FromWorker) => (r.type === 'view' || r.type === 'loaded' ? r.view.frame : null)!;
    // What the worker would post and the page receive, through a structured clone.
    const roundTrip = (msg: Msg): { sent: FrameData; wirePages: number; wireBlockArrays: number; got: FromWorker } => {
      const [reply, transfer] = core.handle({ ...msg, id: id++ } as ToWorker);
      if (reply.type !== 'view' && reply.type !== 'loaded') throw new Error(JSON.stringify(reply));
      const f = reply.view.frame;
      const sent = {
        ...f,
        pageStates: f.pageStates.slice(),
        validCounts: f.validCounts.slice(),
        blockRoles: f.blockRoles.slice(),
        eraseCounts: f.eraseCounts.slice(),
      };
      const [wire, wireTransfer] = sender.send(reply, transfer, msg.sim ?? 0);
      const wf = frameOf(wire) as Partial<FrameData>;
      const wirePages = wf.pageStates?.length ?? 0;
      const wireBlockArrays =
        (wf.blockRoles?.length ?? 0) + (wf.validCounts?.length ?? 0) + (wf.eraseCounts?.length ?? 0);
      const got = receiver.receive(structuredClone(wire, { transfer: wireTransfer }), msg.sim ?? 0);
      // The page hands the applied buffers back, as the client does.
      const back = receiver.takeBack();
      for (const b of structuredClone(back, { transfer: back })) framePool.give(b);
      return { sent, wirePages, wireBlockArrays, got };
    };
    const ppb = 16;
    /** Blocks whose pages, role, valid count or erase count differ between two frames. */
    const differing = (a: FrameData, b: FrameData) =>
      Array.from({ length: a.blockRoles.length }, (_, k) => k).filter(
        (k) =>
          a.pageStates.subarray(k * ppb, (k + 1) * ppb).some((v, i) => v !== b.pageStates[k * ppb + i]) ||
          a.blockRoles[k] !== b.blockRoles[k] ||
          a.validCounts[k] !== b.validCounts[k] ||
          a.eraseCounts[k] !== b.eraseCounts[k],
      );
    const last = new Map<number, FrameData>();
    const config = JSON.stringify({ scheme: 'page', device: { blocks: 64, pages_per_block: 16 } });
    for (const sim of [0, 1]) {
      const first = roundTrip({ type: 'load', sim, configJson: config, trace: shippedTrace(TRACE), traceName: TRACE });
      expect(frameOf(first.got).pageStates).toEqual(first.sent.pageStates);
      expect(frameOf(first.got).changes).toBeUndefined();
      last.set(sim, first.sent);
    }
    let changedSome = false;
    // Steps from the state last sent come as the engine's own change list (and must still rebuild every frame).
    expect(sender.fromEngine).toBe(0);
    // Forwards, one op at a time, backwards and a seek: every kind of move, on both sims.
    const moves: Msg[] = [
      { type: 'step', requests: 7, budgetMs: Infinity },
      { type: 'stepOp', delta: 1 },
      { type: 'stepOp', delta: 1 },
      { type: 'stepOp', delta: -1 },
      { type: 'step', requests: 300, budgetMs: Infinity },
      { type: 'back', requests: 40 },
      { type: 'seek', request: 900 },
      { type: 'frame' },
      { type: 'step', requests: 50, budgetMs: Infinity },
      { type: 'seek', request: 3 },
      { type: 'step', requests: 120, budgetMs: Infinity },
    ];
    for (const m of moves) {
      for (const sim of [0, 1]) {
        const r = roundTrip({ ...m, sim });
        const got = frameOf(r.got);
        expect(got.pageStates).toEqual(r.sent.pageStates);
        expect(got.validCounts).toEqual(r.sent.validCounts);
        expect(got.blockRoles).toEqual(r.sent.blockRoles);
        expect(got.eraseCounts).toEqual(r.sent.eraseCounts);
        // Only the changed blocks crossed (no device-sized array), and the page is told which they were.
        expect(r.wirePages).toBe(0);
        expect(r.wireBlockArrays).toBe(0);
        // Every block that differs is named (the engine's list may name a block its events
        // touched that ends as it was).
        const named = new Set(got.changes!.blocks);
        expect(differing(last.get(sim)!, r.sent).filter((b) => !named.has(b))).toEqual([]);
        expect(got.changes!.since).toBe(got.seq! - 1);
        changedSome ||= got.changes!.blocks.length > 0;
        last.set(sim, r.sent);
      }
    }
    expect(changedSome).toBe(true);
    expect(sender.fromEngine).toBeGreaterThan(0);
    // The page's arrays are the same objects frame after frame (updated in place, no new buffers).
    const a = frameOf(roundTrip({ type: 'step', requests: 5, budgetMs: Infinity, sim: 0 }).got);
    const b = frameOf(roundTrip({ type: 'step', requests: 5, budgetMs: Infinity, sim: 0 }).got);
    expect(b.pageStates).toBe(a.pageStates);
    expect(b.blockRoles).toBe(a.blockRoles);
    expect(b.validCounts).toBe(a.validCounts);
    expect(b.eraseCounts).toBe(a.eraseCounts);
    // Steady play makes no buffer: the change lists and counters come back to the pool and are reused.
    const made = framePool.made;
    for (let i = 0; i < 20; i++) roundTrip({ type: 'step', requests: 5, budgetMs: Infinity, sim: i % 2 });
    expect(framePool.made).toBe(made);
  });

  it("sends the engine's change list when it is from the frame last sent, else compares every block", () => {
    const sender = new FrameSender();
    const grid = (pages: number[]) => ({
      pageStates: Uint8Array.from(pages),
      blockRoles: new Uint8Array(3),
      validCounts: new Uint32Array(3),
      eraseCounts: new Uint32Array(3),
    });
    const view = (f: FrameData) => viewReply(f);
    const info = { pagesPerBlock: 4 } as SimInfo;
    const first = { ...grid([0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]), counters: new Float64Array(1), hash: '', read: 1 };
    sender.send({ type: 'loaded', id: 0, info, view: (view(first) as { view: ViewData }).view }, [], 0);
    // Block 2 differs too, but the engine's list since read 1 names block 0 only: it is taken as said.
    const next = grid([1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 2, 0]);
    const engineList = (since: number) => {
      const d = diffFrame(grid([0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]), grid([1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]), 4, 0);
      return { since, delta: d };
    };
    const sent = (f: FrameData) => {
      const [wire] = sender.send(view(f), [], 0);
      return Array.from(((wire as { view: ViewData }).view.frame as WireFrame).pageDelta!.blocks);
    };
    expect(sent({ ...next, counters: new Float64Array(1), hash: '', read: 2, engineChanges: engineList(1) })).toEqual([
      0,
    ]);
    expect(sender.fromEngine).toBe(1);
    // A list from a read other than the frame last sent (2): every block is compared.
    const third = grid([1, 0, 0, 0, 1, 1, 2, 1, 0, 0, 2, 0]);
    expect(sent({ ...third, counters: new Float64Array(1), hash: '', read: 4, engineChanges: engineList(3) })).toEqual([
      1, 2,
    ]);
    expect(sender.fromEngine).toBe(1);
  });

  it('refuses changes against a frame the page does not hold, and starts again at a load', () => {
    const receiver = new FrameReceiver();
    const frame = (pageStates: Uint8Array): FrameData => ({
      pageStates,
      blockRoles: new Uint8Array(2),
      validCounts: new Uint32Array(2),
      eraseCounts: new Uint32Array(2),
      counters: new Float64Array(0),
      hash: '',
    });
    const view = (f: FrameData) => viewReply(f);
    const sender = new FrameSender();
    const info = { pagesPerBlock: 2 } as Extract<FromWorker, { type: 'loaded' }>['info'];
    const loaded = view(frame(Uint8Array.of(0, 0, 0, 0)));
    receiver.receive(sender.send({ ...loaded, type: 'loaded', info } as FromWorker, [], 0)[0], 0);
    const [one] = sender.send(view(frame(Uint8Array.of(0, 1, 0, 0))), [], 0);
    const [two] = sender.send(view(frame(Uint8Array.of(0, 1, 2, 2))), [], 0);
    // Frame two is against frame one, which the page never got.
    expect(() => receiver.receive(two, 0)).toThrow(/against frame 1, but the page holds frame 0/);
    // A new worker: the receiver forgets, and changes without a whole frame first are refused.
    receiver.reset();
    expect(() => receiver.receive(one, 0)).toThrow(/holds none/);
  });
});
