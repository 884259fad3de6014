import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test("settings: switching the metadata placement (seed 003) adds metadata loading to the request's breakdown bar", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const inspector = page.getByTestId('inspector');
  // The default (flat) model charges table accesses as RAM time: no metadata-loading part.
  await page.evaluate(() => window.__ftl!.step(20));
  await expect(inspector).toContainText('Request #');
  await expect(inspector.locator('[data-part="metadata"]')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByTestId('settings');
  const model = settings.locator('[data-path="metadata.model"] select');
  await expect(model).toHaveValue('flat');
  await model.selectOption('no_cache');
  await settings.getByRole('button', { name: /Apply/ }).click();
  await app.waitReady();
  await expect.poll(async () => (await app.snapshot()).pos.request).toBe(0);
  await page.getByRole('tab', { name: 'Request' }).click();

  // Without a DRAM cache a metadata page missing from SRAM is read from NAND and every update
  // is programmed there: within a few requests one shows its own part.
  const metadata = inspector.locator('[data-part="metadata"]');
  await expect
    .poll(async () => {
      await page.evaluate(() => window.__ftl!.step(1));
      return metadata.count();
    })
    .toBe(1);
  await expect(inspector.locator('[data-part="metadata"]')).toContainText('metadata loading');
});
