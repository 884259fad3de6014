import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

/** Sets `metadata.model` in Settings and applies it. */
async function setModel(page: import('@playwright/test').Page, app: FtlApp, model: string) {
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByTestId('settings');
  await settings.locator('[data-path="metadata.model"] select').selectOption(model);
  await settings.getByRole('button', { name: /Apply/ }).click();
  await app.waitReady();
}

test("compare: a metadata model's runs get seed 003's time breakdown, one stacked bar per scheme, and switching the model changes it", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const schemes = (await app.schemes()).slice(0, 2);
  const lab = page.getByTestId('compare');
  const chart = page.getByTestId('time-breakdown-chart');
  const metadataHeights = async () =>
    Promise.all(
      (await chart.locator('rect.segment[data-part="metadata_loading"]').all()).map(async (r) =>
        Number(await r.getAttribute('height')),
      ),
    );

  const run = async (finished: number) => {
    await page.getByRole('tab', { name: 'Compare' }).click();
    await lab.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(lab.getByRole('status')).toHaveText(`Comparison finished: ${finished} of ${finished} runs done.`, {
      timeout: 60_000,
    });
  };

  // The default model places nothing: no breakdown chart.
  await page.getByRole('tab', { name: 'Compare' }).click();
  for (const id of schemes) await lab.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
  await run(2);
  await expect(chart).toHaveCount(0);

  // Without a DRAM cache, metadata pages come from NAND: each bar has a metadata part.
  await setModel(page, app, 'no_cache');
  await run(2);
  await expect(chart.locator('rect.segment')).toHaveCount(8);
  await expect.poll(async () => (await metadataHeights()).every((h) => h > 0)).toBe(true);

  // The ideal SRAM loads nothing: the metadata part is gone.
  await setModel(page, app, 'ideal_sram');
  await run(2);
  await expect(chart.locator('rect.segment')).toHaveCount(8);
  await expect.poll(metadataHeights).toEqual([0, 0]);
});
