// Cell labels (the logical page each written page holds) stay exact after
// every kind of move, not only after steps whose events the worker read. A seek or a jump
// skips events; before the fix the pages programmed meanwhile lost their labels.
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
  const loaded = send({
    type: 'load',
    configJson: JSON.stringify(config),
    trace: shippedTrace(TRACE),
    traceName: TRACE,
  });
  if (loaded.type !== 'loaded') throw new Error(JSON.stringify(loaded));
  const view = (m: Body<ToWorker>): ViewData => {
    const r = send(m);
    if (r.type !== 'view') throw new Error(JSON.stringify(r));
    return r.view;
  };
  return { view, send };
}

/** Written pages (valid or invalid) whose label is missing. */
function unlabelled(v: ViewData): number[] {
  const keys = v.frame.pageKeys!;
  return [...v.frame.pageStates.keys()].filter((p) => v.frame.pageStates[p] !== 0 && keys[p] < 0);
}

describe('cell labels after moves', () => {
  it('a forward seek labels every written page, as stepping there does', () => {
    const stepped = start().view({ type: 'step', requests: 700, budgetMs: Infinity });
    const sought = start().view({ type: 'seek', request: 700, op: 0 });
    expect(sought.frame.hash).toBe(stepped.frame.hash);
    expect(unlabelled(stepped)).toEqual([]);
    expect(unlabelled(sought)).toEqual([]);
    expect([...sought.frame.pageKeys!]).toEqual([...stepped.frame.pageKeys!]);
  });

  it('a jump to the next GC, the end, and a seek back keep every label', () => {
    const s = start();
    const gc = s.view({ type: 'jump', what: 'gc' });
    expect(gc.found).toBe(true);
    expect(unlabelled(gc)).toEqual([]);
    const end = s.view({ type: 'seek', request: 1000, op: 0 });
    expect(unlabelled(end)).toEqual([]);
    const back = s.view({ type: 'seek', request: 300, op: 2 });
    expect(unlabelled(back)).toEqual([]);
  });

  it('a device too big for labels still tells hover what a page holds after a seek', () => {
    const s = start({ scheme: 'page', device: { blocks: 256, pages_per_block: 32 } });
    const v = s.view({ type: 'seek', request: 900, op: 0 });
    expect(v.frame.pageKeys).toBeUndefined(); // 8,192 pages: no cell labels
    const written = [...v.frame.pageStates.keys()].filter((p) => v.frame.pageStates[p] !== 0);
    expect(written.length).toBeGreaterThan(500);
    const unknown = written.filter((ppn) => {
      const r = s.send({ type: 'pageInfo', ppn });
      return r.type !== 'pageInfo' || !r.info || r.info.erases !== v.frame.eraseCounts[Math.floor(ppn / 32)];
    });
    expect(unknown).toEqual([]);
  });
});
