// @vitest-environment jsdom
// Two views asking different questions at the same place each hold their own answer (no
// shared slot), the same question is asked once, and a new position asks again.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { SimClient } from '../engine/client';
import type { InspectQuery, Inspection } from '../engine/inspection';
import { FakeClient, fakeInfo } from '../test/fakeClient';
import { SimStore } from './store';
import { useInspection } from './useInspection';
import { StoreContext } from './useSim';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const answer = (ram_used: number): Inspection => ({ ram_budget: 100, ram_used, budgets: [], structures: [] });

function Asker({ id, query }: { id: string; query: InspectQuery }) {
  const i = useInspection(query);
  return <p data-id={id}>{i ? i.ram_used : '-'}</p>;
}

describe('useInspection', () => {
  it('gives each view the answer to its own question, asking each question once per position', async () => {
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    const client = new FakeClient();
    const store = new SimStore(client as unknown as SimClient);
    store['set']({ status: 'ready', info: fakeInfo(10), pos: { request: 2, op: 0, ops: 0 } });
    act(() =>
      root.render(
        <StoreContext.Provider value={store}>
          <Asker id="tree" query={{ focus: 'ctp-1' }} />
          <Asker id="cache" query={{}} />
          <Asker id="cache-again" query={{}} />
        </StoreContext.Provider>,
      ),
    );
    const asked = client.sent.filter((s) => s.body.type === 'inspect');
    expect(asked.map((s) => s.body.query)).toEqual([{ focus: 'ctp-1' }, {}]);
    const at = { request: 2, op: 0, ops: 0 };
    await act(async () => {
      asked[0].resolve({ type: 'inspection', inspection: answer(1), at });
      asked[1].resolve({ type: 'inspection', inspection: answer(2), at });
    });
    const shown = (id: string) => host.querySelector(`[data-id="${id}"]`)!.textContent;
    expect([shown('tree'), shown('cache'), shown('cache-again')]).toEqual(['1', '2', '2']);
    // A move: each view asks again, and keeps its answer until the new one comes.
    act(() => store['set']({ pos: { request: 3, op: 0, ops: 0 }, seq: store.getState().seq + 1 }));
    expect(client.sent.filter((s) => s.body.type === 'inspect')).toHaveLength(4);
    expect(shown('tree')).toBe('1');
    act(() => root.unmount());
  });
});
