// Screenshots of the main screen for the docs (docs/screenshots/), at a lecture projector's
// 1280x720, a small laptop window 800x600 and a desktop 1920x1080, in Debian's Chromium. Serve the production build
// first (npm run build && npx vite preview --port 4173), then: node scripts/screenshots.mjs
// The app is put in a telling state: the default experiment run up to a GC, the grid
// showing the victim, the narration and the inspector explaining it. Then the RAM / cache
// panel of DFTL stopped on a mapping miss's translation-page read (`cache-1920x1080.png`),
// and TreeFTL's tree on the stage with about a hundred caching groups in RAM, alone at
// 1280x720 (`tree-stage-1280x720.png`) and beside the block grid at 1920x1080
// (`split-1920x1080.png`). `node scripts/screenshots.mjs cache` (or `stage`) takes only those.
import { chromium } from '@playwright/test';
import { launchOptions } from './chromium.mjs';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:4173/';
const OUT = new URL('../docs/screenshots/', import.meta.url);

const only = process.argv[2];
const browser = await chromium.launch(launchOptions);
try {
  for (const [w, h] of only
    ? []
    : [
        [1280, 720],
        [800, 600],
        [1920, 1080],
      ]) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    await page.goto(BASE);
    await page.waitForFunction(() => window.__ftl?.snapshot().status === 'ready', null, { timeout: 30_000 });
    // A few hundred requests in, then the next GC, stopped on its first page copy.
    await page.evaluate(async () => {
      const ftl = window.__ftl;
      await ftl.step(400);
      await ftl.jumpTo('gc');
      for (let i = 0; i < 6; i++) {
        const ev = ftl.events();
        const op = ftl.snapshot().pos.op;
        if (!ev || op === 0 || ev.ops[op - 1]?.type === 'flash_program') break;
        await ftl.stepOp();
      }
    });
    await page.mouse.move(5, 5);
    await page.waitForTimeout(1200); // let the copy animation land
    const file = new URL(`main-${w}x${h}.png`, OUT);
    await page.screenshot({ path: file.pathname });
    console.log(`wrote ${file.pathname}`);
    await page.close();
  }
  if (!only || only === 'cache') await cacheShot(1920, 1080);
  if (!only || only === 'stage') {
    await treeStageShot(1280, 720, 'tree-stage', []);
    await treeStageShot(1920, 1080, 'split', ['Shift+Digit1']);
  }
} finally {
  await browser.close();
}

/** DFTL after a few hundred requests, on the translation-page read of the next CMT miss. */
async function cacheShot(w, h) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(BASE);
  await page.waitForFunction(() => window.__ftl?.snapshot().status === 'ready', null, { timeout: 30_000 });
  await page.evaluate(() => window.__ftl.load({ config: { scheme: 'dftl' } }));
  await page.waitForFunction(
    () => window.__ftl?.snapshot().status === 'ready' && window.__ftl.snapshot().scheme === 'dftl',
    null,
    { timeout: 30_000 },
  );
  await page.getByRole('tab', { name: 'RAM / cache' }).click();
  await page.evaluate(async () => {
    const ftl = window.__ftl;
    await ftl.step(300);
    await ftl.jumpTo('miss');
    for (let i = 0; i < 8; i++) {
      const ev = ftl.events();
      const op = ftl.snapshot().pos.op;
      const last = ev?.ops[op - 1];
      if (!ev || op === 0 || (last?.type === 'flash_read' && last.purpose === 'translation')) break;
      await ftl.stepOp();
    }
  });
  await page.mouse.move(5, 5);
  await page.waitForTimeout(800);
  const file = new URL(`cache-${w}x${h}.png`, OUT);
  await page.screenshot({ path: file.pathname });
  console.log(`wrote ${file.pathname}`);
  if (process.env.PANEL_SHOT) {
    // The whole panel, unclipped by its scrolling tab (a check of the layout, not for the docs).
    await page.addStyleTag({ content: '.tabs__panel { overflow: visible !important; }' });
    await page.setViewportSize({ width: w, height: 1400 });
    await page.waitForTimeout(300);
    await page.getByTestId('cache-panel').screenshot({ path: process.env.PANEL_SHOT });
  }
  await page.close();
}

/**
 * TreeFTL on a 1,024 x 64-page device with 256 KiB of RAM near the end of the trace (92
 * caching groups: sixteen one by one, the rest in bands): the tree takes the stage (key 2),
 * then `keys` (e.g. Shift+1: the grid beside it).
 */
async function treeStageShot(w, h, name, keys) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(BASE);
  await page.waitForFunction(() => window.__ftl?.snapshot().status === 'ready', null, { timeout: 30_000 });
  await page.evaluate(() =>
    window.__ftl.load({
      config: { scheme: 'treeftl', device: { blocks: 1024, pages_per_block: 64 }, ram: { bytes: 262144 } },
    }),
  );
  await page.waitForFunction(
    () => window.__ftl?.snapshot().status === 'ready' && window.__ftl.snapshot().scheme === 'treeftl',
    null,
    { timeout: 30_000 },
  );
  await page.evaluate(() => window.__ftl.step(999));
  await page.waitForFunction(() => /ready|done/.test(window.__ftl.snapshot().status), null, { timeout: 30_000 });
  await page.keyboard.press('2');
  for (const k of keys) await page.keyboard.press(k);
  await page.mouse.move(5, 5);
  await page.waitForTimeout(1000);
  const file = new URL(`${name}-${w}x${h}.png`, OUT);
  await page.screenshot({ path: file.pathname });
  console.log(`wrote ${file.pathname}`);
  await page.close();
}
