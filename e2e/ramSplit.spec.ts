import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

/** The Tree tab's RAM split panel follows the timeline, forwards and back. */
test('the RAM split panel draws mapping and buffer so far, marks the position, and stepping back redraws it as it was', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'treeftl' });
  await page.getByRole('tab', { name: 'Tree' }).click();
  const panel = page.getByTestId('ram-split-panel');
  const marker = panel.locator('.marker title');
  const words = page.getByTestId('ram-split-words');

  await page.evaluate(() => window.__ftl!.step(300));
  const far = (await app.snapshot()).cursor;
  await expect(marker).toHaveText(`Now: ${far.toLocaleString('en-US')} requests served`);
  await expect(panel.locator('path.line')).toHaveCount(2);
  await expect(words).toContainText(/After [\d,]+ requests: mapping [\d.,]+ KiB, buffer [\d.,]+ KiB\./);
  const pointsFar = ((await panel.locator('path.line').first().getAttribute('d')) ?? '').split('L').length;

  await page.evaluate(() => window.__ftl!.seek(60));
  const near = (await app.snapshot()).cursor;
  expect(near).toBeLessThan(far);
  await expect(marker).toHaveText(`Now: ${near.toLocaleString('en-US')} requests served`);
  // The series is the one of the restored state: fewer windows, none past the position.
  const pointsNear = ((await panel.locator('path.line').first().getAttribute('d')) ?? '').split('L').length;
  expect(pointsNear).toBeLessThan(pointsFar);
  const last = Number((await words.textContent())!.match(/After ([\d,]+) requests/)![1].replace(/,/g, ''));
  expect(last).toBeLessThanOrEqual(near);

  // The panel drives the timeline too: Enter on the first window seeks to its end.
  const overlay = panel.locator('rect.overlay');
  await overlay.focus();
  await overlay.press('Home');
  await expect(words).toContainText(/^Requests served [\d,]+ requests: /);
  const first = Number((await words.textContent())!.match(/^Requests served ([\d,]+) requests/)![1].replace(/,/g, ''));
  expect(first).toBeLessThan(near);
  await overlay.press('Enter');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(first);
  await expect(marker).toHaveText(`Now: ${first.toLocaleString('en-US')} requests served`);
});
