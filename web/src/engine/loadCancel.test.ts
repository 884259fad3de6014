// Stop pressed while the worker builds a simulation ("Preparing"): the build cannot be
// interrupted, but the worker looks at the cancel before replacing the loaded simulation.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import type { ToWorker } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function parsed(core: SimCore, name: string) {
  core.handle({ type: 'traceOpen', id: 10, name, optionsJson: '{}' });
  core.handle({ type: 'traceChunk', id: 11, chunk: shippedTrace(name) });
  expect(core.handle({ type: 'traceClose', id: 12 })[0].type).toBe('traceParsed');
}

describe('loadParsed', () => {
  it('keeps the loaded simulation when cancelled while building', () => {
    const core = new SimCore(loadWasm());
    expect(
      core.handle({
        type: 'load',
        id: 1,
        configJson: '{"scheme":"page"}',
        trace: shippedTrace(TRACE),
        traceName: TRACE,
      })[0].type,
    ).toBe('loaded');
    core.handle({ type: 'step', id: 2, requests: 5, budgetMs: Infinity });
    parsed(core, 'mqsim_wsrch-small_websearch.trace');

    const work = core.run({
      type: 'loadParsed',
      id: 13,
      configJson: '{"scheme":"page","device":{"blocks":128}}',
      traceName: 'ws',
    } as ToWorker);
    // Before the build (seconds on a big device): what is being built, 128 blocks of 16 pages.
    expect(work.next().value).toMatchObject({ label: 'Building a device of 2,048 pages' });
    expect(work.next().value).toMatchObject({ label: 'Preparing 24,783 requests on 2,048 pages' });
    core.cancel();
    const r = work.next();
    expect(r.done && r.value[0]).toEqual({ type: 'error', id: 13, message: 'Loading cancelled.', cancelled: true });

    const [v] = core.handle({ type: 'step', id: 14, requests: 1, budgetMs: Infinity });
    expect(v.type === 'view' && v.view.pos.request).toBe(6);
  });

  it('replaces the simulation when nobody cancels', () => {
    const core = new SimCore(loadWasm());
    parsed(core, 'mqsim_wsrch-small_websearch.trace');
    const [r] = core.handle({ type: 'loadParsed', id: 13, configJson: '{"scheme":"page"}', traceName: 'ws' });
    expect(r.type === 'loaded' && r.info.total).toBe(24783);
  });
});
