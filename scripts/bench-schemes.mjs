// Every scheme on one workload, natively: the table of `npm run bench` (also runnable alone:
// `node scripts/bench-schemes.mjs`, after a release build of the CLI).
//
// Workload: a sequential fill of 1 GiB in 4 KiB pages, then 1,000,000 uniform
// random 4 KiB writes (seeded), on 5,120 blocks x 64 pages x 4 KiB with 20 % spare, 2 MiB of
// RAM, closed loop. Each scheme runs in its own process (`ftl bench`: stepping timed, parse
// and set-up not), so its peak resident memory is its own. Flash operations = page reads,
// programs, erases and OOB reads: the simulated work, whatever a scheme's requests cost it.
//
// Each scheme is timed in BENCH_PAIRS (default 3) alternating pairs with `page`: page, the
// scheme, page, the scheme... Its "vs page" is the median of the pairs' ratios, so a moment of
// load on a shared machine moves one pair, not the table, and page's time (the denominator of
// every row) is measured beside each scheme rather than once. Every run of a scheme must end in
// the same state hash and flash operations, or the table says so.
//
// A second table runs the 16-channel case (16 x 8 units, the same device otherwise, full
// translation pages) for the demand family, beside its 1 x 1 figure: the cost should not grow
// with the unit count.
//
// Peer simulators: the fastest one measured on the shared 4 GiB workload for each scheme
// (../shared/perf/README.md); the engine runs that workload as a whole process (parse
// included, as the peers were timed) and the ratio is engine / peer, from the README's times
// (another sitting: a rough figure).
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const ftl = 'core-wasm/target/release/ftl';
const dir = 'core-wasm/target/bench';
const PAGES = 262_144; // 1 GiB of 4 KiB pages
const RANDOM = Number(process.env.BENCH_RANDOM_WRITES ?? 1_000_000);
const SEED = 24;
const PAIRS = Math.max(1, Number(process.env.BENCH_PAIRS ?? 3));
const trace = `${dir}/fill-then-uniform-${RANDOM}-seed${SEED}.csv`;
/** The C reference and its shared 4 GiB workload (../shared/perf/README.md): `FTL_PERF_DIR`,
 * or ../shared/perf beside the checkout (a worktree elsewhere sets the variable). */
export const PERF_DIR = process.env.FTL_PERF_DIR ?? '../shared/perf';

const SETS = [
  'device.blocks=5120',
  'device.pages_per_block=64',
  'device.page_bytes=4096',
  'device.over_provisioning=0.2',
  'ram.bytes=2097152',
];
/** Fastest peer per scheme on the shared 4 GiB workload (../shared/perf/README.md). */
const PEERS = {
  page: { name: 'sssl-ftlsim', seconds: 0.79 },
  dftl: { name: 'FlashSim', seconds: 17.8 },
};

function sh(cmd, args) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
}

/** SplitMix64 over BigInt, reduced to `n`: the same trace on every machine. */
function* uniform(seed, n) {
  let s = BigInt(seed);
  const mask = (1n << 64n) - 1n;
  for (;;) {
    s = (s + 0x9e3779b97f4a7c15n) & mask;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    z ^= z >> 31n;
    yield Number(z % BigInt(n));
  }
}

async function writeTrace() {
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(trace);
  const lines = ['op,offset,size,time_us'];
  const flush = async () => {
    if (!out.write(lines.join('\n') + '\n')) await new Promise((r) => out.once('drain', r));
    lines.length = 0;
  };
  for (let p = 0; p < PAGES; p++) {
    lines.push(`W,${p * 4096},4096,0`);
    if (lines.length >= 65536) await flush();
  }
  const rnd = uniform(SEED, PAGES);
  for (let i = 0; i < RANDOM; i++) {
    lines.push(`W,${rnd.next().value * 4096},4096,0`);
    if (lines.length >= 65536) await flush();
  }
  await flush();
  await new Promise((r) => out.end(r));
}

function schemes() {
  return JSON.parse(sh(ftl, ['schemes', '--json'])).map((s) => s.id);
}

function benchOne(file, scheme, sets) {
  const line = sh(ftl, ['bench', '--trace', file, '--scheme', scheme, ...sets.flatMap((s) => ['--set', s])]).trim();
  return JSON.parse(line);
}

/** The median of `xs` (the mean of the middle two for an even count). */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** CPU seconds of a run's stepping, or wall seconds where the OS gives no CPU time (on a
 * shared machine wall time includes waiting for a core). */
const cpu = (r) => r.cpu_seconds ?? r.seconds;
/** Flash operations per CPU second. */
const rate = (r) => r.flash_ops / cpu(r);

/** Throws when runs of one configuration disagree on the state hash or the flash operations:
 * the engine is deterministic, so that is a fault, not noise. */
function assertSameWork(runs) {
  const odd = runs.find((r) => r.state_hash !== runs[0].state_hash || r.flash_ops !== runs[0].flash_ops);
  if (odd) {
    throw new Error(
      `runs disagree: state ${runs[0].state_hash} / ${odd.state_hash}, flash ops ${runs[0].flash_ops} / ${odd.flash_ops}`,
    );
  }
}

/**
 * `id` in PAIRS alternating pairs with page (page alone: PAIRS runs): the median run by CPU
 * time, the largest peak, and `vsPage`, the median of the pairs' rate ratios.
 */
function pairedWithPage(id) {
  const runs = [];
  const ratios = [];
  for (let k = 0; k < PAIRS; k++) {
    const base = id === 'page' ? null : benchOne(trace, 'page', SETS);
    const r = benchOne(trace, id, SETS);
    runs.push(r);
    ratios.push(base ? rate(r) / rate(base) : 1);
  }
  assertSameWork(runs);
  const mid = [...runs].sort((a, b) => cpu(a) - cpu(b))[runs.length >> 1];
  return {
    ...mid,
    peak_rss_bytes: Math.max(...runs.map((r) => r.peak_rss_bytes ?? 0)) || null,
    vsPage: median(ratios),
  };
}

export async function benchSchemes() {
  if (!existsSync(trace)) {
    console.log(`generating ${trace}…`);
    await writeTrace();
  }
  const ids = schemes();
  const rows = ids.map((id) => {
    try {
      return { id, ...pairedWithPage(id) };
    } catch (e) {
      return { id, error: String(e.message).split('\n')[0] };
    }
  });
  const page = rows.find((r) => r.id === 'page');
  const f2 = (x) => x.toFixed(2);
  const pad = (x, n) => String(x).padStart(n);
  const mb = (b) => (b == null ? '-' : `${Math.round(b / 2 ** 20)}`);

  // Peers: the shared 4 GiB workload, whole processes.
  const peer = {};
  const PERF = PERF_DIR;
  if (existsSync(`${PERF}/make-workload.py`)) {
    const workload = `${dir}/syn_w100_pf.csv`;
    if (!existsSync(workload)) sh('python3', [`${PERF}/make-workload.py`, workload]);
    const sets = [
      'device.blocks=16384',
      'device.pages_per_block=64',
      'device.page_bytes=4096',
      'device.over_provisioning=0.2',
      'ram.bytes=2097152',
    ];
    for (const id of Object.keys(PEERS)) {
      const t = performance.now();
      sh(ftl, ['run', '--trace', workload, '--scheme', id, '--json', ...sets.flatMap((s) => ['--set', s])]);
      peer[id] = (performance.now() - t) / 1000;
    }
  } else {
    console.log(
      `\nPeers: no ${PERF}/make-workload.py (set FTL_PERF_DIR to the C reference's directory): peer column empty.`,
    );
  }

  console.log(
    `\nEvery scheme: fill 1 GiB sequentially, then ${RANDOM.toLocaleString('en-US')} uniform random 4 KiB writes;`,
  );
  console.log(
    '5120 x 64 x 4 KiB, 20 % spare, 2 MiB RAM, closed loop (translation pages of 64 entries, the engine default).',
  );
  console.log(
    `${PAIRS} alternating pairs with page per scheme (BENCH_PAIRS), own processes, engine only; the median run`,
  );
  console.log("and the median of the pairs' ratios; flash ops/s per CPU second (wall time where the OS gives");
  console.log("no CPU time); peak = the largest resident memory of the scheme's processes.");
  console.log(
    'scheme      |  time s   CPU s   flash ops   flash ops/s   vs page   peak MB   vs page | peer (4 GiB workload)',
  );
  for (const r of rows) {
    if (r.error) {
      console.log(`${r.id.padEnd(11)} | ${r.error}`);
      continue;
    }
    const rel = f2(r.vsPage);
    const mem = page?.peak_rss_bytes ? f2(r.peak_rss_bytes / page.peak_rss_bytes) : '-';
    const p =
      PEERS[r.id] && peer[r.id]
        ? `${f2(peer[r.id])} s vs ${PEERS[r.id].name} ${PEERS[r.id].seconds} s: ${f2(peer[r.id] / PEERS[r.id].seconds)}x`
        : '';
    console.log(
      `${r.id.padEnd(11)} | ${pad(f2(r.seconds), 7)} ${pad(r.cpu_seconds == null ? '-' : f2(r.cpu_seconds), 7)} ${pad(r.flash_ops.toLocaleString('en-US'), 11)} ${pad(Math.round(rate(r)).toLocaleString('en-US'), 13)} ${pad(rel, 9)} ${pad(mb(r.peak_rss_bytes), 9)} ${pad(mem, 9)} | ${p}`,
    );
  }

  // The bar, read off the table: every scheme at half of page's rate or better, and
  // no peak above four times page's.
  if (page) {
    const ok = rows.filter((r) => !r.error);
    const slow = ok.filter((r) => r.vsPage < 0.5).map((r) => `${r.id} (${f2(r.vsPage)})`);
    const big = page.peak_rss_bytes
      ? ok.filter((r) => r.peak_rss_bytes > 4 * page.peak_rss_bytes).map((r) => r.id)
      : [];
    console.log(`Below 0.5 of page's rate: ${slow.length ? slow.join(', ') : 'none'}.`);
    console.log(`Peak memory above 4x page's: ${big.length ? big.join(', ') : 'none'}.`);
  }

  // Units: 1 x 1 against 16 x 8, same device and trace, every demand-paged scheme. Translation
  // pages are full (1024 entries of a 4 KiB page, as in the sources and the presets): with the
  // teaching device's 64, APS, JTL and TreeFTL stop part-way on 16 x 8 units (the known limit
  // in their notes), so the table could not compare them.
  console.log(
    `\nUnit count (the same run on 1 x 1 and 16 x 8 units, ${PAIRS} alternating pairs, medians; time should not grow with units),`,
  );
  console.log('with full translation pages (device.translation_page_entries=0: 1024 entries). The 16 x 8 run');
  console.log('does more flash work (each unit fills its own blocks), so "per op" divides each time by its own');
  console.log('flash operations: the ratio of the cost of the same flash work.');
  console.log('scheme      |  1x1 CPU s   16x8 CPU s   ratio   per op   flash ops 1x1 / 16x8');
  const full = [...SETS, 'device.translation_page_entries=0'];
  for (const id of ['page', 'dftl', 'cdftl', 'tpftl', 'hcftl', 'treeftl', 'tree-pl', 'aps', 'jtl']) {
    try {
      // PAIRS alternating pairs; the medians of each side and of the pairs' ratios.
      const pairs = Array.from({ length: PAIRS }, () => [
        benchOne(trace, id, full),
        benchOne(trace, id, [...full, 'device.channels=16', 'device.ways=8']),
      ]);
      assertSameWork(pairs.map(([o]) => o));
      assertSameWork(pairs.map(([, m]) => m));
      const [one, many] = pairs[0];
      const oneCpu = median(pairs.map(([o]) => cpu(o)));
      const manyCpu = median(pairs.map(([, m]) => cpu(m)));
      const ratio = median(pairs.map(([o, m]) => cpu(m) / cpu(o)));
      const perOp = median(pairs.map(([o, m]) => cpu(m) / m.flash_ops / (cpu(o) / o.flash_ops)));
      console.log(
        `${id.padEnd(11)} | ${pad(f2(oneCpu), 10)}   ${pad(f2(manyCpu), 10)}   ${pad(f2(ratio), 5)}   ${pad(f2(perOp), 6)}   ${one.flash_ops.toLocaleString('en-US')} / ${many.flash_ops.toLocaleString('en-US')}`,
      );
    } catch (e) {
      console.log(`${id.padEnd(11)} | ${String(e.message).split('\n')[0]}`);
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchSchemes();
}
