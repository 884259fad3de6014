// A refused load is said where the user is looking, the selectors
// keep what was asked, and switching scheme keeps the position.
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test.use({ viewport: { width: 1280, height: 720 } });

test('a refused upload is announced in the status area, on screen', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload({
    name: 'broken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('128166385295514663,hm,0,Write,0,4096,1\n128166385295514664,hm,0,Wrote,4096,4096,1\n'),
  });
  const alert = page.getByTestId('status-error');
  await expect(alert).toHaveAttribute('role', 'alert');
  await expect(alert).toContainText("broken.csv:2:25: expected Type 'Read' or 'Write', found 'Wrote'");
  await expect(alert).toBeInViewport({ ratio: 1 });
  await app.waitReady();
  // It stays through moves until the user dismisses it.
  await app.button('Step').click();
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toBeHidden();
});

test('a refused scheme stays in the selector, with the reason on screen', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await page.getByRole('combobox', { name: 'Trace' }).selectOption('teaching/gc.csv');
  await app.waitReady();
  const scheme = page.getByRole('combobox', { name: 'Scheme' });
  await scheme.selectOption('dftl');
  const alert = page.getByTestId('status-error');
  await expect(alert).toContainText("open blocks of 'dftl'");
  await expect(alert).toBeInViewport({ ratio: 1 });
  await app.waitReady();
  expect((await app.snapshot()).scheme).toBe('page');
  await expect(scheme).toHaveValue('dftl');
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(scheme).toHaveValue('page');
});

test('switching scheme runs the new scheme to the same request, and keeps playing', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.evaluate(() => window.__ftl!.step(120));
  await page.getByRole('tab', { name: 'Trace' }).click();
  await page.getByRole('combobox', { name: 'Scheme' }).selectOption('dftl');
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('dftl');
  await app.waitReady();
  expect((await app.snapshot()).cursor).toBe(120);

  await page.getByLabel('Speed').selectOption({ label: '5 req/s' });
  await app.playButton.click();
  await expect(app.playButton).toHaveText(/Pause/);
  const at = (await app.snapshot()).cursor;
  await page.getByRole('combobox', { name: 'Scheme' }).selectOption('page');
  await expect.poll(async () => (await app.snapshot()).scheme).toBe('page');
  await expect.poll(async () => (await app.snapshot()).status).toBe('playing');
  expect((await app.snapshot()).cursor).toBeGreaterThanOrEqual(at);
  await app.playButton.click();
});
