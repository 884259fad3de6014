// The stage: any view takes the main area (digit keys, the stage bar, a tab's On stage
// button), two share it side by side, and at a projector's 1280 x 720 the signature views are
// readable without scrolling: the tree's rows, the CMT's entries, Settings' refusal and Apply,
// the upload preview's Load button. The choice travels in a link.
import { deflateRawSync } from 'node:zlib';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { FtlApp } from './app';

/** A treeftl device whose first 1,000 hm_0 requests leave about a hundred caching groups in RAM. */
const MANY_GROUPS = { scheme: 'treeftl', device: { blocks: 1024, pages_per_block: 64 }, ram: { bytes: 262144 } };

/**
 * How many of `items` are wholly visible without scrolling anything: inside the window and
 * inside every scrolling box around them (a stage pane, a tab panel).
 */
function shown(items: Locator): Promise<number> {
  return items.evaluateAll((els) => {
    const inside = (r: DOMRect, box: { left: number; top: number; right: number; bottom: number }) =>
      r.width > 0 &&
      r.height > 0 &&
      r.left >= box.left - 0.5 &&
      r.top >= box.top - 0.5 &&
      r.right <= box.right + 0.5 &&
      r.bottom <= box.bottom + 0.5;
    const win = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
    return els.filter((el) => {
      const r = el.getBoundingClientRect();
      if (!inside(r, win)) return false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowY;
        if ((o === 'auto' || o === 'scroll' || o === 'hidden') && !inside(r, p.getBoundingClientRect())) return false;
      }
      return true;
    }).length;
  });
}

const stage = (page: Page) => page.getByTestId('stage');

test.use({ viewport: { width: 1280, height: 720 } });

test('at 1280 × 720 the tree takes the stage (key 2) and shows at least 20 rows; Shift+1 puts the grid beside it, 1 brings the grid back alone', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load(MANY_GROUPS);
  await page.evaluate(() => window.__ftl!.step(1000));
  await app.waitReady();
  // In the side tab the tree has a strip of the screen.
  await page.getByRole('tab', { name: 'Tree' }).click();
  const rows = page.getByTestId('tree-svg').locator('g.row');
  await expect(rows.first()).toBeAttached();
  expect(await shown(rows)).toBeLessThan(20);

  await page.keyboard.press('2');
  await expect(stage(page)).toHaveAttribute('data-main', 'tree');
  await expect(page.getByTestId('on-stage-note')).toContainText('Tree is on the stage');
  await expect.poll(() => shown(stage(page).getByTestId('tree-svg').locator('g.row'))).toBeGreaterThanOrEqual(20);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(720);

  await page.keyboard.press('Shift+Digit1');
  await expect(stage(page)).toHaveAttribute('data-side', 'grid');
  await expect(app.grid).toBeInViewport();
  await expect(stage(page).getByTestId('tree-svg')).toBeInViewport();
  // The timeline still moves with the tree beside the grid.
  await app.button('Back').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(999);

  await page.keyboard.press('1');
  await expect(stage(page)).toHaveAttribute('data-main', 'grid');
  await expect(stage(page)).toHaveAttribute('data-side', '');
  await expect(stage(page).getByTestId('tree-svg')).toHaveCount(0);
  // The tab has its tree back.
  await expect(page.getByRole('tabpanel').getByTestId('tree-svg')).toBeVisible();
});

test('at 1280 × 720 the RAM / cache view on the stage shows at least 20 CMT entries', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'dftl' });
  await page.evaluate(() => window.__ftl!.step(300));
  await app.waitReady();
  await page.getByRole('tab', { name: 'RAM / cache' }).click();
  // The tab's On stage button does what the key does.
  await page.getByRole('button', { name: 'On stage' }).click();
  await expect(stage(page)).toHaveAttribute('data-main', 'cache');
  const entries = stage(page).getByTestId('cache-cmt').locator('li[data-key]');
  await expect(entries.first()).toBeVisible();
  expect(await shown(entries)).toBeGreaterThanOrEqual(20);
});

test("at 1280 × 720 Settings' refusal and Apply are in view without scrolling, on the stage and in the side tab", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  for (const where of ['tab', 'stage'] as const) {
    if (where === 'tab') await page.getByRole('tab', { name: 'Settings' }).click();
    else await page.keyboard.press('5');
    const settings =
      where === 'tab' ? page.getByRole('tabpanel').getByTestId('settings') : stage(page).getByTestId('settings');
    // A value only the engine refuses (the device cannot keep a GC reserve): its message comes back.
    const op = settings.locator('[data-path="device.over_provisioning"]').getByRole('textbox');
    await op.fill('0.01');
    const actions = settings.getByTestId('settings-actions');
    await expect(actions).toContainText(/Refused: .*over.?provisioning|Refused: .*spare/i);
    // Scroll the form back to its top, as a user who has not scrolled: the refusal is still in view.
    await settings.evaluate((el) => {
      for (let p: Element | null = el; p; p = p.parentElement) p.scrollTop = 0;
    });
    expect(await shown(actions.getByTestId('settings-refusal')), where).toBe(1);
    expect(await shown(actions.getByRole('button', { name: /Apply/ })), where).toBe(1);
    await expect(actions.getByRole('button', { name: /Apply/ })).toBeDisabled();
    await actions.getByRole('button', { name: 'Undo changes' }).click();
    await expect(actions.getByTestId('settings-refusal')).toHaveCount(0);
  }
});

test("at 1280 × 720 the upload preview's Load this trace button is in view without scrolling, in the side tab and on the stage", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const lines = Array.from(
    { length: 40 },
    (_, i) => `${128166385295514663 + i * 1000},hm,0,Write,${i * 4096},4096,100`,
  ).join('\n');
  const file = { name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from(lines + '\n') };
  await page.getByRole('tab', { name: 'Trace' }).click();
  for (const where of ['tab', 'stage'] as const) {
    // (The focus is on the file picker after Cancel, which keeps its keys: the stage bar it is.)
    if (where === 'stage') await page.getByLabel('View on the stage').selectOption('trace');
    const panel = where === 'tab' ? page.getByRole('tabpanel') : stage(page);
    await panel.getByTestId('trace-upload').setInputFiles(file);
    const load = panel.getByRole('button', { name: 'Load this trace' });
    await expect(load).toBeEnabled();
    await expect.poll(() => shown(load), { message: where }).toBe(1);
    if (where === 'tab') await panel.getByRole('button', { name: 'Cancel' }).click();
    else await load.click();
  }
  await expect.poll(async () => (await app.snapshot()).total).toBe(40);
});

test('the stage travels in a shared link; a link naming an unknown view opens the grid and says so', async ({
  page,
  browser,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await page.keyboard.press('3');
  await page.keyboard.press('Shift+Digit1');
  await expect(stage(page)).toHaveAttribute('data-side', 'grid');
  await expect.poll(() => page.url()).toContain('#ftl1.');
  // Written once the app is quiet: wait for a link that differs from the default's.
  await expect.poll(() => page.evaluate(() => location.hash.length)).toBeGreaterThan(40);
  const url = page.url();

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const other = new FtlApp(await context.newPage());
  await other.open(url.replace(/^.*?#/, '/#'));
  await expect(stage(other.page)).toHaveAttribute('data-main', 'cache');
  await expect(stage(other.page)).toHaveAttribute('data-side', 'grid');

  // A hand-written link whose stage names views this app does not have.
  const state = {
    scheme: 'page',
    trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
    sections: { stage: { main: 'hologram', side: 7 } },
  };
  const odd = `/#ftl1.${deflateRawSync(Buffer.from(JSON.stringify(state))).toString('base64url')}`;
  await other.page.goto('about:blank');
  await other.open(odd);
  await expect(stage(other.page)).toHaveAttribute('data-main', 'grid');
  await expect(other.page.locator('.status')).toContainText("there is no view 'hologram' to put on the stage");
  await expect(other.page.locator('.status')).toContainText("no view '7' to put beside it");
  await context.close();
});

test('a projector at 150 % zoom (853 × 480 CSS px) fits the window: the tree on the stage, the timeline in view, nothing scrolls the page', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const app = new FtlApp(await context.newPage());
  await app.open();
  await app.load(MANY_GROUPS);
  await app.page.evaluate(() => window.__ftl!.step(200));
  await app.waitReady();
  await app.page.keyboard.press('2');
  await expect(stage(app.page).getByTestId('tree-svg')).toBeInViewport();
  expect(await shown(stage(app.page).getByTestId('tree-svg').locator('g.row'))).toBeGreaterThanOrEqual(5);
  await expect(app.playButton).toBeInViewport();
  const size = await app.page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.scrollHeight,
  ]);
  expect(size).toEqual([853, 480]);
  await context.close();
});

test('at 1920 × 1080 the tree and the grid share the stage beside the narration and the pinned request inspector', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const app = new FtlApp(await context.newPage());
  await app.open();
  await app.load(MANY_GROUPS);
  await app.page.evaluate(() => window.__ftl!.step(1000));
  await app.waitReady();
  await app.page.getByLabel('View on the stage').selectOption('tree');
  await app.page.getByLabel('View beside it').selectOption('grid');
  await expect(app.grid).toBeInViewport();
  expect(await shown(stage(app.page).getByTestId('tree-svg').locator('g.row'))).toBeGreaterThanOrEqual(20);
  await expect(app.narration).toBeInViewport();
  const size = await app.page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.scrollHeight,
  ]);
  expect(size).toEqual([1920, 1080]);
  await context.close();
});
