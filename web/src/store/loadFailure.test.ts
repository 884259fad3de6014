// A load the engine refuses after the trace parsed (the config cannot be built) is reported
// like a trace error: the loaded experiment keeps running. On the real wasm build, with the
// case from the app: a teaching trace's 8 × 8 device is too small for DFTL.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimClient } from '../engine/client';
import { CoreClient } from '../test/coreClient';
import type { Experiment } from './experiment';
import { SimStore } from './store';

const traces = new URL('../../../public/traces/', import.meta.url);

/** fetch() of the app's relative `traces/...` URLs, served from public/traces. */
function serveTraces() {
  vi.stubGlobal(
    'fetch',
    async (url: string) => new Response(readFileSync(fileURLToPath(new URL(url.replace(/^traces\//, ''), traces)))),
  );
}

/** The teaching trace as the Trace panel builds it, with `scheme`. */
function teaching(scheme: string): Experiment {
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('index.json', traces)), 'utf8'));
  const t = manifest.traces.find((x: { file: string }) => x.file === 'teaching/gc.csv');
  return { traceUrl: `traces/${t.file}`, traceName: t.file, config: { scheme, ...t.config } };
}

describe('a simulation the engine refuses to build', () => {
  beforeEach(serveTraces);
  afterEach(() => vi.unstubAllGlobals());

  it('shows the reason with the trace and leaves the loaded experiment running', async () => {
    const store = new SimStore(new CoreClient() as unknown as SimClient);
    await store.load(teaching('page'));
    expect(store.getState()).toMatchObject({ status: 'ready', info: { blocks: 8, scheme: 'page' } });
    await store.step(3);
    const parse = store.getState().trace;

    await store.load(teaching('dftl'));
    const s = store.getState();
    expect(s.traceError).toMatch(/GC needs more than .* open blocks of 'dftl'/);
    expect(s).toMatchObject({
      status: 'ready',
      message: undefined,
      pos: { request: 3 },
      info: { scheme: 'page' },
      experiment: { config: { scheme: 'page' } },
    });
    expect(s.trace).toBe(parse);
    await store.step(1);
    expect(store.getState().pos.request).toBe(4);
  });

  it('restores done when the loaded experiment had reached its end', async () => {
    const store = new SimStore(new CoreClient() as unknown as SimClient);
    await store.load(teaching('page'));
    await store.step(100);
    expect(store.getState().status).toBe('done');
    await store.load(teaching('dftl'));
    expect(store.getState()).toMatchObject({ status: 'done', traceError: expect.stringMatching(/'dftl'/) });
  });

  it('is the error status when nothing was loaded before', async () => {
    const store = new SimStore(new CoreClient() as unknown as SimClient);
    await store.load(teaching('dftl'));
    expect(store.getState()).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/GC needs more than .* open blocks of 'dftl'/),
    });
  });
});
