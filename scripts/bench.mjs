// npm run bench: engine throughput natively and as wasm (in Node, and in Chromium's worker as
// the app runs it: scripts/bench-chromium.mjs), for `page` and `dftl`, on a
// seeded 1,000,000-request synthetic trace on a 1 GiB device. Only stepping is timed (not
// parsing or set-up), best of REPEAT runs on both sides (a fresh simulation each; the first
// wasm run also pays for V8's tier-up from baseline to optimised code, which native code
// never does). Both builds must end in the same state hash, or the run fails.
// When ../shared/perf (or $FTL_PERF_DIR) is present, the native schemes are also timed against its minimal C
// simulator on its workload (whole processes, best of three, same WAF first), and native and
// wasm engine-only on that workload too (the wasm target is set against it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as wasm from '../web/src/engine/pkg/ftl_wasm.js';
import { engineOnlyInChromium } from './bench-chromium.mjs';
import { CHROMIUM } from './chromium.mjs';
import { PERF_DIR, benchSchemes } from './bench-schemes.mjs';

const SCHEMES = ['page', 'dftl'];
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000_000);
const SEED = 42;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const dir = 'core-wasm/target/bench';
const trace = `${dir}/uniform-${REQUESTS}-seed${SEED}.csv`;
const ftl = 'core-wasm/target/release/ftl';
// 1 GiB: 4096 blocks x 64 pages x 4 KiB, 7 % over-provisioning.
const SETS = [
  'device.page_bytes=4096',
  'device.pages_per_block=64',
  'device.blocks=4096',
  'device.over_provisioning=0.07',
  'workload.address_map=refuse',
];

function sh(cmd, args) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

console.log('building the native CLI (release)…');
sh('cargo', ['build', '--quiet', '--release', '--manifest-path', 'core-wasm/Cargo.toml', '-p', 'ftl-cli']);
if (!existsSync(trace)) {
  mkdirSync(dir, { recursive: true });
  console.log(`generating ${trace}…`);
  sh(ftl, [
    'generate',
    '--kind',
    'uniform',
    '--count',
    String(REQUESTS),
    '--seed',
    String(SEED),
    '--address-space',
    '800M',
    '--size',
    '4K,8K,16K',
    '--read-share',
    '0.3',
    '--out',
    trace,
  ]);
}

wasm.initSync({ module: readFileSync('web/src/engine/pkg/ftl_wasm_bg.wasm') });

/**
 * Engine only, natively (`ftl bench`) and as wasm in Node, best of REPEAT on each side, on
 * `file` with the `--set` overrides `sets`; both must end in the same state hash. With
 * `app`, also the app's path: the wasm run with checkpoints and response history.
 */
function engineOnly(file, sets, app) {
  const native = sh(ftl, [
    'bench',
    '--trace',
    file,
    '--repeat',
    String(REPEAT),
    ...SCHEMES.flatMap((s) => ['--scheme', s]),
    ...sets.flatMap((s) => ['--set', s]),
  ])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const bytes = new Uint8Array(readFileSync(file));
  return native.map((n) => {
    let sim;
    let seconds = Infinity;
    let wasmCpu = Infinity;
    for (let i = 0; i < REPEAT; i++) {
      sim?.free();
      sim = new wasm.Simulation(JSON.stringify(n.config), bytes, file);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      while (!sim.done()) sim.stepEngineOnly(1 << 20);
      seconds = Math.min(seconds, (performance.now() - t0) / 1000);
      const c = process.cpuUsage(c0);
      wasmCpu = Math.min(wasmCpu, (c.user + c.system) / 1e6);
    }
    let appS;
    if (app) {
      const run = new wasm.Simulation(JSON.stringify(n.config), bytes, file);
      const t1 = performance.now();
      while (!run.done()) run.step(1 << 20);
      appS = (performance.now() - t1) / 1000;
      if (run.stateHash() !== sim.stateHash()) throw new Error(`${n.scheme}: checkpointed run diverged`);
      run.free();
    }
    const m = JSON.parse(sim.metricsJson());
    const ops = m.requests.pages_read + m.requests.pages_written + m.requests.pages_trimmed;
    const hash = sim.stateHash();
    sim.free();
    if (hash !== n.state_hash) throw new Error(`${n.scheme}: wasm state ${hash} differs from native ${n.state_hash}`);
    return {
      scheme: n.scheme,
      config: n.config,
      file,
      hash,
      ops,
      native: n.page_ops_per_sec,
      nativeS: n.seconds,
      wasm: ops / seconds,
      wasmS: seconds,
      appS,
      nativeCpu: n.cpu_seconds,
      wasmCpu,
    };
  });
}

const rows = engineOnly(trace, SETS, true);

// The speed-of-light reference (../shared/perf/README.md): its workload, same WAF, whole
// processes timed (parse included), best of three, in this sitting; then engine only on it. The C simulator models
// page mapping only: for dftl the ratio says how far DFTL's extra work puts it from it. HCFTL
// is timed on it too (best of three, 2 MiB of RAM), against the issue's 3 s.
const PERF = PERF_DIR;
const ref = {};
let rowsB = [];
if (existsSync(`${PERF}/sol-pagemap.c`)) {
  const workload = `${dir}/syn_w100_pf.csv`;
  if (!existsSync(workload)) sh('python3', [`${PERF}/make-workload.py`, workload]);
  sh('gcc', ['-O2', '-o', `${dir}/sol`, `${PERF}/sol-pagemap.c`]);
  const best = (cmd, args, waf) => {
    let s = Infinity;
    let w = 0;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      w = waf(sh(cmd, args));
      s = Math.min(s, (performance.now() - t) / 1000);
    }
    return { s, waf: w };
  };
  ref.sol = best(`${dir}/sol`, [workload, '4294967296', '64', '0.2'], (out) => JSON.parse(out).waf);
  const sets = [
    'device.blocks=16384',
    'device.pages_per_block=64',
    'device.page_bytes=4096',
    'device.over_provisioning=0.2',
  ];
  const run = (scheme, extra = []) =>
    best(
      ftl,
      ['run', '--trace', workload, '--scheme', scheme, '--json', ...[...sets, ...extra].flatMap((s) => ['--set', s])],
      (out) => JSON.parse(out).results[0].waf,
    );
  for (const scheme of SCHEMES) ref[scheme] = run(scheme);
  // HCFTL on this workload, with the scheme table's 2 MiB of RAM: the issue asks for under 3 s.
  ref.hcftl = run('hcftl', ['ram.bytes=2097152']);
  if (ref.sol.waf.toFixed(3) !== ref.page.waf.toFixed(3)) {
    throw new Error(
      `reference WAF ${ref.sol.waf} differs from the engine's ${ref.page.waf}: the times are not comparable`,
    );
  }
  // The issue's wasm target is set on this workload too: engine only, native vs wasm.
  rowsB = engineOnly(workload, sets, false);
}

// The same runs in Chromium, one browser for all of them; same state hash as native.
const chromiumRuns = [...rows, ...rowsB];
// A browser that cannot start costs its column, not the figures above.
let inChromium = null;
let chromiumFailed = null;
try {
  inChromium = await engineOnlyInChromium('web/src/engine/pkg', chromiumRuns, REPEAT);
} catch (e) {
  chromiumFailed = e.message.split('\n')[0];
}
inChromium?.results.forEach((c, i) => {
  const r = chromiumRuns[i];
  if (c.hash !== r.hash) throw new Error(`${r.scheme}: wasm state in Chromium ${c.hash} differs from native ${r.hash}`);
  r.chromiumS = c.seconds;
});

const f2 = (x) => x.toFixed(2);
const pad = (x, n) => String(x).padStart(n);
console.log(
  `\nA: ${REQUESTS.toLocaleString('en-US')} requests, 1 GiB device (4096 x 64 x 4 KiB), uniform random, 30 % reads, seed ${SEED};`,
);
console.log(`   engine only (stepping; parse and set-up not timed), best of ${REPEAT} on both sides.`);
console.log('   "app" = wasm with checkpoints and response history, as in the browser.');
if (ref.sol) {
  console.log(
    `B: the C reference's workload (${PERF}): 4 GiB device, 1.84 M page writes, WAF ${ref.page.waf.toFixed(3)} for both;`,
  );
  console.log(`   engine only as A, and against the C reference as whole processes (parse included), best of 3.`);
  console.log('   The C simulator is page mapping: the 1.5x target is for page.');
} else {
  console.log(`B: no ${PERF}/sol-pagemap.c (set FTL_PERF_DIR to the C reference's directory): no comparison with it.`);
}
console.log('');
console.log('               |            wasm in Node 20                 |  wasm in Chromium');
console.log('engine only    |  native s   wasm s   wasm/native   (CPU)   app s |  wasm s   wasm/native');
const line = (w, r) => {
  const cpu = r.nativeCpu ? pad(f2(r.nativeCpu / r.wasmCpu), 5) : pad('-', 5);
  const app = r.appS === undefined ? pad('-', 5) : pad(f2(r.appS), 5);
  const chromium =
    r.chromiumS === undefined
      ? `${pad('-', 7)}   ${pad('-', 11)}`
      : `${pad(f2(r.chromiumS), 7)}   ${pad(f2(r.nativeS / r.chromiumS), 11)}`;
  console.log(
    `${w} ${r.scheme.padEnd(12)} | ${pad(f2(r.nativeS), 9)}   ${pad(f2(r.wasmS), 6)}   ${pad(f2(r.wasm / r.native), 11)}   ${cpu}   ${app} | ${chromium}`,
  );
};
rows.forEach((r) => line('A', r));
rowsB.forEach((r) => line('B', r));
console.log(
  '(CPU) = wasm/native from CPU time instead of wall time: the fairer figure when other work shares the cores.',
);
if (inChromium) {
  console.log(
    `Chromium = ${inChromium.version} (the browser the app and the e2e tests run), a module worker as in the app; wall time (a worker has no CPU clock), against native wall time.`,
  );
} else if (chromiumFailed) {
  console.log(`Chromium at ${CHROMIUM} failed, no browser figures: ${chromiumFailed}`);
} else {
  console.log(`Chromium: not found at ${CHROMIUM} (set CHROMIUM_PATH): no browser figures.`);
}
if (ref.sol) {
  console.log('');
  console.log('B, whole process |  native s   reference s   native/reference');
  for (const r of rows) {
    const b = ref[r.scheme];
    console.log(
      `  ${r.scheme.padEnd(14)} | ${pad(f2(b.s), 9)}   ${pad(f2(ref.sol.s), 11)}   ${pad(f2(b.s / ref.sol.s) + 'x', 16)}`,
    );
  }
}
console.log(
  `\nPage operations: ${[...rows.map((r) => `A ${r.scheme} ${r.ops.toLocaleString('en-US')}`), ...rowsB.map((r) => `B ${r.scheme} ${r.ops.toLocaleString('en-US')}`)].join(', ')}.`,
);
if (ref.hcftl)
  console.log(
    `B, hcftl with 2 MiB of RAM, whole process: ${f2(ref.hcftl.s)} s (WAF ${ref.hcftl.waf.toFixed(3)}); the target is under 3 s.`,
  );
console.log('Targets (on B): wasm/native >= 0.65 for page and dftl; page native/reference <= 1.5x; hcftl under 3 s.');

// Every scheme on one workload (a fill, then uniform random writes), natively: time,
// flash operations per second against page, peak memory, peer simulators; and the
// 16 x 8-unit case (scripts/bench-schemes.mjs).
await benchSchemes();
