// The grid never grows past its panel, stepping never scrolls the page,
// and small screens never overflow sideways.
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('hovering a page then stepping keeps the grid inside its panel (small teaching device)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await page.getByRole('combobox', { name: 'Trace' }).selectOption('teaching/gc.csv');
  await app.waitReady();
  const stage = page.locator('.app__stage');
  const story = page.locator('.app__story');
  const before = (await app.grid.boundingBox())!;
  const [x, y] = await page.evaluate(() => window.__ftl!.pageCenter(3));
  await page.mouse.move(before.x + x, before.y + y);
  await expect(page.getByTestId('page-info')).toContainText('PPN 3');
  for (let i = 0; i < 4; i++) await app.button('Step').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(4);
  await page.waitForTimeout(300);
  const box = (await app.grid.boundingBox())!;
  const panel = (await stage.boundingBox())!;
  const narration = (await story.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
  expect(box.x + box.width).toBeLessThanOrEqual(narration.x);
  expect(box.width).toBeLessThanOrEqual(before.width + 0.5);
  // And it stays so after the mouse leaves and the window is resized.
  await page.mouse.move(2, 2);
  await page.setViewportSize({ width: 1200, height: 700 });
  await page.waitForTimeout(300);
  const after = (await app.grid.boundingBox())!;
  const panel2 = (await stage.boundingBox())!;
  expect(after.x + after.width).toBeLessThanOrEqual(panel2.x + panel2.width + 0.5);
});

test('at 800 × 600 stepping and playing scroll the narration list, never the page', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const app = new FtlApp(page);
  await app.open();
  for (let i = 0; i < 5; i++) await app.button('Step').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(5);
  await app.button('Step op').click();
  await app.button('Step op').click();
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByLabel('Speed').selectOption({ label: '20 req/s' });
  await app.playButton.click();
  await expect.poll(async () => (await app.snapshot()).cursor, { timeout: 10_000 }).toBeGreaterThan(30);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(app.playButton).toBeInViewport();
  await app.playButton.click();
  // The list itself did scroll to follow the position.
  expect(await page.locator('.narration__list').evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
});

for (const [w, h] of [
  [640, 480],
  [375, 667],
]) {
  test(`nothing overflows sideways at ${w} × ${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const app = new FtlApp(page);
    await app.open();
    await app.button('Step').click();
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    // The side panel clips what sticks out, so the page does not scroll: each control (and the RAM
    // budget's legend, whose longest line says the budget is exceeded) must fit in it.
    const clipped = () =>
      page.evaluate(() => {
        const panel = document.querySelector('[role=tabpanel]')!.getBoundingClientRect();
        return [...document.querySelectorAll('[role=tabpanel] :is(select, input, button, .cache__legend)')]
          .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > panel.right + 0.5)
          .map((e) => e.closest('label')?.textContent?.slice(0, 30) ?? e.tagName);
      });
    for (const tab of [
      'Trace',
      'Settings',
      'Scheme notes',
      'Counters',
      'RAM / cache',
      'Tree',
      'Compare',
      'Sync',
      'Request',
    ]) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      expect(await overflow(), tab).toBe(0);
      expect(await clipped(), tab).toEqual([]);
    }
  });
}

test("the paper's 262,144-block device gets an overview beside its scrolling grid; a click there scrolls the grid", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'page', device: { blocks: 262144, pages_per_block: 64 } });
  const overview = page.getByTestId('grid-overview');
  await expect(overview).toContainText(/^Blocks 0–[\d,]+ of 262,144 in view$/);
  const canvas = overview.locator('canvas');
  const box = (await canvas.boundingBox())!;
  await canvas.click({ position: { x: box.width / 2, y: box.height - 2 } });
  // Near the end of the device now: the first block in view is past 200,000.
  await expect
    .poll(async () => Number((await overview.textContent())!.match(/^Blocks ([\d,]+)/)![1].replace(/,/g, '')))
    .toBeGreaterThan(200_000);
});
