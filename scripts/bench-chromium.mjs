// The engine's wasm timed where the app runs it: in a module worker of Debian's Chromium
// (the browser the e2e tests use), not only in Node. Node 20 carries V8 11.3; the browser's
// V8 is years newer and compiles wasm differently, so the two figures differ and the
// browser's is the one users get. Used by scripts/bench.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, launchOptions } from './chromium.mjs';

// Runs in the worker: engine only (stepping timed, not parsing or set-up), best of `repeat`,
// a fresh simulation each, as scripts/bench.mjs does in Node. A worker has no CPU clock, so
// this is wall time.
const WORKER = `
import init, { Simulation } from './pkg/ftl_wasm.js';
onmessage = async ({ data: { runs, repeat } }) => {
  try {
    await init({ module_or_path: './pkg/ftl_wasm_bg.wasm' });
    const out = [];
    for (const run of runs) {
      const bytes = new Uint8Array(await (await fetch('./trace/' + run.id)).arrayBuffer());
      let seconds = Infinity;
      let hash;
      for (let i = 0; i < repeat; i++) {
        const sim = new Simulation(run.config, bytes, run.name);
        const t0 = performance.now();
        while (!sim.done()) sim.stepEngineOnly(1 << 20);
        seconds = Math.min(seconds, (performance.now() - t0) / 1000);
        hash = sim.stateHash();
        sim.free();
      }
      out.push({ seconds, hash });
    }
    postMessage({ out });
  } catch (e) {
    postMessage({ error: String(e?.stack ?? e) });
  }
};`;

/**
 * Times each of `runs` ({ config: object, file: trace path }) engine-only in Chromium with
 * the wasm build in `pkgDir`, best of `repeat`. Returns { version, results: [{ seconds, hash }] },
 * or null when there is no Chromium at CHROMIUM_PATH.
 */
export async function engineOnlyInChromium(pkgDir, runs, repeat) {
  if (!existsSync(CHROMIUM)) return null;
  const files = new Map([
    ['/index.html', ['text/html', '<!doctype html><title>bench</title>']],
    ['/worker.js', ['text/javascript', WORKER]],
    ['/pkg/ftl_wasm.js', ['text/javascript', readFileSync(`${pkgDir}/ftl_wasm.js`)]],
    ['/pkg/ftl_wasm_bg.wasm', ['application/wasm', readFileSync(`${pkgDir}/ftl_wasm_bg.wasm`)]],
  ]);
  runs.forEach((r, i) => files.set(`/trace/${i}`, ['text/plain', readFileSync(r.file)]));
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage();
    await page.route('http://bench.invalid/**', (route) => {
      const file = files.get(new URL(route.request().url()).pathname);
      return file ? route.fulfill({ contentType: file[0], body: file[1] }) : route.fulfill({ status: 404 });
    });
    await page.goto('http://bench.invalid/index.html');
    const message = { runs: runs.map((r, i) => ({ id: i, name: r.file, config: JSON.stringify(r.config) })), repeat };
    const reply = await page.evaluate(
      (msg) =>
        new Promise((resolve) => {
          const worker = new Worker('/worker.js', { type: 'module' });
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => resolve({ error: e.message || 'the worker failed to start' });
          worker.postMessage(msg);
        }),
      message,
    );
    if (reply.error) throw new Error(`wasm in Chromium: ${reply.error}`);
    return { version: browser.version(), results: reply.out };
  } finally {
    await browser.close();
  }
}
