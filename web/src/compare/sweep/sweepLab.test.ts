// The Sweep mode's state over an in-process pool (real wasm engine): expansion by the
// engine, points as they finish, Stop keeping finished points, refusals named.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../../test/coreClient';
import { shippedTrace } from '../../test/wasmNode';
import type { Experiment } from '../../store/experiment';
import { RunPool, type PoolClient } from '../pool';
import { sweepCsv, sweepJson } from './export';
import { SweepLab, type Cold } from './sweepLab';
import { columnsFor } from '../metrics';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function lane(): PoolClient {
  const c = new CoreClient();
  return { request: c.request.bind(c), stop: () => c.cancel() };
}

function coldClient(): Cold {
  const c = new CoreClient();
  return async (call) => (await c.request<'sweep'>({ type: 'sweep', call })).json;
}

function experiment(config: Experiment['config']): Experiment {
  return { traceUrl: '', traceName: TRACE, config, file: new File([shippedTrace(TRACE)], TRACE) };
}

describe('SweepLab', () => {
  it('runs every scheme at every value; each point carries its value in its config and metrics', async () => {
    const pool = new RunPool(lane, 2);
    const lab = new SweepLab(() => pool, coldClient());
    lab.setParam('ram_bytes', '2KiB,8KiB');
    lab.toggle('dftl');
    lab.toggle('tpftl');
    await lab.run(experiment({ scheme: 'page', device: { blocks: 128, pages_per_block: 32 } }), { maxRequests: 300 });
    const st = lab.getState();
    expect(st.error).toBeNull();
    expect(st.key).toBe('ram.bytes');
    expect(st.runs.map((r) => [r.point.label, r.point.scheme, r.status])).toEqual([
      ['2 KiB', 'dftl', 'done'],
      ['2 KiB', 'tpftl', 'done'],
      ['8 KiB', 'dftl', 'done'],
      ['8 KiB', 'tpftl', 'done'],
    ]);
    for (const r of st.runs) {
      const config = (JSON.parse(r.json!) as { config: { ram: { bytes: number }; device: { blocks: number } } }).config;
      expect(config.ram.bytes).toBe(r.point.value);
      expect(config.device.blocks).toBe(128);
      expect(r.metrics!.trace.requests).toBe(300);
    }
    // A bigger cache misses less: the mapping hit ratio does not fall from 2 to 8 KiB.
    const hit = (label: string) => st.runs.find((r) => r.point.label === label && r.point.scheme === 'dftl')!.metrics!.mapping!.hit_ratio;
    expect(hit('8 KiB')).toBeGreaterThanOrEqual(hit('2 KiB'));
    // Exports: a CSV row per point with its value first; JSON in `ftl sweep --json`'s shape.
    const csv = sweepCsv(st.runs, columnsFor(st.runs.map((r) => r.metrics!))).trim().split('\r\n');
    expect(csv[0].startsWith('sweep.trace,sweep.series,sweep.key,sweep.value,sweep.label,scheme,')).toBe(true);
    expect(csv[1].startsWith(`${TRACE},dftl,ram.bytes,2048,2 KiB,dftl,`)).toBe(true);
    const json = JSON.parse(sweepJson('ram.bytes', st.runs)) as { param: string; results: { value: number; metrics: unknown }[] };
    expect(json.param).toBe('ram.bytes');
    expect(json.results.map((r) => r.value)).toEqual([2048, 2048, 8192, 8192]);
    expect(json.results[0].metrics).toEqual(JSON.parse(st.runs[0].json!));
  });

  it("fails a bad value's point alone, with the engine's message naming it, and runs the others", async () => {
    const lab = new SweepLab(() => new RunPool(lane, 1), coldClient());
    lab.setParam('utilization', '0.5,1.5');
    lab.toggle('page');
    await lab.run(experiment({ scheme: 'page' }), {});
    const st = lab.getState();
    expect(st.error).toBeNull();
    expect(st.runs.map((r) => r.status)).toEqual(['done', 'error']);
    expect(st.runs[1].message).toMatch(/device\.utilization/);
    expect(st.runs[1].message).toMatch(/1\.5/);
  });

  it('Stop half way keeps the finished points and marks the rest stopped', async () => {
    const pool = new RunPool(lane, 1);
    const lab = new SweepLab(() => pool, coldClient());
    lab.setParam('ram_bytes', '2KiB,4KiB,8KiB,16KiB');
    lab.toggle('dftl');
    const unsubscribe = lab.subscribe(() => {
      if (lab.getState().runs.filter((r) => r.status === 'done').length === 2) lab.stop();
    });
    await lab.run(experiment({ scheme: 'page', device: { blocks: 128, pages_per_block: 32 } }), { maxRequests: 400 });
    unsubscribe();
    const st = lab.getState();
    expect(st.running).toBe(false);
    expect(st.runs.map((r) => r.status)).toEqual(['done', 'done', 'stopped', 'stopped']);
    expect(st.runs[1].metrics!.trace.requests).toBe(400);
  });
});

describe('SweepLab paper presets', () => {
  it("run on the engine's generated stand-ins or the user's own trace, and report ours beside the paper's with agreement", async () => {
    const cold = coldClient();
    const lab = new SweepLab(() => new RunPool(lane, 2), cold);
    for (const id of ['dftl', 'tpftl']) lab.toggle(id); // ticked in the form before the preset
    const shin = (await lab.catalog()).experiments.find((e) => e.name === 'shin-fig-3')!;
    expect(shin.traces.map((t) => [t.id, t.kind, t.carries_effect])).toEqual([
      ['desktop-a', 'generated', true],
      ['desktop-b', 'generated', true],
    ]);
    // Utilization 0.8 only (index 4), page and FAST-DO: the points of the paper's 21 % row;
    // the user's file (the hm_0 excerpt) in slot desktop-b.
    const info = { ...shin, points: shin.points.filter((p) => p.index === 4 && (p.series === 'page' || p.series === 'fast-do')) };
    await lab.runExperiment(info, { 'desktop-b': new File([shippedTrace(TRACE)], TRACE) });
    const st = lab.getState();
    expect(st.runs.map((r) => [r.trace, r.point.series, r.status])).toEqual([
      ['desktop-a', 'page', 'done'],
      ['desktop-a', 'fast-do', 'done'],
      ['desktop-b', 'page', 'done'],
      ['desktop-b', 'fast-do', 'done'],
    ]);
    // The sweep form shows the schemes the preset ran, not the ones ticked before it.
    expect(st.selected).toEqual(['page', 'fast-do']);
    expect(st.runs[0].metrics!.trace.requests).toBe(75_000);
    expect(st.runs[2].metrics!.trace.requests).toBe(1000);
    const [low, high] = st.report!;
    expect(low.ours, 'needs utilization 0.4-0.6, not run').toBeNull();
    expect(low.agreement.status).toBe('open');
    expect(high.paper).toEqual([21, 21]);
    expect(high.note).toBe('range over desktop-a, desktop-b (your trace)');
    const write = (i: number) => (st.runs[i].metrics as unknown as { response_by_op_us: { write: { mean: number } } }).response_by_op_us.write.mean;
    const cells = [100 * (write(0) / write(1) - 1), 100 * (write(2) / write(3) - 1)];
    expect(high.ours![0]).toBeCloseTo(Math.min(...cells), 9);
    expect(high.ours![1]).toBeCloseTo(Math.max(...cells), 9);
    expect(high.agreement.direction).toBe(cells.every((c) => c >= 0.5));
  });
});

// The CLI's `ftl sweep --json` and the app's sweep of the same settings give the same
// metrics objects (native and wasm engines, one expansion). Needs the native CLI: built by
// `npm run ftl` / `cargo build -p ftl-cli`; skipped, saying so, when it is not there.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
// The newest of the two builds: a release binary left from an older `npm run ftl` must not
// stand in for the debug one `cargo test` just built (it may predate `ftl sweep`).
const CLI = ['release', 'debug']
  .map((p) => `${ROOT}core-wasm/target/${p}/ftl`)
  .filter((f) => existsSync(f))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];

describe('ftl sweep and the app', () => {
  it.skipIf(!CLI)(`print the same numbers for the same sweep${CLI ? '' : ' (skipped: no native ftl binary under core-wasm/target; run npm run ftl -- schemes once)'}`, async () => {
    const cli = JSON.parse(
      execFileSync(CLI!, ['sweep', '--trace', `public/traces/${TRACE}`, '--scheme', 'page', '--scheme', 'dftl', '--param', 'ram_bytes', '--values', '2KiB,8KiB', '--set', 'device.blocks=128', '--first', '500', '--json'], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { param: string; results: { index: number; scheme: string; value: unknown; label: string; metrics: Record<string, unknown> }[] };
    const pool = new RunPool(lane, 2);
    const lab = new SweepLab(() => pool, coldClient());
    lab.setParam('ram_bytes', '2KiB,8KiB');
    lab.toggle('page');
    lab.toggle('dftl');
    await lab.run(experiment({ scheme: 'page', device: { blocks: 128 } }), { maxRequests: 500 });
    const app = JSON.parse(sweepJson(lab.getState().key!, lab.getState().runs)) as typeof cli;
    expect(app.param).toBe(cli.param);
    expect(app.results).toHaveLength(cli.results.length);
    // Only the trace's name differs (a path for the CLI, the file name in the app).
    const norm = (m: Record<string, unknown>) => ({ ...m, trace: { ...(m.trace as object), name: '' } });
    app.results.forEach((a, i) => {
      const c = cli.results[i];
      expect([a.index, a.scheme, a.value, a.label]).toEqual([c.index, c.scheme, c.value, c.label]);
      expect(norm(a.metrics)).toEqual(norm(c.metrics));
    });
  });
});
