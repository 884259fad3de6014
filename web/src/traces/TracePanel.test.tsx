// @vitest-environment jsdom
// The Trace panel starts every load with the parser options as edited in the panel: picking
// a scheme must not reload with the store's older options (and drop what was just typed).
import { File as NodeFile } from 'node:buffer';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SimClient } from '../engine/client';
import type { SchemeInfo, TracePreview } from '../engine/protocol';
import { SimStore } from '../store/store';
import { StoreContext } from '../store/useSim';
import { FakeClient, fakeInfo } from '../test/fakeClient';
import { TracePanel } from './TracePanel';
import { mountPoint } from '../test/dom';

const shipped = vi.hoisted(() => ({ traces: [] as unknown[] }));
vi.mock('./useManifest', () => ({ useManifest: () => ({ manifest: shipped }) }));
// An empty library, answered at once (IndexedDB is not what these tests are about).
vi.mock('./library/useLibrary', () => ({
  useLibrary: () => ({ entries: [], refresh: async () => {}, rename: async () => {}, remove: async () => {} }),
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const schemes = [{ id: 'page' }, { id: 'dftl' }] as SchemeInfo[];
const dom = mountPoint();

function mount(store: SimStore) {
  act(() =>
    dom.root.render(
      <StoreContext.Provider value={store}>
        <TracePanel />
      </StoreContext.Provider>,
    ),
  );
}

/** A store with an experiment loaded with `parseChoices`, its load() recorded. */
function loadedStore(parseChoices = {}, client = new FakeClient()) {
  const store = new SimStore(client as unknown as SimClient);
  store['set']({ status: 'ready', info: { ...fakeInfo(10), schemes, formats: ['csv', 'msr'] }, parseChoices });
  const load = vi.spyOn(store, 'load').mockResolvedValue();
  return { store, load };
}

/** The form control in the field labelled `label`. */
function field<T extends HTMLElement>(label: string): T {
  const span = [...dom.host.querySelectorAll('label > span')].find((s) => s.textContent === label);
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

  it('previews an upload, and loads it only on commit, with the overrides chosen there', async () => {
    const client = new FakeClient();
    const { store, load } = loadedStore({ skipBadLines: true, format: 'csv' }, client);
    mount(store);
    // jsdom's File cannot be read; Node's can, and the panel only needs Blob's reading API.
    const file = new NodeFile(['0 0 8 8 0\n1000 0 16 8 1\n'], 'mq.trace') as unknown as File;
    const input = dom.host.querySelector<HTMLInputElement>('[data-testid=trace-upload]')!;
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    act(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
    expect(load).not.toHaveBeenCalled();
    const preview = (format: string, unit: string): TracePreview => ({
      format,
      detected: false,
      layout: 'arrival_time device_no start_sector size_sectors type',
      fields: [{ name: 'arrival_time', meaning: 'arrival time' }],
      time_unit: unit,
      default_time_unit: 'ns',
      sector_size: 512,
      error: null,
      lines: [
        {
          line: 1,
          text: '0 0 8 8 0',
          kind: 'request',
          request: { at_ns: 0, op: 'write', offset: 4096, size: 4096, device: '0' },
          error: null,
        },
      ],
    });
    // The preview starts from the panel's format, then follows the override.
    await act(() => new Promise((r) => setTimeout(r, 50))); // the file's start is read meanwhile
    const first = await client.next('tracePreview');
    expect(first.body).toMatchObject({ format: 'csv', complete: true });
    await act(async () => first.resolve({ type: 'tracePreviewed', preview: preview('csv', 'ns') }));
    change(field<HTMLSelectElement>('Format of this file'), 'msr'); // the engine's formats here: csv, msr
    const second = await client.next('tracePreview');
    expect(second.body.format).toBe('msr');
    await act(async () => second.resolve({ type: 'tracePreviewed', preview: preview('msr', 'ns') }));
    change(field<HTMLSelectElement>('Time unit'), 'ms');
    const third = await client.next('tracePreview');
    expect(JSON.parse(third.body.optionsJson as string)).toEqual({ skip_bad_lines: true, time_unit: 'ms' });
    await act(async () => third.resolve({ type: 'tracePreviewed', preview: preview('msr', 'ms') }));
    expect(dom.host.querySelector('[data-kind=request] td:last-child')?.textContent).toBe(
      'write 4.00 KiB at byte 4,096 · t+0 ns · device 0',
    );

    const commit = [...dom.host.querySelectorAll('button')].find((b) => b.textContent === 'Load this trace')!;
    await act(async () => commit.click());
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    const [experiment, choices] = load.mock.calls[0];
    expect(experiment).toMatchObject({ traceName: 'mq.trace', file, config: { scheme: 'page' } });
    expect(experiment?.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(choices).toEqual({ skipBadLines: true, format: 'msr', timeUnit: 'ms' });
    expect(dom.host.querySelector('[data-testid=upload-preview]')).toBeNull();
  });

  it('Esc in the preview cancels it and gives the focus back to the upload button', async () => {
    const { store, load } = loadedStore({}, new FakeClient());
    mount(store);
    const input = dom.host.querySelector<HTMLInputElement>('[data-testid=trace-upload]')!;
    Object.defineProperty(input, 'files', {
      value: [new NodeFile(['0 0 8 8 0\n'], 'mq.trace') as unknown as File],
      configurable: true,
    });
    act(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
    const preview = dom.host.querySelector<HTMLElement>('[data-testid=upload-preview]')!;
    act(() => preview.querySelector<HTMLElement>('h3')!.focus());
    act(() => void preview.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(dom.host.querySelector('[data-testid=upload-preview]')).toBeNull();
    expect(document.activeElement).toBe(input);
    expect(load).not.toHaveBeenCalled();
  });

  it('offers, beside a refusal on a teaching trace, to run the scheme on the teaching device', async () => {
    const gc = {
      file: 'teaching/gc.csv',
      title: 'GC',
      kind: 'teaching',
      format: 'csv',
      requests: 12,
      description: '',
      provenance: '',
      config: {
        device: { blocks: 8, pages_per_block: 8 },
        gc: { reserve_blocks: 1 },
        workload: { address_map: 'refuse' },
      },
    };
    shipped.traces = [gc];
    try {
      const { store, load } = loadedStore();
      const teachingDevice = { blocks: 64, pages_per_block: 16 };
      vi.spyOn(store, 'catalog').mockResolvedValue({
        presets: [{ name: 'teaching', source: '', device: teachingDevice, ram_bytes: 0, notes: '' }],
      } as never);
      const refused = {
        traceUrl: 'traces/teaching/gc.csv',
        traceName: 'teaching/gc.csv',
        config: { scheme: 'dftl', ...gc.config },
      };
      store['set']({
        refused,
        traceError:
          'DFTL needs more than 25 spare pages … the device has 15: raise device.over_provisioning or device.blocks',
      });
      mount(store);
      await act(async () => {});
      const fix = [...dom.host.querySelectorAll('button')].find((b) =>
        b.textContent?.startsWith('Run dftl on the teaching device'),
      )!;
      expect(fix.textContent).toBe('Run dftl on the teaching device (64 blocks × 16 pages)');
      act(() => fix.click());
      expect(load).toHaveBeenLastCalledWith(
        {
          ...refused,
          config: { scheme: 'dftl', device: teachingDevice, ram: { bytes: 0 }, workload: { address_map: 'refuse' } },
        },
        expect.anything(),
      );
    } finally {
      shipped.traces = [];
    }
  });
});
