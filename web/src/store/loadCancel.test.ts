// Stop (Esc) while a trace streams or while the worker prepares the simulation: the load is
// abandoned, the loaded experiment keeps running and a notice says so. Real wasm build.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimClient } from '../engine/client';
import { CoreClient } from '../test/coreClient';
import { SimStore } from './store';

const traces = new URL('../../../public/traces/', import.meta.url);

/** A response that sends a header and one line, then stalls (a slow download). */
function stalled(): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(ctl) {
        ctl.enqueue(new TextEncoder().encode('op,offset,size\nW,0,4096\n'));
      },
    }),
  );
}

/** fetch(): `traces/slow.csv` stalls; other `traces/...` URLs come from public/traces. */
function serveTraces() {
  vi.stubGlobal('fetch', async (url: string) =>
    url === 'traces/slow.csv'
      ? stalled()
      : new Response(readFileSync(fileURLToPath(new URL(url.replace(/^traces\//, ''), traces)))),
  );
}

const DEFAULT = 'msr-cambridge_hm_0_first1000.csv';
const exp = (file: string) => ({ traceUrl: `traces/${file}`, traceName: file, config: { scheme: 'page' } });

async function loaded() {
  const client = new CoreClient();
  const store = new SimStore(client as unknown as SimClient);
  await store.load(exp(DEFAULT));
  await store.step(7);
  return { client, store };
}

/** After a cancelled load: the experiment loaded before, where it stood, and the notice. */
function expectTheOldExperimentKept(store: SimStore) {
  expect(store.getState()).toMatchObject({
    status: 'ready',
    notice: 'Loading cancelled.',
    pos: { request: 7 },
    info: { total: 1000 },
    experiment: { traceName: DEFAULT },
  });
}

describe('Stop during a load', () => {
  beforeEach(serveTraces);
  afterEach(() => vi.unstubAllGlobals());

  it('while the trace streams: the read ends and the loaded experiment stays', async () => {
    const { client, store } = await loaded();
    const loading = store.load(exp('slow.csv'));
    await vi.waitFor(() => expect(client.sent.at(-1)).toBe('traceOpen'));
    await new Promise((r) => setTimeout(r, 10)); // the read is now waiting for more bytes
    store.cancel();
    await loading;
    expectTheOldExperimentKept(store);
    expect(client.sent.filter((t) => t === 'loadParsed')).toHaveLength(1); // the first load's only
    await store.step(1);
    expect(store.getState().pos.request).toBe(8);
  });

  it('while the worker prepares the simulation: the old one is kept', async () => {
    const { client, store } = await loaded();
    client.onSlice = (type) => type === 'loadParsed' && store.cancel();
    await store.load(exp('mqsim_wsrch-small_websearch.trace'));
    expect(client.sent.filter((t) => t === 'loadParsed')).toHaveLength(2); // it got as far as building
    expectTheOldExperimentKept(store);
    await store.step(1);
    expect(store.getState().pos.request).toBe(8);
  });

  it('of the first load: nothing is loaded, so it is the error status', async () => {
    const client = new CoreClient();
    const store = new SimStore(client as unknown as SimClient);
    const loading = store.load(exp('slow.csv'));
    await vi.waitFor(() => expect(client.sent).toContain('traceOpen'));
    store.cancel();
    await loading;
    expect(store.getState()).toMatchObject({ status: 'error', message: 'Loading cancelled.' });
  });
});
