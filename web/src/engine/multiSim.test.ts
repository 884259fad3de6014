// Several simulations in one worker core, addressed by `sim` id (the comparison lab's need).
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import type { FromWorker } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function view(r: FromWorker) {
  if (r.type !== 'view' && r.type !== 'loaded') throw new Error(JSON.stringify(r));
  return r.view;
}

describe('SimCore with simulation ids', () => {
  it('keeps two simulations with their own schemes and positions, and drops one', () => {
    const core = new SimCore(loadWasm());
    const load = (sim: number, scheme: string) =>
      core.handle({
        type: 'load',
        id: sim,
        sim,
        configJson: JSON.stringify({ scheme }),
        trace: shippedTrace(TRACE),
        traceName: TRACE,
      })[0];
    const a = load(0, 'page');
    const b = load(1, 'dftl');
    if (a.type !== 'loaded' || b.type !== 'loaded') throw new Error('load failed');
    expect([a.info.scheme, b.info.scheme]).toEqual(['page', 'dftl']);

    expect(view(core.handle({ type: 'step', id: 3, sim: 1, requests: 50, budgetMs: Infinity })[0]).pos.request).toBe(
      50,
    );
    // The main simulation (no id) did not move.
    expect(view(core.handle({ type: 'frame', id: 4 })[0]).pos.request).toBe(0);
    expect(view(core.handle({ type: 'step', id: 5, requests: 7, budgetMs: Infinity })[0]).pos.request).toBe(7);
    expect(view(core.handle({ type: 'frame', id: 6, sim: 1 })[0]).pos.request).toBe(50);

    expect(core.handle({ type: 'drop', id: 7, sim: 1 })[0].type).toBe('dropped');
    const gone = core.handle({ type: 'frame', id: 8, sim: 1 })[0];
    expect(gone).toMatchObject({ type: 'error', message: 'no simulation 1 loaded' });
    expect(view(core.handle({ type: 'frame', id: 9, sim: 0 })[0]).pos.request).toBe(7);
  });
});
