// The comparison pool with the real wasm engine in-process (one SimCore per lane).
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../test/coreClient';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { lanesFor, type Cold } from './cold';
import {
  lanesForMemory,
  MAX_WORKERS,
  poolSize,
  RunPool,
  WORKER_BASE_BYTES,
  type PoolClient,
  type RunEvent,
  type RunTrace,
} from './pool';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function lane(): PoolClient {
  const c = new CoreClient();
  return { request: c.request.bind(c), stop: () => c.cancel() };
}

function trace(name = TRACE): RunTrace {
  const bytes = shippedTrace(name);
  return {
    name,
    choices: {},
    open: async () => ({ name, size: bytes.byteLength, stream: () => new Blob([bytes]).stream() }),
  };
}

/** The metrics of a direct run, as `ftl run` makes them: build from the bytes, step to the end. */
function directRun(config: Record<string, unknown>, name = TRACE): unknown {
  const wasm = loadWasm();
  const sim = new wasm.Simulation(JSON.stringify(config), new Uint8Array(shippedTrace(name)), name, null);
  while (!sim.done()) sim.step(4096);
  const json = sim.metricsJson();
  sim.free();
  return JSON.parse(json);
}

const SCHEMES = (JSON.parse(loadWasm().schemesJson()) as { id: string }[]).map((s) => s.id);

describe('RunPool', () => {
  it('sizes itself to the cores, between 1 and 8', () => {
    expect(MAX_WORKERS).toBe(8);
    expect([undefined, 0, 1, 2, 3, 4, 6, 8, 16, 64].map(poolSize)).toEqual([1, 1, 1, 2, 3, 4, 6, 8, 8, 8]);
  });

  it('runs only as many at once as half the memory holds, at least one', () => {
    const MiB = 2 ** 20;
    // 8 GiB: half is 4 GiB; 1 GiB runs (plus a worker's own) fit three at a time.
    expect(lanesForMemory(8, 1024 * MiB, 8)).toBe(3);
    expect(lanesForMemory(8, 10 * MiB, 8)).toBe(8);
    expect(lanesForMemory(2, 10 * MiB, 8)).toBe(2);
    // A run bigger than the whole budget still runs, alone.
    expect(lanesForMemory(8, 64 * 1024 * MiB, 8)).toBe(1);
    // Unknown memory counts as 4 GiB.
    expect(lanesForMemory(8, 512 * MiB - WORKER_BASE_BYTES, undefined)).toBe(4);
  });

  it("bounds the lanes by the engine's estimate of the largest run (a 128 GB device runs fewer at once)", async () => {
    const core = new CoreClient();
    const cold: Cold = async (call) => (await core.request<'sweep'>({ type: 'sweep', call })).json;
    const small = { key: 'small', config: { scheme: 'page' } };
    const big = {
      key: 'big',
      config: { scheme: 'page', device: { blocks: 131072, pages_per_block: 256, page_bytes: 4096 } },
    };
    expect(await lanesFor(cold, 8, [small, small], 0, 8)).toBe(8);
    const bytes = Number(await cold({ fn: 'runBytes', configJson: JSON.stringify(big.config), requests: 0 }));
    expect(bytes).toBeGreaterThan(131072 * 256 * 8); // at least the logical map's 8 bytes a page
    expect(await lanesFor(cold, 8, [small, big], 0, 8)).toBe(lanesForMemory(8, bytes, 8));
    expect(await lanesFor(cold, 8, [small, big], 0, 8)).toBeLessThan(8);
    // The trace's length counts too.
    const withTrace = Number(
      await cold({ fn: 'runBytes', configJson: JSON.stringify(small.config), requests: 1_000_000 }),
    );
    expect(withTrace).toBeGreaterThan(
      Number(await cold({ fn: 'runBytes', configJson: JSON.stringify(small.config), requests: 0 })) + 1_000_000 * 16,
    );
  });

  it('keeps at most maxLanes runs going at once, and ends the idle workers beyond them', async () => {
    let running = 0;
    let most = 0;
    const stopped: number[] = [];
    let made = 0;
    const counting = (): PoolClient => {
      const c = lane();
      const n = made++;
      return {
        request: async (body, transfer, onProgress) => {
          if (body.type !== 'run') return c.request(body, transfer, onProgress);
          most = Math.max(most, ++running);
          try {
            return await c.request(body, transfer, onProgress);
          } finally {
            running--;
          }
        },
        stop: () => {
          stopped.push(n);
          c.stop();
        },
      };
    };
    const pool = new RunPool(counting, 4);
    const jobs = ['page', 'dftl', 'page', 'dftl'].map((scheme, i) => ({ key: `${scheme}${i}`, config: { scheme } }));
    await pool.run(jobs, trace(), () => {});
    expect(most).toBe(4);
    most = 0;
    const events: RunEvent[] = [];
    await pool.run(jobs, trace(), (e) => events.push(e), 1);
    expect(most).toBe(1);
    expect(stopped.sort()).toEqual([1, 2, 3]);
    expect(events.filter((e) => e.kind === 'done')).toHaveLength(4);
  });

  it('reports, for every scheme the engine lists, the same metrics as a direct run of the same config', async () => {
    const pool = new RunPool(lane, 2);
    const events: RunEvent[] = [];
    await pool.run(
      SCHEMES.map((scheme) => ({ key: scheme, config: { scheme } })),
      trace(),
      (e) => events.push(e),
    );
    expect(SCHEMES.length).toBeGreaterThanOrEqual(2);
    for (const scheme of SCHEMES) {
      const done = events.find((e) => e.key === scheme && e.kind === 'done');
      if (done?.kind !== 'done')
        throw new Error(`${scheme}: ${JSON.stringify(events.filter((e) => e.key === scheme))}`);
      expect(JSON.parse(done.json), scheme).toEqual(directRun({ scheme }));
      expect(done.metrics.trace.requests).toBe(1000);
    }
    // Progress counts requests of the trace, and the pool is free for the next comparison.
    const progress = events.filter((e) => e.kind === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) if (p.kind === 'progress') expect(p.total).toBe(1000);
    expect(pool.running).toBe(false);
  });

  it("says how much of the trace each run's worker has read before the run's own progress", async () => {
    const events: RunEvent[] = [];
    await new RunPool(lane, 1).run(
      [{ key: 'page', config: { scheme: 'page' } }],
      trace('tencent-cbs_cloud_storage-sample_50k.csv'),
      (e) => events.push(e),
    );
    const kinds = events.map((e) => e.kind);
    const reading = events.flatMap((e) => (e.kind === 'reading' ? [e.share] : []));
    expect(reading.length).toBeGreaterThan(0);
    expect(reading.at(-1)).toBe(1);
    expect(reading).toEqual([...reading].sort((a, b) => a - b));
    expect(kinds.lastIndexOf('reading')).toBeLessThan(kinds.indexOf('progress'));
  });

  it('keeps a non-default device and scheme option in the run', async () => {
    const config = { scheme: 'dftl', device: { blocks: 96, pages_per_block: 32 }, ram: { bytes: 4096 } };
    const events: RunEvent[] = [];
    await new RunPool(lane, 1).run([{ key: 'dftl', config }], trace(), (e) => events.push(e));
    const done = events.find((e) => e.kind === 'done');
    if (done?.kind !== 'done') throw new Error(JSON.stringify(events));
    expect(JSON.parse(done.json)).toEqual(directRun(config));
  });

  it('Stop ends the running runs and drops the queued ones: every run is reported stopped', async () => {
    const pool = new RunPool(lane, 2);
    const events: RunEvent[] = [];
    const runs = ['page', 'dftl', 'page', 'dftl'].map((scheme, i) => ({ key: `${scheme}${i}`, config: { scheme } }));
    const finished = pool.run(runs, trace('tencent-cbs_cloud_storage-sample_50k.csv'), (e) => {
      events.push(e);
      if (e.kind === 'progress') pool.stop();
    });
    await finished;
    expect(events.filter((e) => e.kind === 'done')).toEqual([]);
    expect(
      events
        .filter((e) => e.kind === 'stopped')
        .map((e) => e.key)
        .sort(),
    ).toEqual(runs.map((r) => r.key).sort());
    expect(pool.running).toBe(false);
  });

  it("reports an engine refusal as that run's error and goes on with the others", async () => {
    const events: RunEvent[] = [];
    await new RunPool(lane, 1).run(
      [
        { key: 'bad', config: { scheme: 'no-such-scheme' } },
        { key: 'page', config: { scheme: 'page' } },
      ],
      trace(),
      (e) => events.push(e),
    );
    expect(events.find((e) => e.key === 'bad' && e.kind === 'error')).toBeDefined();
    expect(events.find((e) => e.key === 'page' && e.kind === 'done')).toBeDefined();
  });
});
