// What the app does after a seek far ahead (End, the scrubber, a jump): step back by an
// operation or a request. Both replay from a checkpoint, and the request re-entered must
// come with its events (the narration, op stepping and the page table are built from them).
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import type { FromWorker, ViewData } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function viewOf(r: FromWorker): ViewData {
  if (r.type !== 'view') throw new Error(JSON.stringify(r));
  return r.view;
}

describe('stepping back after a long forward seek', () => {
  it('re-enters the previous request with its events', () => {
    const core = new SimCore(loadWasm());
    core.handle({ type: 'load', id: 1, configJson: '{"scheme":"page"}', trace: shippedTrace(TRACE), traceName: TRACE });
    viewOf(core.handle({ type: 'seek', id: 2, request: 600 })[0]);
    // One operation back opens request 599 at its last operation (or, if it has only one,
    // lands at its start): either way the request on screen comes with its events.
    const back = viewOf(core.handle({ type: 'stepOp', id: 3, delta: -1 })[0]);
    expect(back.pos.request).toBe(599);
    expect(back.current?.index).toBe(back.pos.op > 0 ? 599 : 598);
    viewOf(core.handle({ type: 'seek', id: 4, request: 600 })[0]);
    const land = viewOf(core.handle({ type: 'back', id: 5, requests: 1 })[0]);
    expect(land.pos).toEqual({ request: 599, op: 0, ops: 0 });
    expect(land.current?.index).toBe(598);
  });
});
