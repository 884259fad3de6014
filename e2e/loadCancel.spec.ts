// Stop on the progress bar while a big upload streams: the browser's file stream is cut
// short and the experiment that was loaded keeps running where it was.
import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

/** An MSR Cambridge trace of `n` write requests, as the bytes of a file. */
function msrTrace(n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(`${128166385295514663 + i * 1000},hm,0,Write,${((i * 7919) % 100000) * 4096},4096,100`);
  return Buffer.from(lines.join('\n') + '\n');
}

test('Stop while a large upload streams leaves the loaded experiment running', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.evaluate(() => window.__ftl!.step(5));
  await page.getByRole('tab', { name: 'Trace' }).click();
  const file = test.info().outputPath('big.csv');
  writeFileSync(file, msrTrace(1_500_000)); // about 80 MB
  await page.getByTestId('trace-upload').setInputFiles(file);
  await expect(page.getByTestId('preview-format')).toContainText('msr');
  await app.throttleCpu(10); // the streaming parser reads 80 MB in well under the bar's 0.5 s otherwise
  await page.getByRole('button', { name: 'Load this trace' }).click();

  const busy = page.locator('.busy');
  await expect(busy).toContainText('Reading big.csv', { timeout: 15_000 });
  await busy.getByRole('button', { name: 'Stop' }).click();
  await app.throttleCpu(1);
  await expect(page.locator('.status')).toHaveText('Loading cancelled.');
  await expect(busy).toBeHidden();
  const s = await app.snapshot();
  expect(s).toMatchObject({ status: 'ready', total: 1000, cursor: 5 });
  await expect(page.getByTestId('trace-stats').locator('[data-stat=requests]')).toHaveText('1,000');

  await app.button('Step').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(6);
});
