// A benchmark, not a test: a 1,000,000-request trace under every scheme in the Compare tab
// of the production build, in Debian's Chromium, as a user runs it (upload in the Trace tab,
// then Compare, at most eight schemes a run). Prints, per scheme, the wall time from its
// start to its result (the worker parses its own copy of the trace first: that share is
// printed too), refusals as the app words them, the main thread's longest task while the
// comparisons run, its peak JS heap, and the peak resident memory of the browser's
// processes (sampled from /proc every 250 ms; the page's renderer holds the workers).
//
//   node scripts/browser-compare-1m.mjs            # builds the app first (vite build)
//   BENCH_REQUESTS=200000 BENCH_NO_BUILD=1 node scripts/browser-compare-1m.mjs
//
// The trace is synthetic (plain CSV, `op,offset,size,time_us`): 4 KiB requests, 70 % writes,
// 80 % of them on a hot fifth of a 256 MiB space, seeded. The device is 2,048 blocks x 64
// pages x 4 KiB (512 MiB, the default 25 % over-provisioning), set through the app's test
// hook after the upload. Nothing is asserted: numbers are printed (docs/perf.md).
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { launchOptions } from './chromium.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000_000);
const PORT = Number(process.env.BENCH_PORT ?? 4190);
const DEVICE = { blocks: 2048, pages_per_block: 64, page_bytes: 4096 };
const SPACE = 256 << 20;
const BATCH = 8; // the Compare tab's most schemes a run
const TRACE = join(tmpdir(), `ftl-compare-${REQUESTS}.csv`);

/** The synthetic trace, written once (xorshift32, seed 1). */
async function writeTrace() {
  if (existsSync(TRACE)) return;
  let s = 1;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const pages = SPACE / 4096;
  const out = createWriteStream(TRACE);
  let chunk = 'op,offset,size,time_us\n';
  for (let i = 0; i < REQUESTS; i++) {
    const hot = rand() < 0.8;
    const page = hot ? Math.floor(rand() * (pages / 5)) : Math.floor(pages / 5 + rand() * (pages - pages / 5));
    chunk += `${rand() < 0.7 ? 'W' : 'R'},${page * 4096},4096,${i * 100}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise((r) => out.on('close', r));
}

/** Resident bytes of `root`'s descendants but `skip`'s tree (Linux /proc), and of the largest. */
function treeRss(root, skip) {
  const parent = new Map();
  const rss = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(fields[1]));
      rss.set(Number(d), Number(fields[21]) * 4096);
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) {
      if (p === skip) return false;
      if (p === root) return true;
    }
    return false;
  };
  let total = 0;
  let largest = 0;
  for (const [pid, bytes] of rss) {
    if (pid === root || !inTree(pid)) continue;
    total += bytes;
    largest = Math.max(largest, bytes);
  }
  return { total, largest };
}

const mib = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

await writeTrace();
console.log(`trace: ${TRACE} (${REQUESTS.toLocaleString('en-US')} requests, ${mib(statSync(TRACE).size)})`);
if (!process.env.BENCH_NO_BUILD)
  execFileSync('node_modules/.bin/vite', ['build', '--logLevel', 'error'], { stdio: 'inherit' });
const server = spawn('node_modules/.bin/vite', ['preview', '--port', String(PORT), '--strictPort'], {
  stdio: 'ignore',
});
const browser = await chromium.launch(launchOptions);
const peak = { total: 0, largest: 0 };
const sampler = setInterval(() => {
  const now = treeRss(process.pid, server.pid);
  peak.total = Math.max(peak.total, now.total);
  peak.largest = Math.max(peak.largest, now.largest);
}, 250);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  for (let i = 0; ; i++) {
    try {
      await page.goto(`http://127.0.0.1:${PORT}/`);
      break;
    } catch (e) {
      if (i > 40) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const ready = () =>
    page.waitForFunction(() => /^(ready|done)$/.test(window.__ftl?.snapshot().status ?? ''), null, {
      timeout: 0,
      polling: 200,
    });
  await ready();
  const cores = await page.evaluate(() => [navigator.hardwareConcurrency, navigator.deviceMemory]);
  console.log(`browser: ${cores[0]} cores, deviceMemory ${cores[1] ?? '?'} GiB`);

  let t = performance.now();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await page.getByTestId('trace-upload').setInputFiles(TRACE);
  await page.getByRole('button', { name: 'Load this trace' }).click({ timeout: 120_000 });
  await page.waitForFunction((n) => window.__ftl?.snapshot().total === n, REQUESTS, { timeout: 0, polling: 200 });
  await ready();
  console.log(`upload and load in the main view: ${secs(performance.now() - t)}`);
  t = performance.now();
  await page.evaluate((device) => window.__ftl.load({ config: { scheme: 'page', device } }), DEVICE);
  await ready();
  const blocks = await page.evaluate(() => window.__ftl.blockRoles().roles.length);
  if (blocks !== DEVICE.blocks) throw new Error(`the app shows ${blocks} blocks, not ${DEVICE.blocks}`);
  console.log(
    `device ${DEVICE.blocks} x ${DEVICE.pages_per_block} x ${DEVICE.page_bytes} B loaded: ${secs(performance.now() - t)}`,
  );

  // Long tasks and heap of the main thread, from here on.
  await page.evaluate(() => {
    const w = window;
    w.__bench = { longest: 0, long: 0, heap: 0, seen: {} };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.__bench.longest = Math.max(w.__bench.longest, e.duration);
        w.__bench.long += e.duration;
      }
    }).observe({ type: 'longtask', buffered: false });
    // Each run's phases, from the Runs list: started, first progress (trace parsed), done.
    setInterval(() => {
      w.__bench.heap = Math.max(w.__bench.heap, performance.memory?.usedJSHeapSize ?? 0);
      for (const li of document.querySelectorAll('.compare__progress li')) {
        const id = li.querySelector('.compare__runname')?.textContent ?? '';
        const s = (w.__bench.seen[id] ??= {});
        const status = li.getAttribute('data-status');
        const now = performance.now();
        if (status === 'running') s.start ??= now;
        if (status === 'running' && Number(li.querySelector('progress')?.getAttribute('max')) > 1) s.parsed ??= now;
        if (status === 'done' || status === 'error') {
          s.start ??= now;
          s.end ??= now;
          s.status = status;
          s.text = li.querySelector('.compare__runstate')?.textContent ?? '';
        }
      }
    }, 50);
  });

  await page.getByRole('tab', { name: 'Compare' }).click();
  const lab = page.getByTestId('compare');
  const schemes = await page.evaluate(() => window.__ftl.schemes());
  const rows = [];
  for (let b = 0; b < schemes.length; b += BATCH) {
    const batch = schemes.slice(b, b + BATCH);
    if (batch.length < 2) batch.unshift(schemes[b - 1]); // a run takes at least two
    const checked = lab.locator('.compare__schemes input[type=checkbox]:checked');
    while ((await checked.count()) > 0) await checked.first().uncheck();
    for (const id of batch) await lab.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
    await page.evaluate(() => (window.__bench.seen = {}));
    const t0 = performance.now();
    await lab.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction(
      () => /^Comparison finished/.test(document.querySelector('.compare__status')?.textContent ?? ''),
      null,
      { timeout: 0, polling: 500 },
    );
    const seen = await page.evaluate(() => window.__bench.seen);
    console.log(`batch ${batch.join(', ')}: ${secs(performance.now() - t0)}`);
    for (const id of batch) rows.push({ id, ...seen[id] });
  }
  const bench = await page.evaluate(() => window.__bench);
  console.log('\n| scheme | wall time | of which parsing the trace | result |\n|---|---|---|---|');
  for (const r of rows) {
    const wall = r.end != null && r.start != null ? secs(r.end - r.start) : '–';
    const parse = r.parsed != null && r.start != null ? secs(r.parsed - r.start) : '–';
    console.log(`| ${r.id} | ${wall} | ${parse} | ${r.status === 'done' ? 'done' : (r.text ?? r.status)} |`);
  }
  console.log(
    `\nmain thread while comparing: longest task ${bench.longest.toFixed(0)} ms, ${secs(bench.long)} in long tasks; peak JS heap ${mib(bench.heap)}`,
  );
} finally {
  clearInterval(sampler);
  console.log(
    `peak resident memory: browser processes ${mib(peak.total)} in all, largest process ${mib(peak.largest)}`,
  );
  await browser.close();
  server.kill();
}
