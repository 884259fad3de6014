// npm run bench:compare — the comparison's speed bar: a comparison in a pool of wasm workers
// against the same schemes run one after another by the native CLI. Both sides replay the
// same trace and config in fast mode (no events); the pool side is Node worker_threads, each
// with its own wasm instance, as the app's Web Workers (pool size = min(8, cores), as
// compare/pool.ts). Wall-clock times, best of BENCH_REPEAT; also the single-run wasm/native
// ratio, the bar the issue sets ("not slower than the CLI by more than the wasm/native
// ratio"). Never asserted: printed.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const TRACE = process.env.BENCH_TRACE ?? 'public/traces/cloudphysics-vscsi_sample_first60000.csv';
const SCHEMES = (process.env.BENCH_SCHEMES ?? 'page,dftl,tpftl,hcftl').split(',');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 2);
const SETS = [
  'device.blocks=8192',
  'device.pages_per_block=64',
  'device.page_bytes=4096',
  'workload.address_map=dense',
];
const ftl = 'core-wasm/target/release/ftl';

function sh(args) {
  return execFileSync(ftl, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

console.log('building the native CLI (release)…');
execFileSync('cargo', ['build', '--quiet', '--release', '--manifest-path', 'core-wasm/Cargo.toml', '-p', 'ftl-cli'], {
  stdio: 'inherit',
});

const runArgs = [
  'run',
  '--trace',
  TRACE,
  ...SCHEMES.flatMap((s) => ['--scheme', s]),
  ...SETS.flatMap((s) => ['--set', s]),
  '--json',
];
let cliS = Infinity;
let results;
for (let i = 0; i < REPEAT; i++) {
  const t0 = performance.now();
  results = JSON.parse(sh(runArgs)).results;
  cliS = Math.min(cliS, (performance.now() - t0) / 1000);
}
const configs = results.map((m) => m.config);

const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import * as wasm from '${new URL('../web/src/engine/pkg/ftl_wasm.js', import.meta.url).href}';
wasm.initSync({ module: readFileSync(workerData.wasm) });
const bytes = new Uint8Array(readFileSync(workerData.trace));
parentPort.on('message', (config) => {
  const sim = new wasm.Simulation(JSON.stringify(config), bytes, workerData.trace, null);
  while (!sim.done()) sim.stepEngineOnly(4096);
  const m = sim.metricsJson();
  sim.free();
  parentPort.postMessage(m);
});
`;

const size = Math.min(8, Math.max(1, availableParallelism()));
async function pooled() {
  const workers = Array.from(
    { length: Math.min(size, configs.length) },
    () =>
      new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER)}`), {
        workerData: { wasm: 'web/src/engine/pkg/ftl_wasm_bg.wasm', trace: TRACE },
      }),
  );
  const queue = [...configs];
  const out = [];
  const t0 = performance.now();
  await Promise.all(
    workers.map(async (w) => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        w.postMessage(c);
        out.push(JSON.parse(await new Promise((resolve) => w.once('message', resolve))));
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  await Promise.all(workers.map((w) => w.terminate()));
  return { s, out };
}

let poolS = Infinity;
for (let i = 0; i < REPEAT; i++) {
  const { s, out } = await pooled();
  poolS = Math.min(poolS, s);
  for (const m of out) {
    const n = results.find((r) => r.scheme === m.scheme);
    if (n.flash.page_writes !== m.flash.page_writes || n.response_us.mean !== m.response_us.mean)
      throw new Error(`${m.scheme}: wasm and native results differ`);
  }
}

// One run apiece, single-threaded, for the wasm/native ratio.
const wasm = await import('../web/src/engine/pkg/ftl_wasm.js');
wasm.initSync({ module: readFileSync('web/src/engine/pkg/ftl_wasm_bg.wasm') });
const bytes = new Uint8Array(readFileSync(TRACE));
let seqWasmS = 0;
for (const c of configs) {
  const t0 = performance.now();
  const sim = new wasm.Simulation(JSON.stringify(c), bytes, TRACE, null);
  while (!sim.done()) sim.stepEngineOnly(4096);
  sim.free();
  seqWasmS += (performance.now() - t0) / 1000;
}

console.log(
  `\n${SCHEMES.length} schemes on ${TRACE} (${results[0].trace.requests} requests), ${availableParallelism()} cores, pool of ${size}`,
);
console.log(`native CLI, one after another (one process, parse once): ${cliS.toFixed(2)} s`);
console.log(
  `wasm, one after another (one thread):                    ${seqWasmS.toFixed(2)} s  (wasm/native ${(seqWasmS / cliS).toFixed(2)})`,
);
console.log(
  `wasm pool (${size} workers, each parses its own copy):         ${poolS.toFixed(2)} s  (pool/CLI ${(poolS / cliS).toFixed(2)})`,
);
console.log(`bar: pool/CLI <= wasm/native: ${poolS / cliS <= seqWasmS / cliS ? 'met' : 'NOT met'}`);
