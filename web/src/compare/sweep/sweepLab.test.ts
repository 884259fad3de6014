// The Sweep mode's state over an in-process pool (real wasm engine): expansion by the
// engine, points as they finish, Stop keeping finished points, refusals named.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../../test/coreClient';
import { shippedTrace } from '../../test/wasmNode';
import type { Experiment } from '../../store/experiment';
import { RunPool, type PoolClient } from '../pool';
import { sweepCsv, sweepJson } from './export';
import { SweepLab, type Cold, type Extent } from './sweepLab';
import { deviceSizes } from './deviceSizes';
import { streamTrace } from '../../engine/traceStream';
import type { Reading } from '../pool';
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

/** Measures a trace's extent in-process, as the app's own worker does. */
function extentClient(): Extent {
  const c = new CoreClient();
  return async (trace, signal) =>
    (await streamTrace(c, await trace.open(signal), trace.choices, () => {}, signal)).summary.end_max;
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
    const hit = (label: string) =>
      st.runs.find((r) => r.point.label === label && r.point.scheme === 'dftl')!.metrics!.mapping!.hit_ratio;
    expect(hit('8 KiB')).toBeGreaterThanOrEqual(hit('2 KiB'));
    // Exports: a CSV row per point with its value first; JSON in `ftl sweep --json`'s shape.
    const csv = sweepCsv(st.runs, columnsFor(st.runs.map((r) => r.metrics!)))
      .trim()
      .split('\r\n');
    expect(csv[0].startsWith('sweep.trace,sweep.series,sweep.key,sweep.value,sweep.label,scheme,')).toBe(true);
    expect(csv[1].startsWith(`${TRACE},dftl,ram.bytes,2048,2 KiB,dftl,`)).toBe(true);
    const json = JSON.parse(sweepJson('ram.bytes', st.runs)) as {
      param: string;
      results: { value: number; metrics: unknown }[];
    };
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
    const lab = new SweepLab(() => new RunPool(lane, 2), cold, extentClient());
    for (const id of ['dftl', 'tpftl']) lab.toggle(id); // ticked in the form before the preset
    const shin = (await lab.catalog()).experiments.find((e) => e.name === 'shin-fig-3')!;
    expect(shin.traces.map((t) => [t.id, t.kind, t.carries_effect])).toEqual([
      ['desktop-a', 'generated', true],
      ['desktop-b', 'generated', true],
    ]);
    // Utilization 0.8 only (index 4), page and FAST-DO: the points of the paper's 21 % row;
    // the user's file (the hm_0 excerpt) in slot desktop-b.
    const info = {
      ...shin,
      points: shin.points.filter((p) => p.index === 4 && (p.series === 'page' || p.series === 'fast-do')),
    };
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
    const write = (i: number) =>
      (st.runs[i].metrics as unknown as { response_by_op_us: { write: { mean: number } } }).response_by_op_us.write
        .mean;
    const cells = [100 * (write(0) / write(1) - 1), 100 * (write(2) / write(3) - 1)];
    expect(high.ours![0]).toBeCloseTo(Math.min(...cells), 9);
    expect(high.ours![1]).toBeCloseTo(Math.max(...cells), 9);
    expect(high.agreement.direction).toBe(cells.every((c) => c >= 0.5));
  });
});

describe('SweepLab on a footprint axis', () => {
  // A user's trace of 160 MiB (so Shin's device keeps GC's spare blocks at u = 0.9):
  // sequential 64 KiB writes over [0, 160 MiB), twice.
  const FOOTPRINT = 160 << 20;
  const userTrace = () => {
    const lines = ['op,offset,size,time_us'];
    for (let pass = 0; pass < 2; pass++)
      for (let at = 0; at < FOOTPRINT; at += 65536) lines.push(`W,${at},65536,${lines.length * 100}`);
    return new File([lines.join('\n')], 'mine.csv');
  };

  it("sizes Shin's device around the user's own trace's footprint, as the CLI does, and shows each size", async () => {
    const cold = coldClient();
    const lab = new SweepLab(() => new RunPool(lane, 2), cold, extentClient());
    const shin = (await lab.catalog()).experiments.find((e) => e.name === 'shin-fig-3')!;
    expect(shin.param).toBe('footprint_utilization');
    // Page mapping only, every utilization: the user's trace in slot desktop-b.
    const info = { ...shin, points: shin.points.filter((p) => p.series === 'page') };
    await lab.runExperiment(info, { 'desktop-b': userTrace() });
    const st = lab.getState();
    expect(st.error).toBeNull();
    const mine = st.runs.filter((r) => r.trace === 'desktop-b');
    const theirs = st.runs.filter((r) => r.trace === 'desktop-a');
    expect(
      mine.map((r) => r.status),
      mine[0].message,
    ).toEqual(info.points.map(() => 'done'));
    expect(st.traceInfo).toEqual([
      { name: 'desktop-a', footprintBytes: null, user: false },
      { name: 'desktop-b', footprintBytes: FOOTPRINT, user: true },
    ]);
    type Device = {
      blocks: number;
      pages_per_block: number;
      page_bytes: number;
      over_provisioning: number;
      utilization: number;
    };
    for (const r of mine) {
      const u = Number(r.point.value);
      const d = (JSON.parse(r.json!) as { config: { device: Device } }).config.device;
      // The run used the point's device, and that device is sized around 160 MiB at u (seed
      // 004's utilization, the engine's footprint_base): the fewest blocks whose physical
      // capacity keeps footprint / capacity at most u.
      expect(d.blocks).toBe((r.point.config as { device: Device }).device.blocks);
      const physical = (blocks: number) => blocks * d.pages_per_block * d.page_bytes;
      const logical = (blocks: number) => physical(blocks) * (1 - d.over_provisioning);
      expect(FOOTPRINT / physical(d.blocks)).toBeLessThanOrEqual(u + 1e-9);
      expect(FOOTPRINT / physical(d.blocks - 1)).toBeGreaterThan(u);
      // The whole footprint is pre-filled: the pre-filled share of the logical space.
      expect(d.utilization).toBeCloseTo(FOOTPRINT / logical(d.blocks), 2);
      expect(d.utilization).toBeLessThanOrEqual(1);
    }
    // The experiment's own stand-in keeps its own, larger sizing at the same utilization.
    const blocksOf = (r: (typeof mine)[number]) => (r.point.config as { device: Device }).device.blocks;
    expect(blocksOf(theirs[0])).toBeGreaterThan(blocksOf(mine[0]));
    // What the panel shows: one row per trace, a device per utilization, smaller as u grows.
    const shown = deviceSizes(st.runs, st.traceInfo);
    expect(shown.map((t) => [t.trace, t.user, t.footprintBytes, t.sizes.length])).toEqual([
      ['desktop-a', false, null, info.points.length],
      ['desktop-b', true, FOOTPRINT, info.points.length],
    ]);
    const sizes = shown[1].sizes;
    expect(sizes.map((s) => s.blocks)).toEqual(mine.map(blocksOf));
    for (let i = 1; i < sizes.length; i++) expect(sizes[i].bytes).toBeLessThan(sizes[i - 1].bytes);
    for (const s of sizes) expect(s.bytes).toBe(s.blocks * 1024 * 1024);
  });

  it("Stop while the user's trace is measured ends the preset before any run", async () => {
    const lab = new SweepLab(() => new RunPool(lane, 1), coldClient(), extentClient());
    const shin = (await lab.catalog()).experiments.find((e) => e.name === 'shin-fig-3')!;
    const started = lab.runExperiment(shin, { 'desktop-b': userTrace() });
    expect(lab.getState().running).toBe(true);
    lab.stop();
    await started;
    expect(lab.getState()).toMatchObject({ running: false, error: null, runs: [] });
  });
});

describe('SweepLab over-time readings', () => {
  it("take the experiment's readings through each run, ending at the run's own metrics", async () => {
    const cold = coldClient();
    const lab = new SweepLab(() => new RunPool(lane, 2), cold, extentClient());
    const hc = (await lab.catalog()).experiments.find((e) => e.name === 'hcftl-figs-4-5')!;
    expect(hc.over_time).toContain('mapping.hit_ratio');
    // The short real excerpt only (its slot name is the registry's), DFTL and HCFTL.
    const excerpt = hc.traces.find((t) => t.kind === 'shipped' && (t.max_requests ?? 0) <= 1000)!;
    const info = {
      ...hc,
      traces: [excerpt],
      points: hc.points.filter((p) => p.series === 'dftl' || p.series === 'hcftl'),
    };
    await lab.runExperiment(info, { [excerpt.id]: new File([shippedTrace(TRACE)], TRACE) });
    const st = lab.getState();
    expect(st.runs.map((r) => r.status)).toEqual(['done', 'done']);
    for (const r of st.runs) {
      const readings = r.readings as Reading[];
      const total = r.metrics!.trace.requests;
      expect(readings.length).toBe(10);
      expect(readings.map((x) => x.requests_done)).toEqual(
        Array.from({ length: 10 }, (_, i) => Math.min(total, (i + 1) * Math.ceil(total / 10))),
      );
      expect(readings.at(-1)!.values['mapping.hit_ratio']).toBe(r.metrics!.mapping!.hit_ratio);
      expect(Object.keys(readings[0].values).sort()).toEqual([...hc.over_time].sort());
    }
    // Only HCFTL has a DTP index.
    const occ = (series: string) =>
      st.runs.find((r) => r.point.series === series)!.readings!.map((x) => x.values.dtp_index_occupancy);
    expect(occ('dftl').every((v) => v == null)).toBe(true);
    expect(occ('hcftl').every((v) => typeof v === 'number' && v >= 0 && v <= 1)).toBe(true);
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
  it.skipIf(!CLI)(
    `print the same numbers for the same sweep${CLI ? '' : ' (skipped: no native ftl binary under core-wasm/target; run npm run ftl -- schemes once)'}`,
    async () => {
      const cli = JSON.parse(
        execFileSync(
          CLI!,
          [
            'sweep',
            '--trace',
            `public/traces/${TRACE}`,
            '--scheme',
            'page',
            '--scheme',
            'dftl',
            '--param',
            'ram_bytes',
            '--values',
            '2KiB,8KiB',
            '--set',
            'device.blocks=128',
            '--first',
            '500',
            '--json',
          ],
          {
            cwd: ROOT,
            encoding: 'utf8',
          },
        ),
      ) as {
        param: string;
        results: { index: number; scheme: string; value: unknown; label: string; metrics: Record<string, unknown> }[];
      };
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
    },
  );
  it.skipIf(!CLI)(
    `size Shin's devices around the user's traces and measure the same numbers${CLI ? '' : ' (skipped: no native ftl binary)'}`,
    async () => {
      // Two traces of ours, one per slot: 160 MiB and 320 MiB of sequential 64 KiB writes.
      const csv = (bytes: number) =>
        [
          'op,offset,size,time_us',
          ...Array.from({ length: bytes / 65536 }, (_, i) => `W,${i * 65536},65536,${i * 100}`),
        ].join('\n');
      const dir = mkdtempSync(join(tmpdir(), 'ftl-shin-'));
      const files = { 'desktop-a': csv(160 << 20), 'desktop-b': csv(320 << 20) };
      for (const [id, text] of Object.entries(files)) writeFileSync(join(dir, `${id}.csv`), text);
      const cli = JSON.parse(
        execFileSync(
          CLI!,
          [
            'sweep',
            '--experiment',
            'shin-fig-3',
            ...Object.keys(files).flatMap((id) => ['--trace-file', `${id}=${join(dir, `${id}.csv`)}`]),
            '--json',
          ],
          { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 },
        ),
      ) as { results: { trace: string; series: string; index: number; metrics: Record<string, unknown> }[] };
      const lab = new SweepLab(() => new RunPool(lane, 2), coldClient(), extentClient());
      const shin = (await lab.catalog()).experiments.find((e) => e.name === 'shin-fig-3')!;
      await lab.runExperiment(
        shin,
        Object.fromEntries(Object.entries(files).map(([id, text]) => [id, new File([text], `${id}.csv`)])),
      );
      const app = lab.getState().runs;
      expect(app.every((r) => r.status === 'done')).toBe(true);
      expect(app).toHaveLength(cli.results.length);
      const norm = (m: Record<string, unknown>) => ({ ...m, trace: { ...(m.trace as object), name: '' } });
      // The pre-filled share crosses JSON twice more on the app's side (engine to page to
      // worker) and may come back one unit in the last place off: compared to 1e-12, and
      // everything else exactly (the device, the pre-fill and every counter).
      type WithDevice = { config: { device: { utilization: number } } };
      const share = (m: Record<string, unknown>) => {
        const d = (m as WithDevice).config.device;
        const u = d.utilization;
        d.utilization = 0;
        return u;
      };
      for (const c of cli.results) {
        const a = app.find((r) => r.trace === c.trace && r.point.series === c.series && r.point.index === c.index)!;
        const [mine, theirs] = [norm(JSON.parse(a.json!) as Record<string, unknown>), norm(c.metrics)];
        expect(share(mine)).toBeCloseTo(share(theirs), 12);
        expect(mine, `${c.trace} ${c.series} ${c.index}`).toEqual(theirs);
      }
    },
  );
});
