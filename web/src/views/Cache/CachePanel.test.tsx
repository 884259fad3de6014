// @vitest-environment jsdom
// The cache panel follows the timeline through a DFTL miss: the structure and item of the
// current path step are outlined, and the path's steps move the timeline (also by arrows).
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SimClient } from '../../engine/client';
import type { EngineEvent, RequestTrace } from '../../engine/events';
import type { Inspection } from '../../engine/inspection';
import { SimStore } from '../../store/store';
import { StoreContext } from '../../store/useSim';
import { FakeClient, fakeInfo } from '../../test/fakeClient';
import { CachePanel } from './CachePanel';
import { program } from '../../test/events';
import { mountPoint } from '../../test/dom';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const OPS: EngineEvent[] = [
  { type: 'cache_miss', level: 'entry', key: 7 },
  { type: 'flash_read', ppn: 40, block: 5, page: 0, purpose: 'translation', key: 0, ns: 25000 },
  { type: 'cache_insert', level: 'entry', key: 7, bytes: 8 },
  { type: 'cache_evict', level: 'entry', key: 5, dirty: true, bytes: 8 },
  { type: 'flash_program', ppn: 61, block: 7, page: 5, purpose: 'data', kind: 'Data', key: 7, version: 1, ns: 200000 },
];
const CURRENT: RequestTrace = {
  index: 3,
  request: { type: 'request', index: 3, op: 'write', lpn: 7, pages: 1 },
  ops: OPS,
};

const INSPECTION: Inspection = {
  ram_budget: 64,
  ram_used: 40,
  budgets: [
    { name: 'GTD', bytes: 16 },
    { name: 'CMT', bytes: 24 },
  ],
  structures: [
    {
      shape: 'list',
      id: 'cmt',
      name: 'CMT',
      level: 'entry',
      capacity: 3,
      len: 3,
      order: 'lru',
      truncated: false,
      entries: [5, 6, 8].map((key) => ({ key, value: key * 10, dirty: key === 5 })),
    },
    {
      shape: 'table',
      id: 'gtd',
      name: 'GTD',
      len: 2,
      truncated: false,
      rows: [0, 1].map((key) => ({ key, value: 40 + key, in_ram: false })),
    },
  ],
};

const dom = mountPoint();

/** Renders the panel and answers its inspection question with `inspection`. */
async function show(store: SimStore, client: FakeClient, inspection: Inspection) {
  act(() =>
    dom.root.render(
      <StoreContext.Provider value={store}>
        <CachePanel />
      </StoreContext.Provider>,
    ),
  );
  const asked = await client.next('inspect');
  await act(async () => asked.resolve({ type: 'inspection', inspection, at: store.getState().pos }));
}

async function mount(op: number, current = CURRENT, inspection = INSPECTION) {
  const client = new FakeClient();
  const store = new SimStore(client as unknown as SimClient);
  const info = {
    ...fakeInfo(10),
    scheme: 'dftl',
    spec: { ...fakeInfo(10).spec, caches: [{ level: 'entry', name: 'CMT' }] },
  };
  store['set']({ status: 'ready', info, current, pos: { request: 3, op, ops: current.ops.length } });
  const seek = vi.spyOn(store, 'seek').mockResolvedValue(undefined);
  await show(store, client, inspection);
  return { store, seek };
}

const q = <T extends Element>(sel: string) => dom.host.querySelector<T>(sel);

describe('CachePanel', () => {
  it('on the miss, outlines the CMT with the missing key; on the read, the GTD row of its translation page', async () => {
    await mount(1);
    expect(q('[aria-current="step"]')!.textContent).toContain('Look up LPN 7 in the CMT: miss');
    expect(q('[data-testid="cache-cmt"] [data-missing-key="7"]')!.getAttribute('data-step')).toBe('miss');
    dom.remount();
    await mount(2);
    expect(q('[aria-current="step"]')!.textContent).toContain('Read translation page 0');
    expect(q('[data-testid="cache-gtd"] tr[data-key="0"]')!.getAttribute('data-step')).toBe('tp-read');
    expect(q('[data-testid="cache-gtd"] tr[data-key="1"]')!.hasAttribute('data-step')).toBe(false);
    expect(q('[data-testid="cache-cmt"]')!.className).not.toContain('is-on-path');
  });

  it('shows an evicted entry struck out with its dirty bit, and the order and dirty bits of the list', async () => {
    await mount(4);
    const gone = q('[data-testid="cache-cmt"] [data-step="evict"]')!;
    expect(gone.textContent).toContain('5');
    expect(gone.querySelector('[aria-label="dirty"]')).not.toBeNull();
    const keys = [...dom.host.querySelectorAll('[data-testid="cache-cmt"] li[data-key]')].map((li) =>
      li.getAttribute('data-key'),
    );
    expect(keys).toEqual(['5', '6', '8']);
    expect(q('[data-testid="cache-cmt"]')!.textContent).toContain('LRU (next victim)');
  });

  it('moves the timeline to a step when it is pressed, and to the next one with →', async () => {
    const { seek } = await mount(2);
    const steps = dom.host.querySelectorAll<HTMLButtonElement>('.cpath__step');
    expect(steps).toHaveLength(4); // miss, read, insert, evict: the data write is no RAM step
    act(() => steps[2].click());
    expect(seek).toHaveBeenLastCalledWith(3, 3);
    act(() => void q('.cpath')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })));
    expect(seek).toHaveBeenLastCalledWith(3, 3);
    act(() => void q('.cpath')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true })));
    expect(seek).toHaveBeenLastCalledWith(3, 1);
  });

  it('shows a page packed part-way through a request as pending in the range index, newest first', async () => {
    const dtp = program({ ppn: 90, block: 11, page: 2, purpose: 'translation', kind: 'Dtp', key: 4, version: 1 });
    const ranges = {
      shape: 'ranges' as const,
      id: 'dtp_index',
      name: 'DTP index',
      len: 1,
      truncated: false,
      ranges: [{ id: 0, min: 1, max: 9, ppn: 80 }],
    };
    await mount(1, { ...CURRENT, ops: [dtp] }, { ...INSPECTION, structures: [...INSPECTION.structures, ranges] });
    const items = dom.host.querySelectorAll('[data-testid="cache-dtp_index"] li');
    expect(items[0].getAttribute('data-pending-ppn')).toBe('90');
    expect(items[1].getAttribute('data-ppn')).toBe('80');
    expect(q('[data-testid="cache-gtd"] [data-step]')).toBeNull(); // a DTP is no translation page
  });

  it('never counts more entries than the list holds, between an insert and the eviction after it', async () => {
    const full = {
      ...INSPECTION,
      structures: INSPECTION.structures.map((s) =>
        s.shape === 'list'
          ? { ...s, len: 4, entries: [{ key: 7, value: null, dirty: false, touched: true }, ...s.entries] }
          : s,
      ),
      replayed: true,
    };
    await mount(3, CURRENT, full);
    const meta = q('[data-testid="cache-cmt"] .cache__meta')!.textContent!;
    expect(meta).toContain('3 of 3 entries (1 more until the eviction that follows)');
    expect(meta).not.toContain('4 of 3');
  });

  it('shows no path for a scheme whose spec names no caches', async () => {
    const client = new FakeClient();
    const store = new SimStore(client as unknown as SimClient);
    store['set']({ status: 'ready', info: fakeInfo(10), current: CURRENT, pos: { request: 3, op: 0, ops: 0 } });
    await show(store, client, INSPECTION);
    expect(q('.cache__path')).toBeNull();
    expect(q('[data-testid="cache-cmt"]')).not.toBeNull();
  });

  it('names the request and sums its path up', async () => {
    await mount(0);
    expect(q('.cache__path h4')!.textContent).toBe('Path of request #3');
    expect(q('.cache__summary')!.textContent).toBe('1 miss, 1 translation-page read, 1 insert, 1 eviction');
    // At a request boundary every step is done: the last one is current.
    expect(q('[aria-current="step"]')!.textContent).toContain('Evict LPN 5');
  });
});
