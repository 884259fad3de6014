// The store's move machinery with a fake engine client: moves run one at a time, a progress
// bar appears only for work slower than half a second, and engine errors become the error
// status rather than an exception.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimClient } from '../engine/client';
import type { SimInfo, ViewData } from '../engine/protocol';
import { FAKE_VOCAB, fakeInfo, fakeView } from '../test/fakeClient';
import { SimStore } from './store';

type Progress = (p: { label: string; done: number; total: number }) => void;

const view = (request: number): ViewData => fakeView(request);

class FakeClient {
  sent: { body: { type: string }; resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: Progress }[] =
    [];
  request(body: { type: string }, _t?: unknown, onProgress?: Progress) {
    return new Promise((resolve, reject) => this.sent.push({ body, resolve, reject, onProgress }));
  }
  cancel() {}
}

function setup() {
  const client = new FakeClient();
  const store = new SimStore(client as unknown as SimClient);
  const stops = [{ id: 'merge', label: 'Next merge', key: 'e', doc: 'Until a merge.' }];
  const info: SimInfo = { ...fakeInfo(10), vocab: { ...FAKE_VOCAB, stops } };
  store['set']({ info, status: 'ready' });
  return { client, store };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('SimStore moves', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('sends one move at a time, in order', async () => {
    const { client, store } = setup();
    const a = store.step(1);
    const b = store.back(1);
    await flush();
    expect(client.sent.map((s) => s.body.type)).toEqual(['step']);
    client.sent[0].resolve({ type: 'view', view: view(1) });
    await flush();
    // After each move the chart's data is asked for too (not a move: it does not queue).
    const moves = () => client.sent.filter((s) => s.body.type !== 'responses');
    expect(moves().map((s) => s.body.type)).toEqual(['step', 'back']);
    moves()[1].resolve({ type: 'view', view: view(0) });
    await Promise.all([a, b]);
    expect(store.getState().pos.request).toBe(0);
  });

  it('shows a progress bar only after half a second, with the worker’s progress', async () => {
    const { client, store } = setup();
    const done = store.seek(9);
    await flush();
    await vi.advanceTimersByTimeAsync(400);
    client.sent[0].onProgress?.({ label: 'Seeking', done: 3, total: 9 });
    expect(store.getState().busy).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    // The bar starts from the latest report, also one sent before it appeared (a long
    // phase's label: "Building a device of … pages").
    expect(store.getState().busy).toEqual({ label: 'Seeking', done: 3, total: 9 });
    client.sent[0].onProgress?.({ label: 'Seeking', done: 6, total: 9 });
    expect(store.getState().busy).toEqual({ label: 'Seeking', done: 6, total: 9 });
    client.sent[0].resolve({ type: 'view', view: view(9) });
    await done;
    expect(store.getState().busy).toBeUndefined();
    expect(store.getState().pos.request).toBe(9);
  });

  it('turns an engine error into the error status and stops taking moves', async () => {
    const { client, store } = setup();
    const p = store.step(1);
    await flush();
    client.sent[0].reject(new Error('engine exploded'));
    await p;
    expect(store.getState()).toMatchObject({ status: 'error', message: 'engine exploded' });
    await store.step(1);
    expect(client.sent).toHaveLength(1);
  });

  it('says so when a jump finds nothing', async () => {
    const { client, store } = setup();
    const p = store.jump('merge');
    await flush();
    client.sent[0].resolve({ type: 'view', view: { ...view(0), found: false } });
    await p;
    expect(store.getState().notice).toBe('No merge until the end of the trace.');
  });
});
