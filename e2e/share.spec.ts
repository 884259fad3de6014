// Shared links: a link reopens the experiment exactly (same state hash at the same
// position) in a fresh browser, carries a small upload inside it, asks for a large one and
// checks its hash, refuses broken links with a message and a working app, and back / forward
// move between experiments.
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { FtlApp } from './app';

/** A seeded MSR Cambridge trace of `n` mixed requests (random offsets: compresses poorly). */
function msrTrace(n: number, seed = 1): Buffer {
  let x = seed;
  const rand = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const op = rand() < 0.3 ? 'Read' : 'Write';
    lines.push(
      `${128166385295514663 + i * 1000 + Math.floor(rand() * 900)},hm,0,${op},${Math.floor(rand() * 4000) * 4096},${4096 * (1 + Math.floor(rand() * 3))},${Math.floor(rand() * 5000)}`,
    );
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A link written here, independently of the app's encoder (raw DEFLATE + base64url). */
const link = (state: unknown, trace?: Buffer) =>
  `#ftl1.${b64url(deflateRawSync(Buffer.from(JSON.stringify(state))))}${trace ? `.${b64url(deflateRawSync(trace))}` : ''}`;

/** The state a link in the address bar holds (decoded here, independently of the app). */
function linkState(url: string): { scheme?: string; at?: [number, number] } {
  const m = /#ftl1\.([A-Za-z0-9_-]+)/.exec(url);
  return m ? JSON.parse(inflateRawSync(Buffer.from(m[1], 'base64url')).toString()) : {};
}

/** Waits until the app stands at `request`/`op` of a trace of `total` requests, and returns its state hash. */
async function settledHash(app: FtlApp, total: number, request: number, op = 0): Promise<string> {
  await expect
    .poll(
      async () => {
        const s = await app.snapshot();
        return [s.total, s.pos.request, s.pos.op, s.status];
      },
      { timeout: 30_000 },
    )
    .toEqual([total, request, op, expect.stringMatching(/^(ready|done)$/)]);
  await app.page.evaluate(() => window.__ftl!.refresh());
  const hash = (await app.snapshot()).hash;
  expect(hash).toMatch(/^[0-9a-f]{16}$/);
  return hash;
}

/** Copy link, read back from the clipboard (the link field when the clipboard is refused). */
async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const copied = page.getByText('Link copied.');
  const field = page.getByTestId('share-link');
  await expect(copied.or(field)).toBeVisible();
  return (await copied.isVisible()) ? page.evaluate(() => navigator.clipboard.readText()) : field.inputValue();
}

async function freshApp(browser: Browser, url: string): Promise<{ app: FtlApp; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  return { app: new FtlApp(page), close: () => context.close() };
}

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});

test('an uploaded trace, run to a position, reopens in a fresh browser with the same state hash once its file is given', async ({
  page,
  browser,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const bytes = msrTrace(12_000);
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload({ name: 'mine.csv', mimeType: 'text/csv', buffer: bytes });
  await expect.poll(async () => (await app.snapshot()).total, { timeout: 30_000 }).toBe(12_000);
  await app.waitReady();
  await page.evaluate(() => window.__ftl!.seek(2500));
  // Part-way through a request: step operations until one has more to go.
  for (let i = 0; i < 20 && (await app.snapshot()).pos.op === 0; i++) await page.evaluate(() => window.__ftl!.stepOp());
  const { request, op } = (await app.snapshot()).pos;
  expect(op).toBeGreaterThan(0);
  // The Compare tab open, with two schemes and a baseline picked.
  await page.getByRole('tab', { name: 'Compare' }).click();
  const lab = page.getByTestId('compare');
  for (const id of ['page', 'dftl']) await lab.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
  await lab.getByLabel('Baseline scheme').selectOption('dftl');
  const hash = await settledHash(app, 12_000, request, op);

  const url = await copyLink(page);
  expect(url).toMatch(/#ftl1\.[A-Za-z0-9_-]+$/); // no trace segment: too large to travel

  // In the same browser the trace library has the upload: the link opens without asking.
  const again = new FtlApp(await page.context().newPage());
  await again.page.goto(url);
  expect(await settledHash(again, 12_000, request, op)).toBe(hash);
  await expect(again.page.getByTestId('share-trace-file')).toHaveCount(0);
  await again.page.close();

  const { app: other, close } = await freshApp(browser, url);
  const ask = other.page.getByTestId('share-trace-file');
  await expect(ask).toBeVisible({ timeout: 30_000 });
  await expect(other.page.locator('.status')).toContainText('choose that file');
  // A wrong file is refused by its hash, and nothing runs.
  await ask.setInputFiles({ name: 'mine.csv', mimeType: 'text/csv', buffer: msrTrace(12_000, 2) });
  await expect(other.page.getByTestId('share-problem')).toContainText('mine.csv is not the trace of this link');
  expect((await other.snapshot()).total).toBe(1000);
  await ask.setInputFiles({ name: 'renamed.csv', mimeType: 'text/csv', buffer: bytes });
  expect(await settledHash(other, 12_000, request, op)).toBe(hash);
  await expect(other.page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
  const otherLab = other.page.getByTestId('compare');
  await expect(otherLab.getByRole('checkbox', { name: /^page / })).toBeChecked();
  await expect(otherLab.getByRole('checkbox', { name: /^dftl / })).toBeChecked();
  await expect(otherLab.getByLabel('Baseline scheme')).toHaveValue('dftl');
  await close();
});

test('a small upload travels inside the link and reopens without asking for its file', async ({ page, browser }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload({ name: 'small.csv', mimeType: 'text/csv', buffer: msrTrace(400, 7) });
  await expect.poll(async () => (await app.snapshot()).total, { timeout: 30_000 }).toBe(400);
  await page.getByRole('combobox', { name: 'Scheme' }).selectOption('dftl');
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('dftl');
  await page.evaluate(() => window.__ftl!.seek(321));
  const hash = await settledHash(app, 400, 321);
  const url = await copyLink(page);
  expect(url).toMatch(/#ftl1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

  const { app: other, close } = await freshApp(browser, url);
  expect(await settledHash(other, 400, 321)).toBe(hash);
  expect((await other.snapshot()).scheme).toBe('dftl');
  await expect(other.page.getByTestId('share-trace-file')).toHaveCount(0);
  await close();
});

test("the Compare tab's Sweep mode travels with its parameter, values and schemes", async ({ page, browser }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Sweep', exact: true }).click();
  await page.getByLabel('Sweep parameter').fill('over_provisioning');
  await page.getByLabel('Sweep values').fill('0.2,0.3');
  const group = page.getByRole('group', { name: 'Schemes to sweep' });
  for (const id of ['page', 'dftl']) await group.getByRole('checkbox', { name: id, exact: true }).check();
  const url = await copyLink(page);

  const { app: other, close } = await freshApp(browser, url);
  await other.waitReady();
  const p = other.page;
  await expect(p.getByRole('button', { name: 'Sweep', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(p.getByLabel('Sweep parameter')).toHaveValue('over_provisioning');
  await expect(p.getByLabel('Sweep values')).toHaveValue('0.2,0.3');
  const otherGroup = p.getByRole('group', { name: 'Schemes to sweep' });
  for (const id of ['page', 'dftl'])
    await expect(otherGroup.getByRole('checkbox', { name: id, exact: true })).toBeChecked();
  await expect(otherGroup.getByRole('checkbox', { name: 'fast', exact: true })).not.toBeChecked();
  await close();
});

test('a link written elsewhere, with markup in its trace name, opens with the name as text', async ({ page }) => {
  const trace = msrTrace(50, 3);
  const name = '<img src=x onerror="window.__pwned=1">.csv';
  const state = {
    scheme: 'page',
    trace: { upload: { name, hash: createHash('sha256').update(trace).digest('hex'), size: trace.length } },
    at: [20, 0],
  };
  const app = new FtlApp(page);
  await page.goto(`/${link(state, trace)}`);
  await settledHash(app, 50, 20);
  await expect(page.locator('.summary code')).toHaveText(name);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img[src=x]').count()).toBe(0);
});

test('malformed links (five classes and more) each say why in the status area and leave a working app', async ({
  page,
}) => {
  const good = link({
    scheme: 'dftl',
    trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
    at: [10, 0],
    filler: 'x'.repeat(200),
  });
  const cases: [string, RegExp][] = [
    ['#ftl1.@@not*base64', /damaged \(not base64url text\)/],
    [good.slice(0, Math.floor(good.length * 0.6)), /cut short|cannot be unpacked|damaged/],
    ['#ftl9.AAAA', /format 9, and this FTL Lab reads format 1/],
    [
      link({ scheme: '<script>window.__pwned=1</script>', trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' } }),
      /scheme '<script>window.__pwned=1<\/script>', which this FTL Lab does not have/,
    ],
    [
      link({
        scheme: 'page',
        trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
        config: { device: { blocks: 1e300 } },
      }),
      /device\.blocks is out of range/,
    ],
    [
      link({
        scheme: 'page',
        trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
        config: { device: { blocks: 'many' } },
      }),
      /engine refuses the link's settings \(device\.blocks\)/,
    ],
    [
      link({
        scheme: 'page',
        trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
        config: { device: { blocks: 4294967295 } },
      }),
      /at most 134217728 are supported/,
    ],
    // Under the engine's page limit but more than the browser can hold: refused by the memory
    // it needs before anything is built (it used to crash the engine at 4.9 GB).
    [
      link({
        scheme: 'page',
        trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
        config: { device: { blocks: 2097151, pages_per_block: 64 } },
      }),
      /needs about [\d.]+ GiB in the browser .* lower device\.blocks to [\d,]+ or fewer/,
    ],
    [link([1, 2, 3]), /not a JSON object/],
  ];
  const app = new FtlApp(page);
  for (const [i, [hash, why]] of cases.entries()) {
    await page.goto(`/?case=${i}${hash}`);
    await expect(page.locator('.status')).toContainText('Cannot open this link.', { timeout: 30_000 });
    await expect(page.locator('.status')).toContainText(why);
    await expect(page.locator('.status')).toContainText('The default experiment is open instead.');
    await app.waitReady();
    const s = await app.snapshot();
    expect([s.scheme, s.total, s.cursor]).toEqual(['page', 1000, 0]);
    await app.button('Step').click();
    await expect.poll(async () => (await app.snapshot()).cursor).toBe(1);
  }
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('back and forward move between experiments, each at its own position', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  const opened = await page.evaluate(() => history.length);
  await page.getByRole('tab', { name: 'Trace' }).click();
  await page.getByRole('combobox', { name: 'Scheme' }).selectOption('dftl');
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('dftl');
  await page.evaluate(() => window.__ftl!.seek(100));
  const dftlHash = await settledHash(app, 1000, 100);
  // The new scheme pushed one entry; the seek replaced it (written once the app is quiet).
  await expect.poll(() => linkState(page.url())).toMatchObject({ scheme: 'dftl', at: [100, 0] });
  await expect.poll(() => page.evaluate(() => history.length)).toBe(opened + 1);
  const entries = opened + 1;

  await page.getByRole('combobox', { name: 'Scheme' }).selectOption('fast');
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('fast');
  await page.evaluate(() => window.__ftl!.seek(30));
  const fastHash = await settledHash(app, 1000, 30);
  await expect.poll(() => linkState(page.url())).toMatchObject({ scheme: 'fast', at: [30, 0] });
  await expect.poll(() => page.evaluate(() => history.length)).toBe(entries + 1);

  await page.goBack();
  expect(await settledHash(app, 1000, 100)).toBe(dftlHash);
  expect((await app.snapshot()).scheme).toBe('dftl');
  await page.goBack();
  await settledHash(app, 1000, 0);
  expect((await app.snapshot()).scheme).toBe('page');
  await page.goForward();
  expect(await settledHash(app, 1000, 100)).toBe(dftlHash);
  await page.goForward();
  expect(await settledHash(app, 1000, 30)).toBe(fastHash);
  expect((await app.snapshot()).scheme).toBe('fast');
  await expect(page.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');

  // A link pasted into the open app's address bar (only the fragment changes) opens too.
  await page.evaluate(
    (h) => (location.hash = h),
    link({ scheme: 'bast', trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' }, at: [42, 0] }),
  );
  await settledHash(app, 1000, 42);
  expect((await app.snapshot()).scheme).toBe('bast');
  // It names no tab: the first one opens, as in a fresh app.
  await expect(page.getByRole('tab', { name: 'Request' })).toHaveAttribute('aria-selected', 'true');
});
