// Every scheme the engine lists runs in the Compare tab on an uploaded trace (eight at a time,
// the tab's most), each reporting the whole trace. The 1,000,000-request measurement of the
// same path is a benchmark: scripts/browser-compare-1m.mjs.
import { expect, test } from '@playwright/test';
import { FtlApp, randomTrace } from './app';

test('every scheme runs an uploaded trace to its end in Compare, eight at a time', async ({ page }) => {
  test.setTimeout(240_000);
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload(randomTrace(20_000));
  await expect.poll(() => app.snapshot().then((s) => s.total), { timeout: 60_000 }).toBe(20_000);
  await app.waitReady();
  // A device every scheme takes: 512 blocks of 64 pages.
  await page.evaluate(() =>
    window.__ftl!.load({ config: { scheme: 'page', device: { blocks: 512, pages_per_block: 64 } } }),
  );
  await app.waitReady();
  const schemes = await app.schemes();
  expect(schemes.length).toBeGreaterThanOrEqual(20);
  await page.getByRole('tab', { name: 'Compare' }).click();
  const lab = page.getByTestId('compare');
  const checked = lab.locator('.compare__schemes input[type=checkbox]:checked');
  for (let b = 0; b < schemes.length; b += 8) {
    const batch = schemes.slice(b, b + 8);
    if (batch.length < 2) batch.unshift(schemes[b - 1]);
    while ((await checked.count()) > 0) await checked.first().uncheck();
    for (const id of batch) await lab.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
    await lab.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(lab.getByRole('status')).toHaveText(
      `Comparison finished: ${batch.length} of ${batch.length} runs done.`,
      { timeout: 120_000 },
    );
    // Each scheme of the batch finished, over the whole trace, and has its row.
    await expect(lab.locator('.compare__progress li[data-status="done"] .compare__runname')).toHaveText(batch);
    for (const bar of await lab.locator('.compare__progress progress').all())
      await expect(bar).toHaveAttribute('aria-label', /: done, 20,000 requests$/);
    await expect(page.getByTestId('compare-results').locator('tbody tr')).toHaveCount(batch.length);
  }
});
