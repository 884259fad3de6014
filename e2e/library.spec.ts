// The upload preview (format, field meanings, unit override before committing) and
// the trace library in IndexedDB (kept across reloads, renamed, deleted; session-only when the
// quota refuses it). Each test gets a fresh browser context, so a fresh, empty IndexedDB.
import { expect, test, type Page } from '@playwright/test';
import { FtlApp } from './app';

/** An MSR Cambridge trace of `n` write requests 100 µs apart, as the bytes of a file. */
function msrTrace(n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(`${128166385295514663n + BigInt(i) * 1000n},hm,0,Write,${((i * 7919) % 100000) * 4096},4096,100`);
  return Buffer.from(lines.join('\n') + '\n');
}

const requestsStat = (page: Page) => page.getByTestId('trace-stats').first().locator('[data-stat=requests]');

async function openTraceTab(page: Page) {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  return app;
}

test('upload through the picker: preview, commit, run; reload finds it in the library; rename; delete', async ({
  page,
}) => {
  const app = await openTraceTab(page);
  await page
    .getByTestId('trace-upload')
    .setInputFiles({ name: 'mine.csv', mimeType: 'text/csv', buffer: msrTrace(300) });

  // The preview: detected format, each field's meaning, the first lines as the engine reads them.
  const preview = page.getByTestId('upload-preview');
  await expect(preview.getByTestId('preview-format')).toHaveText(/^Detected format: msr — Timestamp,Hostname/);
  await expect(preview.getByRole('definition').first()).toHaveText('arrival time, Windows FILETIME (100 ns ticks)');
  const rows = preview.getByRole('region', { name: 'First lines' }).locator('tbody tr');
  await expect(rows).toHaveCount(12);
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText(
    'write 4.00 KiB at byte 32,436,224 · t+100.0 µs · device hm_0',
  );
  // Nothing is loaded until the user commits.
  expect((await app.snapshot()).total).toBe(1000);

  await preview.getByRole('button', { name: 'Load this trace' }).click();
  await expect(preview).toBeHidden();
  await expect(requestsStat(page)).toHaveText('300');
  await app.waitReady();
  await expect(page.getByTestId('library-note')).toHaveText('Kept in the library as “mine.csv”.');
  await page.evaluate(() => window.__ftl!.step(300));
  await page.evaluate(() => window.__ftl!.refresh());
  const ran = await app.snapshot();
  expect(ran).toMatchObject({ total: 300, cursor: 300 });

  // After a reload (the default trace opens), the upload is in the library with its statistics.
  await page.reload();
  await app.waitReady();
  await page.getByRole('tab', { name: 'Trace' }).click();
  const entry = page.getByTestId('library-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry.locator('.library__name')).toHaveText('mine.csv');
  await expect(entry.locator('.library__meta')).toHaveText('msr · 300 requests · 14.3 KiB');
  await entry.getByText('Statistics').click();
  await expect(entry.locator('[data-stat="reads / writes / trims"]')).toHaveText(
    '0 (0.0 %) / 300 (100.0 %) / 0 (0.0 %)',
  );
  // Loading it from the library runs the same simulation: same state hash at the same position.
  await entry.getByRole('button', { name: 'Load mine.csv' }).click();
  await expect(requestsStat(page)).toHaveText('300');
  await app.waitReady();
  await page.evaluate(() => window.__ftl!.step(300));
  await page.evaluate(() => window.__ftl!.refresh());
  expect((await app.snapshot()).hash).toBe(ran.hash);
  await expect(page.getByRole('combobox', { name: 'Trace' })).toHaveValue(/^lib:[0-9a-f]{64}$/);

  // Rename with the keyboard: Enter saves; the name survives a reload.
  await entry.getByRole('button', { name: 'Rename mine.csv' }).click();
  const name = entry.getByLabel('New name');
  await expect(name).toBeFocused();
  await name.fill('Week 1 writes');
  await name.press('Enter');
  await expect(entry.locator('.library__name')).toHaveText('Week 1 writes');
  await page.reload();
  await app.waitReady();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await expect(entry.locator('.library__name')).toHaveText('Week 1 writes');
  await expect(
    page.getByRole('combobox', { name: 'Trace' }).locator('option', { hasText: 'Week 1 writes' }),
  ).toHaveCount(1);

  // Delete asks once more, then the entry is gone, also after a reload.
  await entry.getByRole('button', { name: 'Delete Week 1 writes', exact: true }).click();
  await entry.getByRole('button', { name: 'Delete Week 1 writes for good' }).click();
  await expect(entry).toHaveCount(0);
  await page.reload();
  await app.waitReady();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await expect(page.getByTestId('trace-library')).toContainText('None yet');
  await expect(page.getByTestId('library-shipped').first()).toBeVisible();
});

test('the preview overrides the time unit before committing, and Esc cancels it', async ({ page }) => {
  const app = await openTraceTab(page);
  const mqsim = Buffer.from('0 0 8 8 0\n1000 0 16 8 1\n2000 0 24 8 0\n');
  const upload = page.getByTestId('trace-upload');
  await upload.setInputFiles({ name: 'mq.trace', mimeType: 'text/plain', buffer: mqsim });
  const preview = page.getByTestId('upload-preview');
  await expect(preview.getByTestId('preview-format')).toContainText('Detected format: mqsim');
  // Focus is in the preview: Esc closes it and loads nothing.
  await expect(preview.getByRole('heading')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  expect((await app.snapshot()).total).toBe(1000);

  await upload.setInputFiles({ name: 'mq.trace', mimeType: 'text/plain', buffer: mqsim });
  const second = preview.locator('tbody tr').nth(1).locator('td').nth(2);
  await expect(second).toHaveText('read 4.00 KiB at byte 8,192 · t+1.0 µs · device 0');
  await preview.getByLabel('Time unit').selectOption('ms');
  await expect(second).toHaveText('read 4.00 KiB at byte 8,192 · t+1.0 s · device 0');
  await preview.getByLabel('Sector size (bytes)').fill('4096');
  await expect(second).toHaveText('read 32.0 KiB at byte 65,536 · t+1.0 s · device 0');
  // Committed from the keyboard.
  await preview.getByRole('button', { name: 'Load this trace' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trace-stats').first().locator('[data-stat=duration]')).toHaveText('2.0 s');
  await app.waitReady();
  expect((await app.snapshot()).total).toBe(3);
});

test('an upload over the storage quota runs for the session and says why it was not kept', async ({ page }) => {
  // TEST SEAM (web/src/traces/library/quota.ts): the app believes the origin has no room left.
  await page.addInitScript(() => {
    globalThis.__ftlTestQuotaBytes = 0;
  });
  const app = await openTraceTab(page);
  await app.upload({ name: 'big.csv', mimeType: 'text/csv', buffer: msrTrace(300) });
  await expect(requestsStat(page)).toHaveText('300');
  await app.waitReady();
  await expect(page.getByTestId('library-note')).toContainText(
    'Not kept in the library: the trace is 14.3 KiB and the browser leaves 0 B for this app (storage quota)',
  );
  const entry = page.getByTestId('library-entry');
  await expect(entry.getByRole('note')).toContainText('This session only.');
  await page.evaluate(() => window.__ftl!.step(300));
  expect((await app.snapshot()).cursor).toBe(300);
  await page.reload();
  await app.waitReady();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await expect(page.getByTestId('trace-library')).toContainText('None yet');
});

test('markup in a trace file and its name is shown as text, never run', async ({ page }) => {
  await openTraceTab(page);
  await page.evaluate(() => {
    (window as { pwned?: boolean }).pwned = false;
  });
  const evil = '<img src=x onerror="window.pwned=true">';
  await page.getByTestId('trace-upload').setInputFiles({
    name: `${evil}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(`${evil}\n<script>window.pwned=true</script>\n`),
  });
  const preview = page.getByTestId('upload-preview');
  await expect(preview.getByTestId('preview-error')).toContainText('expected a line of a known trace format');
  await expect(preview.locator('tbody tr').first().locator('code')).toHaveText(evil);
  await expect(preview.getByRole('heading')).toContainText(evil);
  expect(await page.locator('img[src=x]').count()).toBe(0);
  expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBe(false);
});
