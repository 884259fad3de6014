import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('settings: a refused value shows the engine message beside the field and the experiment keeps running; a good one applies', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByTestId('settings');
  const blocks = settings.locator('[data-path="device.blocks"]');
  await expect(blocks.getByRole('textbox')).toHaveValue('64');

  await blocks.getByRole('textbox').fill('2');
  await expect(blocks.getByRole('alert')).toContainText('device.blocks');
  await expect(settings.getByRole('button', { name: /Apply/ })).toBeDisabled();
  // The loaded experiment is untouched and still moves.
  await page.evaluate(() => window.__ftl!.step(5));
  await expect.poll(async () => (await app.snapshot()).pos.request).toBe(5);

  await blocks.getByRole('textbox').fill('128');
  await expect(blocks.getByRole('alert')).toHaveCount(0);
  await settings.getByRole('button', { name: /Apply/ }).click();
  await expect.poll(async () => (await app.snapshot()).pos.request).toBe(0);
  await expect.poll(() => page.evaluate(() => window.__ftl!.snapshot().status)).toMatch(/ready|done/);
  await expect(blocks.getByRole('textbox')).toHaveValue('128');
});

test("settings: a scheme's own options come from its spec (dftl batch update)", async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByTestId('settings');
  await settings.getByLabel('Scheme').selectOption('dftl');
  const opts = settings.getByTestId('scheme-options');
  // The spec's default (the DFTL paper: no batch write-back on eviction) is what the form shows.
  await expect(opts.locator('[data-path="options.batch_update"] input[type=checkbox]')).not.toBeChecked();
  await opts.locator('[data-path="options.batch_update"] input[type=checkbox]').check();
  await settings.getByRole('button', { name: /Apply/ }).click();
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('dftl');
});

test('settings: choosing the thesis-rftl preset applies its periodic arrivals, one request per 2,325 µs', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByTestId('settings');
  await expect(settings.locator('#setting-timing')).not.toHaveValue('periodic');
  await settings.getByLabel('Preset').selectOption('thesis-rftl');
  await expect(settings.locator('#setting-timing')).toHaveValue('periodic');
  await expect(settings.locator('[data-path="timing.periodic"]').getByRole('textbox')).toHaveValue('2325000');
  await settings.getByLabel('Scheme').selectOption('rftl');
  await settings.getByRole('button', { name: /Apply/ }).click();
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('rftl');
  await app.waitReady();
  // Request i arrives at i × 2,325 µs and RFTL serves each within that period, so the 10th
  // completes between the 10th arrival (9 periods) and the 11th.
  await page.evaluate(() => window.__ftl!.step(10));
  await expect.poll(async () => (await app.snapshot()).pos.request).toBe(10);
  const t = (await app.snapshot()).counters.sim_time_us;
  expect(t).toBeGreaterThanOrEqual(9 * 2325);
  expect(t).toBeLessThanOrEqual(10 * 2325);
  await expect(settings.locator('#setting-timing')).toHaveValue('periodic');
});
