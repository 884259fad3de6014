// Loads and moves share one queue. A move already in flight when a load starts belongs to the
// experiment being replaced: its view must not end the 'loading' status (that re-enabled
// every control mid-upload when loading during full-speed play), and moves queued behind it
// are never sent.
import { describe, expect, it } from 'vitest';
import type { SimClient } from '../engine/client';
import { FakeClient, fakeInfo, fakeView, fileExperiment } from '../test/fakeClient';
import { SimStore } from './store';

function setup() {
  const client = new FakeClient();
  const store = new SimStore(client as unknown as SimClient);
  store['set']({ info: fakeInfo(10), status: 'ready', experiment: fileExperiment('old.csv') });
  return { client, store };
}

describe('a load started while a move is in flight', () => {
  it('keeps loading until its own view arrives, and skips the queued moves', async () => {
    const { client, store } = setup();
    const stepping = store.step(1);
    const queued = store.back(1);
    const step = await client.next('step');
    const loading = store.load(fileExperiment('new.csv'));
    expect(store.getState().status).toBe('loading');

    step.resolve({ type: 'view', view: fakeView(1) });
    await stepping;
    await queued;
    expect(store.getState().status).toBe('loading');
    expect(store.getState().pos.request).toBe(0); // the stale view was dropped

    await client.answerLoad(20, fakeView(0));
    await loading;
    expect(store.getState()).toMatchObject({
      status: 'ready',
      experiment: { traceName: 'new.csv' },
      info: { total: 20 },
    });
    expect(client.types().filter((t) => t !== 'responses')).toEqual([
      'step',
      'traceOpen',
      'traceChunk',
      'traceClose',
      'loadParsed',
    ]);
  });

  it('ends in done when the loaded view is at the end, even after a play step was dropped', async () => {
    const { client, store } = setup();
    const stepping = store.step(5, 10, true); // as the play loop sends at full speed
    const step = await client.next('step');
    const loading = store.load(fileExperiment('new.csv'));
    step.resolve({ type: 'view', view: fakeView(5) });
    await stepping;
    expect(store.getState().status).toBe('loading');
    await client.answerLoad(0, fakeView(0, true));
    await loading;
    expect(store.getState().status).toBe('done');
  });

  it('resynchronises with the engine when the load then fails', async () => {
    const { client, store } = setup();
    const stepping = store.step(1);
    const step = await client.next('step');
    const loading = store.load(fileExperiment('bad.csv'));
    step.resolve({ type: 'view', view: fakeView(1) });
    await stepping;
    (await client.next('traceOpen')).reject(new Error('bad.csv:1:1: expected a header'));
    // The dropped view moved the engine to request 1: the store asks where it is.
    (await client.next('frame')).resolve({ type: 'view', view: fakeView(1) });
    await loading;
    expect(store.getState()).toMatchObject({
      status: 'ready',
      pos: { request: 1 },
      traceError: 'bad.csv:1:1: expected a header',
    });
    expect(store.getState().experiment.traceName).toBe('old.csv');
  });
});
