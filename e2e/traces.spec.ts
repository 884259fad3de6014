import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

/** An MSR Cambridge trace of `n` write requests, as the bytes of a file. */
function msrTrace(n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(`${128166385295514663 + i * 1000},hm,0,Write,${((i * 7919) % 100000) * 4096},4096,100`);
  return Buffer.from(lines.join('\n') + '\n');
}

test('a shipped trace shows its statistics before it is run; another can be picked', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  const stats = page.getByTestId('trace-stats');
  await expect(stats.locator('[data-stat=format]')).toHaveText('msr');
  await expect(stats.locator('[data-stat=requests]')).toHaveText('1,000');
  await expect(stats.locator('[data-stat="reads / writes / trims"]')).toHaveText(
    '508 (50.8 %) / 492 (49.2 %) / 0 (0.0 %)',
  );
  expect((await app.snapshot()).cursor).toBe(0);

  await page.getByRole('combobox', { name: 'Trace' }).selectOption('teaching/gc.csv');
  await expect(stats.locator('[data-stat=requests]')).toHaveText('12');
  await app.waitReady();
  const s = await app.snapshot();
  expect(s.total).toBe(12);
  await expect(page.getByText('8 blocks × 8 pages')).toBeVisible();
});

test('a bad upload names file, line and column, and the loaded experiment keeps working', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload({
    name: 'broken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('128166385295514663,hm,0,Write,0,4096,1\n128166385295514664,hm,0,Wrote,4096,4096,1\n'),
  });
  await expect(page.getByTestId('trace-error')).toContainText(
    "broken.csv:2:25: expected Type 'Read' or 'Write', found 'Wrote'",
  );
  await app.waitReady();
  expect((await app.snapshot()).total).toBe(1000);
  await app.button('Step').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(1);

  // With "skip malformed lines" the same file loads, and the skipped line is reported.
  await page.getByText('Parser options').click();
  await page.getByLabel('Skip malformed lines (and count them)').check();
  await app.upload({
    name: 'broken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('128166385295514663,hm,0,Write,0,4096,1\n128166385295514664,hm,0,Wrote,4096,4096,1\n'),
  });
  await expect(page.getByTestId('trace-stats').locator('[data-stat=requests]')).toHaveText('1');
  await expect(page.getByRole('note')).toContainText('1 malformed lines skipped (first: line 2');
});

test('a large upload streams with a visible progress bar', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  const n = 1_500_000; // about 80 MB
  const file = test.info().outputPath('big.csv');
  writeFileSync(file, msrTrace(n));
  await page.getByTestId('trace-upload').setInputFiles(file);
  await expect(page.getByTestId('preview-format')).toContainText('msr');
  await app.throttleCpu(10); // the streaming parser reads 80 MB in well under the bar's 0.5 s otherwise
  await page.getByRole('button', { name: 'Load this trace' }).click();
  const busy = page.locator('.busy');
  await expect(busy.locator('progress')).toBeVisible({ timeout: 15_000 });
  await expect(busy).toContainText('Reading big.csv');
  await app.throttleCpu(1);
  await expect(page.getByTestId('trace-stats').locator('[data-stat=requests]')).toHaveText(n.toLocaleString('en-US'), {
    timeout: 60_000,
  });
  await app.waitReady();
  expect((await app.snapshot()).total).toBe(n);
});

test('the parser options offer blkparse Q or D events, as the CLI does', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  const stats = page.getByTestId('trace-stats');
  await page.getByRole('combobox', { name: 'Trace' }).selectOption('snia-ycsb-rocksdb_ssdtrace-sample.blkparse.txt');
  await expect(stats.locator('[data-stat=requests]')).toHaveText('1,694');
  await app.waitReady();
  await page.getByText('Parser options').click();
  await page.getByLabel('blkparse events').selectOption('Q');
  await page.getByRole('button', { name: 'Reload with these options' }).click();
  await expect(stats.locator('[data-stat=requests]')).toHaveText('1,695');
  await expect(stats.locator('[data-stat="reads / writes / trims"]')).toHaveText(
    '1,695 (100.0 %) / 0 (0.0 %) / 0 (0.0 %)',
  );
  await app.waitReady();
  expect((await app.snapshot()).total).toBe(1695);
});

test('a gzip upload is decompressed as it streams; a PNG is refused as binary', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload({ name: 'small.csv.gz', mimeType: 'application/gzip', buffer: gzipSync(msrTrace(300)) });
  await expect(page.getByTestId('trace-stats').locator('[data-stat=requests]')).toHaveText('300');
  await app.waitReady();
  expect((await app.snapshot()).total).toBe(300);

  // The preview refuses it with the load's own words, and offers no Load.
  await page.getByTestId('trace-upload').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  });
  await expect(page.getByTestId('preview-error')).toContainText(
    'logo.png:1:1: expected a text trace, one request per line; this file looks binary (a PNG image',
  );
  await expect(page.getByRole('button', { name: 'Load this trace' })).toBeDisabled();
});
