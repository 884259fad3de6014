// Measures the visualizer in Chromium against the production build (serve it first:
// npx vite build && npx vite preview --port 4173). SCENARIO=tree measures the tree view
// instead (see below). Prints two figures:
//  1. frame time while playing at full speed on an 8192 x 64 device (paint time of the
//     block grid, measured with performance.now around each paint, and main-thread frame
//     intervals from requestAnimationFrame);
//  2. the time to step back at request 1,000,000 of a generated trace (and to seek there).
// The trace is generated into /tmp (never committed): node scripts/measure-visualizer.mjs
import { chromium } from '@playwright/test';
import { launchOptions } from './chromium.mjs';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:4173/';
const TRACE = '/tmp/ftl-1m.csv';
const N = 1_000_000;

/** MSR Cambridge CSV: ticks (100 ns),host,disk,Type,offset,size,response; seeded LCG. */
function generate() {
  let x = 12345;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const lines = [];
  for (let i = 0; i < N; i++) {
    const ticks = 128166372000000000 + i * 5000; // one request every 0.5 ms
    const write = rnd() < 0.7;
    const offset = Math.floor((rnd() * 1_500_000_000) / 4096) * 4096;
    const size = 4096 * (1 + Math.floor(rnd() * 4));
    lines.push(`${ticks},gen,0,${write ? 'Write' : 'Read'},${offset},${size},0`);
  }
  writeFileSync(TRACE, lines.join('\n') + '\n');
}

if (!existsSync(TRACE)) generate();
const body = readFileSync(TRACE);

const browser = await chromium.launch(launchOptions);
const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
await page.route('**/gen-1m.csv', (r) => r.fulfill({ body, contentType: 'text/csv' }));
// Buffers the main thread receives with frames (each a fresh allocation there): counted on
// every message from the engine worker that carries a frame.
await page.addInitScript(() => {
  const Base = window.Worker;
  const tally = (window.__frameBuffers = {
    frames: 0,
    buffers: 0,
    bytes: 0,
    payload: 0,
    maxPayload: 0,
    maxBlocks: 0,
    returned: 0,
  });
  window.Worker = class extends Base {
    postMessage(msg, transfer) {
      // Buffers the page hands back to the worker's pool once it has applied a frame.
      if (msg?.type === 'recycle') tally.returned += msg.buffers.length;
      return super.postMessage(msg, transfer);
    }
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const f = e.data?.view?.frame;
        if (!f) return;
        tally.frames++;
        // Distinct buffers (a change list packs several arrays in one).
        const buffers = new Set(
          [...Object.values(f), ...Object.values(f.pageDelta ?? {})]
            .filter((v) => ArrayBuffer.isView(v))
            .map((v) => v.buffer),
        );
        tally.buffers += buffers.size;
        tally.bytes += [...buffers].reduce((a, b) => a + b.byteLength, 0);
        // What the frame uses of them (a reused buffer is often larger than its change list).
        const payload = [...Object.values(f), ...Object.values(f.pageDelta ?? {})]
          .filter((v) => ArrayBuffer.isView(v))
          .reduce((a, v) => a + v.byteLength, 0);
        tally.payload += payload;
        tally.maxPayload = Math.max(tally.maxPayload ?? 0, payload);
        tally.maxBlocks = Math.max(tally.maxBlocks ?? 0, f.pageDelta?.blocks.length ?? 0);
      });
    }
  };
});
await page.goto(BASE);
await page.waitForFunction(() => window.__ftl?.snapshot().status === 'ready');

const load = async (config) => {
  const t = Date.now();
  await page.evaluate((c) => window.__ftl.load({ traceUrl: 'gen-1m.csv', traceName: 'gen-1m.csv', config: c }), config);
  await page.waitForFunction(() => ['ready', 'done'].includes(window.__ftl.snapshot().status), null, {
    timeout: 300_000,
  });
  return Date.now() - t;
};

/**
 * Plays at full speed for `ms` with the current experiment and returns main-thread frame
 * figures: requestAnimationFrame intervals and long tasks (PerformanceObserver 'longtask',
 * the tasks over 50 ms) until a second after the pause, plus the block-grid paint times
 * and the requests served.
 */
const playFor = async (ms) => {
  // The engine worker's frame pool (sim.worker.ts): buffers it had to make while playing.
  let worker = null;
  for (const w of page.workers()) if (await w.evaluate(() => 'ftlFrames' in self)) worker = w;
  const pool = () =>
    worker?.evaluate(() => ({ made: self.ftlFrames.pool.made, fromEngine: self.ftlFrames.sender.fromEngine })) ?? null;
  const before = await pool();
  const out = await playOnly(ms);
  const after = await pool();
  if (before && after)
    Object.assign(out.frameBuffers, {
      workerMadePerFrame: (after.made - before.made) / Math.max(1, out.frameBuffers.frames),
      engineListsPerFrame: (after.fromEngine - before.fromEngine) / Math.max(1, out.frameBuffers.frames),
    });
  return out;
};

const playOnly = (ms) =>
  page.evaluate(async (ms) => {
    const ftl = window.__ftl;
    const speed = document.querySelector('label.controls__speed select');
    speed.value = String(speed.options.length - 1);
    speed.dispatchEvent(new Event('change', { bubbles: true }));
    const gaps = [];
    const long = [];
    const obs = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
    obs.observe({ type: 'longtask' });
    let last = performance.now();
    let run = true;
    const loop = (now) => {
      gaps.push(now - last);
      last = now;
      if (run) requestAnimationFrame(loop);
    };
    ftl.resetPaints();
    Object.assign(window.__frameBuffers, {
      frames: 0,
      buffers: 0,
      bytes: 0,
      payload: 0,
      maxPayload: 0,
      maxBlocks: 0,
      returned: 0,
    });
    const c0 = ftl.snapshot().cursor;
    document.querySelector('.controls__play').click();
    requestAnimationFrame(loop);
    await new Promise((r) => setTimeout(r, ms));
    document.querySelector('.controls__play').click();
    const served = ftl.snapshot().cursor - c0;
    // The frames after the pause count too: pausing renders what play kept light (the
    // narration's whole log), so the page keeps being watched for a second more.
    await new Promise((r) => setTimeout(r, 1000));
    run = false;
    obs.disconnect();
    gaps.sort((a, b) => a - b);
    const q = (p) => gaps[Math.floor(p * (gaps.length - 1))];
    const fb = window.__frameBuffers;
    const frameBuffers = {
      frames: fb.frames,
      buffersPerFrame: fb.buffers / Math.max(1, fb.frames),
      bytesPerFrame: Math.round(fb.bytes / Math.max(1, fb.frames)),
      payloadPerFrame: Math.round(fb.payload / Math.max(1, fb.frames)),
      payloadMax: fb.maxPayload,
      blocksMax: fb.maxBlocks,
      returnedPerFrame: fb.returned / Math.max(1, fb.frames),
    };
    return {
      paint: ftl.paintStats(),
      rafFrames: gaps.length,
      rafMedian: q(0.5),
      rafP95: q(0.95),
      rafMax: gaps.at(-1),
      longTasks: long.length,
      longTaskMax: Math.max(0, ...long),
      served,
      frameBuffers,
    };
  }, ms);

/** Starts a trace of the page's tasks; the returned function stops it and sums it up. */
async function startTaskTrace() {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  // TRACE_OUT=file.json also samples JavaScript and writes the raw trace there (open it in
  // Chromium's Performance panel, or sum a long task's children up with a small script).
  const sampled = process.env.TRACE_OUT ? ',v8.execute,disabled-by-default-v8.cpu_profiler' : '';
  await cdp.send('Tracing.start', {
    categories: `devtools.timeline,disabled-by-default-devtools.timeline${sampled}`,
    transferMode: 'ReportEvents',
  });
  return async () => {
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await done;
    if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));
    // The page's main thread: the renderer's CrRendererMain (the busiest, should there be two).
    const mains = events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`);
    const busy = (id) =>
      events.filter((e) => e.name === 'RunTask' && `${e.pid}:${e.tid}` === id).reduce((a, e) => a + (e.tdur ?? 0), 0);
    const main = mains.sort((a, b) => busy(b) - busy(a))[0];
    const ms = events
      .filter((e) => e.name === 'RunTask' && `${e.pid}:${e.tid}` === main && e.tdur)
      .map((e) => e.tdur / 1000)
      .sort((a, b) => a - b);
    const q = (p) => ms[Math.floor(p * (ms.length - 1))] ?? 0;
    return {
      tasks: ms.length,
      max: ms.at(-1) ?? 0,
      p99: q(0.99),
      p95: q(0.95),
      over50: ms.filter((x) => x > 50).length,
      total: ms.reduce((a, b) => a + b, 0),
    };
  };
}

// SCENARIO=tree: the tree view with TreeFTL's 64 MB cache on the paper's device
// (the treeftl-slc preset: 2 KB pages, 64-page blocks, 32 GB), the Tree tab open, first
// served to TREE_AT requests so the cache is full, then played at full speed.
if (process.env.SCENARIO === 'tree') {
  const device = {
    page_bytes: 2048,
    pages_per_block: 64,
    blocks: Number(process.env.TREE_BLOCKS ?? 262144),
    oob_bytes: 64,
    over_provisioning: 0.07,
    cell: 'slc',
    latency: {
      page_read_ns: 25000,
      oob_read_ns: 25000,
      program_ns: 200000,
      erase_ns: 700000,
      transfer_ns_per_page: 0,
      ram_access_ns: 2000,
      cache_op_ns: 2000,
      host_transfer_ns_per_page: 0,
    },
  };
  const loadMs = await load({ scheme: 'treeftl', device, ram: { bytes: 64 * 1024 * 1024 } });
  // TREE_TAB=Counters gives the same run without the tree view (the baseline); TREE_STAGE=1
  // puts the tree on the stage with the block grid beside it (keys 2, then Shift+1).
  if (process.env.TREE_STAGE) {
    await page.keyboard.press('Digit2');
    await page.keyboard.press('Shift+Digit1');
    await page.waitForSelector('[data-testid=stage][data-main=tree][data-side=grid]');
  } else await page.getByRole('tab', { name: process.env.TREE_TAB ?? 'Tree', exact: true }).click();
  const at = Number(process.env.TREE_AT ?? 40000);
  await page.evaluate((n) => window.__ftl.seek(n), at);
  if (!process.env.TREE_TAB) await page.waitForSelector('[data-testid=tree-svg] g.row');
  // The tree view's own share: each redraw's time (TreePanel measures it as 'tree-draw').
  await page.evaluate(() => {
    window.treeDraws = [];
    new PerformanceObserver((l) =>
      window.treeDraws.push(
        ...l
          .getEntries()
          .filter((e) => e.name === 'tree-draw')
          .map((e) => e.duration),
      ),
    ).observe({ type: 'measure' });
  });
  // CPU=1 also records a Chromium trace and reports each main-thread task's CPU time
  // (thread time): on a loaded machine the wall-clock figures above count the time the
  // main thread waited for a core, the CPU figures only the page's own work.
  const cpu = process.env.CPU === '1' ? await startTaskTrace() : null;
  const play = await playFor(Number(process.env.TREE_MS ?? 8000));
  if (cpu) play.taskCpu = await cpu();
  const draws = await page.evaluate(() => window.treeDraws);
  play.treeDraws = draws.length;
  play.treeDrawMax = Math.max(0, ...draws);
  play.treeDrawMean = draws.length ? draws.reduce((a, b) => a + b, 0) / draws.length : 0;
  await page.waitForTimeout(800);
  const drawn = await page.evaluate(() => ({
    rows: document.querySelectorAll('[data-testid=tree-svg] g.row').length,
    leaves: document.querySelectorAll('[data-testid=tree-svg] rect.leaf').length,
    root: document.querySelector('[data-testid=tree-svg] .label--root')?.textContent,
    bands: [...document.querySelectorAll('[data-testid=tree-svg] g.row--band .label')]
      .map((t) => t.textContent)
      .slice(0, 2),
  }));
  if (process.env.TREE_SHOT) await page.getByTestId('tree-panel').screenshot({ path: process.env.TREE_SHOT });
  console.log(
    JSON.stringify(
      { tree64MB: { loadMs, startAt: at, requestsPerSecond: Math.round(play.served / 8), ...play, drawn } },
      null,
      2,
    ),
  );
  await browser.close();
  process.exit(0);
}

// 1. Full-speed play on 8192 x 64.
const loadBig = await load({ scheme: 'page', device: { blocks: 8192, pages_per_block: 64 } });
const play = await page.evaluate(async () => {
  const ftl = window.__ftl;
  document.querySelector('select[aria-label], label.controls__speed select').value = '9';
  document.querySelector('label.controls__speed select').dispatchEvent(new Event('change', { bubbles: true }));
  const gaps = [];
  let last = performance.now();
  let run = true;
  const loop = (now) => {
    gaps.push(now - last);
    last = now;
    if (run) requestAnimationFrame(loop);
  };
  ftl.resetPaints();
  const c0 = ftl.snapshot().cursor;
  document.querySelector('.controls__play').click();
  requestAnimationFrame(loop);
  await new Promise((r) => setTimeout(r, 4000));
  run = false;
  document.querySelector('.controls__play').click();
  const served = ftl.snapshot().cursor - c0;
  gaps.sort((a, b) => a - b);
  const q = (p) => gaps[Math.floor(p * (gaps.length - 1))];
  return {
    paint: ftl.paintStats(),
    rafFrames: gaps.length,
    rafMedian: q(0.5),
    rafP95: q(0.95),
    rafMax: gaps.at(-1),
    served,
  };
});

// PLAY_ONLY=1 stops after the full-speed figure (a before/after comparison of play speed).
const servedPerSecond = Math.round(play.served / 4);
if (process.env.PLAY_ONLY === '1') {
  console.log(
    JSON.stringify({ fullSpeed8192x64: { loadMs: loadBig, requestsPerSecond: servedPerSecond, ...play } }, null, 2),
  );
  await browser.close();
  process.exit(0);
}

// 2. Step back at request 1,000,000 (default teaching device, 64 x 16).
const loadSmall = await load({ scheme: 'page' });
const timed = (fn, arg) =>
  page.evaluate(
    async ([f, a]) => {
      const t = performance.now();
      await window.__ftl[f](...a);
      return performance.now() - t;
    },
    [fn, arg],
  );
const toEnd = await timed('seek', [N]);
const at = await page.evaluate(() => window.__ftl.snapshot().cursor);
const back1 = await timed('stepBack', [1]);
const backOp = await timed('stepBackOp', []);
const toMiddle = await timed('seek', [N / 2]);
const toEnd2 = await timed('seek', [N]);
const back1Again = await timed('stepBack', [1]);
const toStart = await timed('seek', [0]);

const small = {
  loadMs: loadSmall,
  cursorAtEnd: at,
  seekToEndMs: toEnd,
  stepBackOneAt1MMs: back1,
  stepBackOneOpMs: backOp,
  seekTo500kMs: toMiddle,
  seekBackToEndMs: toEnd2,
  stepBackOneAgainMs: back1Again,
  seekTo0Ms: toStart,
};

// 3. The same on the 8192 x 64 device (checkpoints are 7 MB each there, so fewer and further apart).
await load({ scheme: 'page', device: { blocks: 8192, pages_per_block: 64 } });
const big = {
  seekToEndMs: await timed('seek', [N]),
  stepBackOneAt1MMs: await timed('stepBack', [1]),
  stepBackOneOpMs: await timed('stepBackOp', []),
  seekTo500kMs: await timed('seek', [N / 2]),
};

console.log(
  JSON.stringify(
    {
      fullSpeed8192x64: { loadMs: loadBig, requestsPerSecond: servedPerSecond, ...play },
      stepBack64x16: small,
      stepBack8192x64: big,
    },
    null,
    2,
  ),
);
await browser.close();
