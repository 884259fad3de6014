// @vitest-environment jsdom
// The Trace panel starts every load with the parser options as edited in the panel: picking
// a scheme must not reload with the store's older options (and drop what was just typed).
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimClient } from '../engine/client';
import type { SchemeInfo } from '../engine/protocol';
import { SimStore } from '../store/store';
import { StoreContext } from '../store/useSim';
import { FakeClient, fakeInfo } from '../test/fakeClient';
import { TracePanel } from './TracePanel';

vi.mock('./useManifest', () => ({ useManifest: () => ({ manifest: { traces: [] } }) }));
// An empty library, answered at once (IndexedDB is not what these tests are about).
vi.mock('./library/useLibrary', () => ({ useLibrary: () => ({ entries: [], refresh: async () => {}, rename: async () => {}, remove: async () => {} }) }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const schemes = [{ id: 'page' }, { id: 'dftl' }] as SchemeInfo[];
let root: Root;
let host: HTMLElement;

function mount(store: SimStore) {
  act(() => root.render(<StoreContext.Provider value={store}><TracePanel /></StoreContext.Provider>));
}

/** A store with an experiment loaded with `parseChoices`, its load() recorded. */
function loadedStore(parseChoices = {}) {
  const store = new SimStore(new FakeClient() as unknown as SimClient);
  store['set']({ status: 'ready', info: { ...fakeInfo(10), schemes, formats: ['csv', 'msr'] }, parseChoices });
  const load = vi.spyOn(store, 'load').mockResolvedValue();
  return { store, load };
}

/** The form control in the field labelled `label`. */
function field<T extends HTMLElement>(label: string): T {
  const span = [...host.querySelectorAll('label > span')].find((s) => s.textContent === label);
  if (!span) throw new Error(`no field ${label}`);
  return span.parentElement!.querySelector('input, select') as T;
}

/** Changes a controlled input or select the way a user does (React listens to these events). */
function change(el: HTMLInputElement | HTMLSelectElement, value: string) {
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

describe('TracePanel', () => {
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  it('reloads with the options being edited when the scheme changes', () => {
    const { store, load } = loadedStore({ skipBadLines: true });
    mount(store);
    change(field<HTMLInputElement>('First requests only'), '10');
    change(field<HTMLSelectElement>('Format'), 'msr');
    change(field<HTMLSelectElement>('Scheme'), 'dftl');
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0][0]?.config.scheme).toBe('dftl');
    expect(load.mock.calls[0][1]).toEqual({ skipBadLines: true, maxRequests: 10, format: 'msr' });
  });

  it('opens with the options of the loaded experiment (the panel unmounts with its tab)', () => {
    const { store, load } = loadedStore({ device: '1125', only: 'writes' });
    mount(store);
    expect(field<HTMLInputElement>('Device / volume / ASU').value).toBe('1125');
    change(field<HTMLSelectElement>('Scheme'), 'dftl');
    expect(load.mock.calls[0][1]).toEqual({ device: '1125', only: 'writes' });
  });
});
