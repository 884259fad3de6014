import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('the default experiment plays: counters rise, GC runs and the grid changes', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const app = new FtlApp(page);
  await app.open();

  const before = await app.snapshot();
  expect(before.total).toBe(1000);
  expect(before.cursor).toBe(0);
  await expect(page.getByText('msr-cambridge_hm_0_first1000.csv')).toBeVisible();
  const pixelsBefore = await app.gridPixels();

  // At full speed the whole trace may finish within one frame, so wait for the end state.
  await page.getByLabel('Speed').selectOption({ label: 'max' });
  await app.playButton.click();
  await expect.poll(async () => (await app.snapshot()).status, { timeout: 30_000 }).toBe('done');

  const after = await app.snapshot();
  expect(after.cursor).toBe(1000);
  expect(after.counters.flash_page_writes).toBeGreaterThan(before.counters.flash_page_writes);
  expect(after.counters.gc_runs).toBeGreaterThan(0);
  expect(after.counters.integrity_errors).toBe(0);
  expect(after.hash).not.toBe(before.hash);
  await page.getByRole('tab', { name: 'Counters' }).click();
  await expect(page.locator('[data-counter=requests_done]')).toHaveText('1,000');
  expect(await app.gridPixels()).not.toBe(pixelsBefore);
  await expect(app.playButton).toBeDisabled();
  await expect(page.getByText('Trace finished.')).toBeVisible();
  expect(errors).toEqual([]);
});

test('pause stops the engine; the keyboard steps one request at a time', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();

  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(2);

  await page.keyboard.press('Space');
  await expect(app.playButton).toHaveText('Pause');
  await expect.poll(async () => (await app.snapshot()).cursor).toBeGreaterThan(2);
  await page.keyboard.press('Space');
  await expect(app.playButton).toHaveText('Play');
  const paused = await app.snapshot();
  await page.waitForTimeout(500);
  expect((await app.snapshot()).cursor).toBe(paused.cursor);
  expect(paused.status).toBe('ready');
});
