// After the engine traps, the client has replaced the worker (empty): the store shows the
// error and Reset loads the experiment into the new worker. A reload that fails returns to
// the error, since there is no old simulation left to go back to.
import { describe, expect, it } from 'vitest';
import { EngineError, type SimClient } from '../engine/client';
import { FakeClient, fakeInfo, fakeView, fileExperiment } from '../test/fakeClient';
import { SimStore } from './store';

async function crashed(request = 0) {
  const client = new FakeClient();
  const store = new SimStore(client as unknown as SimClient);
  store['set']({
    info: fakeInfo(10),
    status: 'ready',
    experiment: fileExperiment('old.csv'),
    pos: { request, op: 0, ops: 0 },
  });
  const p = store.step(1);
  const queued = store.step(1);
  (await client.next('step')).reject(new EngineError('The engine crashed (unreachable).', true));
  await Promise.all([p, queued]);
  return { client, store };
}

describe('a fatal engine error', () => {
  it('is the error status, says how to recover, and sends nothing more', async () => {
    const { client, store } = await crashed();
    expect(store.getState()).toMatchObject({
      status: 'error',
      message: 'The engine crashed (unreachable). Press Reset (R) to reload the experiment where it stood.',
    });
    expect(client.types()).toEqual(['step']); // the queued step never reached the new worker
    expect(await store.pageInfo(0)).toBeNull();
  });

  it('is cleared by Reset, which loads the experiment again', async () => {
    const { client, store } = await crashed();
    const reset = store.reset();
    expect(store.getState().status).toBe('loading');
    await client.answerLoad(10, fakeView(0));
    await reset;
    expect(store.getState()).toMatchObject({
      status: 'ready',
      message: undefined,
      experiment: { traceName: 'old.csv' },
    });
  });

  it('is cleared by Reset at the request it stood at, on the last experiment that loaded', async () => {
    const { client, store } = await crashed(6);
    const reset = store.reset();
    await client.answerLoad(10, fakeView(0));
    const seek = await client.next('seek');
    expect(seek.body).toMatchObject({ request: 6 });
    seek.resolve({ type: 'view', view: fakeView(6) });
    await reset;
    expect(store.getState()).toMatchObject({
      status: 'ready',
      pos: { request: 6 },
      experiment: { traceName: 'old.csv' },
    });
  });

  it('comes back when the reload fails too', async () => {
    const { client, store } = await crashed();
    const reset = store.reset();
    (await client.next('traceOpen')).reject(new Error('old.csv:1:1: expected a header'));
    await reset;
    expect(store.getState()).toMatchObject({
      status: 'error',
      message: expect.stringContaining('Press Reset'),
      traceError: 'old.csv:1:1: expected a header',
    });
    expect(client.types()).not.toContain('frame');

    const again = store.reset();
    await client.answerLoad(10, fakeView(0));
    await again;
    expect(store.getState()).toMatchObject({ status: 'ready', message: undefined, traceError: undefined });
  });
});
