// Pages written while pre-filling (before any event) are known to hover and labels: the
// worker seeds its page table from the engine's spare-area tags at load.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';

describe('page table seeded at load', () => {
  it('knows what every pre-filled page holds, and agrees with the first GC copy events', () => {
    const core = new SimCore(loadWasm());
    const [loaded] = core.handle({
      type: 'load',
      id: 1,
      configJson: '{"scheme":"page"}',
      trace: shippedTrace('msr-cambridge_hm_0_first1000.csv'),
      traceName: 'hm_0',
    });
    if (loaded.type !== 'loaded') throw new Error(JSON.stringify(loaded));
    const states = loaded.view.frame.pageStates;
    const valid = [...states.keys()].filter((p) => states[p] === 1);
    expect(valid.length).toBeGreaterThan(300); // the pre-fill wrote the pages the trace reads first
    const keys = new Set<number>();
    for (const ppn of valid) {
      const [r] = core.handle({ type: 'pageInfo', id: 2, ppn });
      if (r.type !== 'pageInfo' || !r.info) throw new Error(`page ${ppn} unknown`);
      expect(r.info.kind).toBe('Data');
      expect(r.info.version).toBeGreaterThan(0);
      keys.add(r.info.key);
    }
    expect(keys.size).toBe(valid.length); // one valid page per logical page
    // Cell labels (small devices) name the logical page of every valid page.
    const labels = loaded.view.frame.pageKeys!;
    expect(valid.every((p) => labels[p] >= 0)).toBe(true);
    const [free] = core.handle({ type: 'pageInfo', id: 3, ppn: states.indexOf(0) });
    expect(free.type === 'pageInfo' && free.info).toBeNull();
  });
});
