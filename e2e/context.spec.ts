// The screen says that the device starts pre-filled and that the mean
// response of a real trace is mostly queueing on a device smaller than the trace.
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('request 0 says how much of the device is pre-filled', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await expect(page.getByTestId('prefill-note')).toHaveText(/^Before request 0, \d+ % of the pages already hold data/);
  const pct = Number((await page.getByTestId('prefill-note').textContent())!.match(/(\d+) %/)![1]);
  expect(pct).toBeGreaterThan(20);
  expect(pct).toBeLessThan(60);
  await expect(page.getByTestId('prefill-note')).toContainText(
    /Pre-fill: [\d,]+ pages laid out in LPN order in [\d,]+ blocks\./,
  );
});

test('DFTL starts from the same placement: its map written once, nothing superseded, the CMT empty', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'dftl' });
  const note = page.getByTestId('prefill-note');
  await expect(note).toContainText(
    /Pre-fill: [\d,]+ pages laid out in LPN order in [\d,]+ blocks, [\d,]+ translation pages written\. The caches start empty\.$/,
  );
  await expect(note).not.toContainText('superseded');
});

test('a queueing-dominated mean response is said beside the counters and the request', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.keyboard.press('End');
  await expect.poll(async () => (await app.snapshot()).status).toBe('done');
  await page.getByRole('tab', { name: 'Counters' }).click();
  await expect(page.getByTestId('queueing-note')).toHaveText(
    /^About \d+ % of the mean response is queueing: .* on a 4\.00 MiB device far smaller than the trace \(it touches 7\.49 MiB\)/,
  );
});
