// The comparison lab's state over an in-process pool (real wasm engine).
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../test/coreClient';
import { shippedTrace } from '../test/wasmNode';
import type { Experiment } from '../store/experiment';
import type { Cold } from './cold';
import { CompareLab, MAX_SCHEMES } from './lab';
import { RunPool, type PoolClient } from './pool';
import { sortedRuns } from './ResultsTable';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function lane(): PoolClient {
  const c = new CoreClient();
  return { request: c.request.bind(c), stop: () => c.cancel() };
}

/** The engine's cold answers in-process (how much memory a run takes). */
function cold(): Cold {
  const c = new CoreClient();
  return async (call) => (await c.request<'sweep'>({ type: 'sweep', call })).json;
}

function experiment(config: Experiment['config']): Experiment {
  return { traceUrl: '', traceName: TRACE, config, file: new File([shippedTrace(TRACE)], TRACE) };
}

describe('CompareLab', () => {
  it('takes at most 8 schemes, in the order picked', () => {
    const lab = new CompareLab(() => new RunPool(lane, 1));
    for (let i = 0; i < MAX_SCHEMES + 2; i++) lab.toggle(`s${i}`);
    expect(lab.getState().selected).toHaveLength(MAX_SCHEMES);
    lab.toggle('s0');
    expect(lab.getState().selected[0]).toBe('s1');
  });

  it("takes a shared link's comparison: exactly its schemes (once each, at most 8) and its baseline if picked", () => {
    const lab = new CompareLab(() => new RunPool(lane, 1));
    lab.toggle('old');
    lab.choose(['dftl', 'page', 'dftl'], 'page');
    expect(lab.getState()).toMatchObject({ selected: ['dftl', 'page'], baseline: 'page' });
    lab.choose(
      Array.from({ length: 10 }, (_, i) => `s${i}`),
      's9',
    );
    expect(lab.getState()).toMatchObject({
      selected: Array.from({ length: MAX_SCHEMES }, (_, i) => `s${i}`),
      baseline: null,
    });
    lab.choose([]);
    expect(lab.getState()).toMatchObject({ selected: [], baseline: null });
  });

  it("runs the picked schemes on the experiment's device and parse choices; scheme options go only to their own scheme", async () => {
    const lab = new CompareLab(() => new RunPool(lane, 2), cold());
    lab.toggle('page');
    lab.toggle('dftl');
    const device = { blocks: 128, pages_per_block: 32 };
    await lab.run(experiment({ scheme: 'dftl', device, options: { batch_update: true } }), { maxRequests: 300 });
    const st = lab.getState();
    expect(st.running).toBe(false);
    expect(st.baseline).toBe('page'); // the first picked, when none was chosen
    for (const id of ['page', 'dftl']) {
      const r = st.runs[id];
      expect(r.status, r.message).toBe('done');
      expect(r.metrics!.trace.requests).toBe(300);
      const config = (JSON.parse(r.json!) as { config: { device: typeof device; options: Record<string, unknown> } })
        .config;
      expect(config.device).toMatchObject(device);
      if (id === 'dftl') expect(config.options.batch_update).toBe(true);
    }
  });

  it('sorts the rows by a column, the same column again the other way, missing values last', () => {
    const lab = new CompareLab(() => new RunPool(lane, 1));
    const runs = [
      { scheme: 'a', waf: 2, mapping: { hit_ratio: 0.5 } },
      { scheme: 'b', waf: 1 },
      { scheme: 'c', waf: 3, mapping: { hit_ratio: 0.9 } },
    ] as never[];
    lab.sortBy('waf');
    expect(sortedRuns(runs, lab.getState().sort).map((m: { scheme: string }) => m.scheme)).toEqual(['b', 'a', 'c']);
    lab.sortBy('waf');
    expect(sortedRuns(runs, lab.getState().sort).map((m: { scheme: string }) => m.scheme)).toEqual(['c', 'a', 'b']);
    lab.sortBy('mapping.hit_ratio');
    expect(sortedRuns(runs, lab.getState().sort).map((m: { scheme: string }) => m.scheme)).toEqual(['a', 'c', 'b']);
  });
});
