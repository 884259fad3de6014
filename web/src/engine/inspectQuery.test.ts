// One channel for a view's question: the query reaches the engine untouched, the worker
// keeps no view state (a zoom asked once does not stick), and two questions asked part-way
// through a request each get their own answer, replayed from before the request.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { SimCore } from './core';
import type { InspectQuery, Inspection, TreeNode } from './inspection';
import type { FromWorker, ToWorker } from './protocol';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function start() {
  const core = new SimCore(loadWasm());
  let id = 1;
  const send = (m: object): FromWorker => core.handle({ ...m, id: id++ } as ToWorker)[0];
  send({
    type: 'load',
    configJson: JSON.stringify({ scheme: 'treeftl' }),
    trace: shippedTrace(TRACE),
    traceName: TRACE,
  });
  const ask = (query: InspectQuery | object) => {
    const r = send({ type: 'inspect', query });
    if (r.type !== 'inspection') throw new Error(r.type === 'error' ? r.message : r.type);
    return r;
  };
  return { send, ask };
}

const treeOf = (i: Inspection): TreeNode => {
  const s = i.structures.find((x) => x.shape === 'tree');
  if (!s || s.shape !== 'tree') throw new Error('no tree');
  return s.root;
};
const rows = (i: Inspection) => (treeOf(i).children ?? []).map((c) => c.id);

describe('the inspection query channel', () => {
  it('answers each question as asked, remembering none of them', () => {
    const { send, ask } = start();
    send({ type: 'step', requests: 300, budgetMs: Infinity });
    const whole = ask({}).inspection;
    const group = rows(whole).find((id) => id.startsWith('ctp-'))!;
    const zoomed = ask({ focus: group });
    expect(rows(zoomed.inspection)).toEqual([group]);
    expect(zoomed.at).toEqual({ request: 300, op: 0, ops: 0 });
    // The zoom was the tree view's question, not the worker's state: a plain one is whole again.
    expect(rows(ask({}).inspection)).toEqual(rows(whole));
    expect(ask({ limit: 1 }).inspection.structures.length).toBe(whole.structures.length);
  });

  it('answers two questions part-way through a request, each replayed from before it', () => {
    const { send, ask } = start();
    send({ type: 'step', requests: 300, budgetMs: Infinity });
    const group = rows(ask({}).inspection).find((id) => id.startsWith('ctp-'))!;
    let at = ask({}).at;
    // Into a request with more than one op, without having asked anything at its start.
    for (let i = 0; i < 50 && at.ops < 2; i++) {
      send({ type: 'stepOp', delta: 1 });
      at = ask({}).at;
      if (at.ops < 2) send({ type: 'step', requests: 1, budgetMs: Infinity });
    }
    expect(at.op).toBe(1);
    const whole = ask({});
    const zoomed = ask({ focus: group });
    expect(whole.inspection.replayed).toBe(true);
    expect(zoomed.inspection.replayed).toBe(true);
    expect(zoomed.at).toEqual(whole.at);
    expect(rows(zoomed.inspection).length).toBeLessThanOrEqual(rows(whole.inspection).length);
  });

  it('refuses a question the engine does not know, naming the field', () => {
    const { send } = start();
    const r = send({ type: 'inspect', query: { zoom: 'ctp-1' } });
    expect(r.type).toBe('error');
    expect(r.type === 'error' && r.message).toContain('zoom');
  });
});
