import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('the keyboard drives the whole timeline, and ? lists every shortcut', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  const cursor = async () => (await app.snapshot()).cursor;

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(cursor).toBe(2);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(cursor).toBe(1);
  await page.keyboard.press('.');
  await expect.poll(async () => (await app.snapshot()).pos.op + (await cursor())).toBeGreaterThan(1);
  await page.keyboard.press(',');
  await expect.poll(async () => (await app.snapshot()).pos).toEqual({ request: 1, op: 0, ops: 0 });

  await page.keyboard.press('g');
  await expect.poll(async () => await page.evaluate(() => window.__ftl!.highlight()?.victimActive)).toBe(true);
  await page.keyboard.press('End');
  await expect.poll(async () => (await app.snapshot()).status).toBe('done');
  await page.keyboard.press('Home');
  await expect.poll(cursor).toBe(0);

  // Speed keys and play/pause.
  const speed = page.getByLabel('Speed');
  const before = await speed.inputValue();
  await page.keyboard.press('+');
  await expect(speed).toHaveValue(String(Number(before) + 1));
  await page.keyboard.press('-');
  await expect(speed).toHaveValue(before);
  await page.keyboard.press('Space');
  await expect(app.playButton).toHaveText(/Pause/);
  await expect.poll(cursor).toBeGreaterThan(0);
  await page.keyboard.press('Space');
  await expect(app.playButton).toHaveText(/Play/);

  // Heat toggle.
  await page.keyboard.press('h');
  await expect(page.getByRole('button', { name: 'Erase count' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('h');

  // Help overlay: lists the shortcuts, closes with Escape; focus is visible on controls.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const label of ['Step one flash operation', 'Step back one request', 'Next GC', 'Next miss', 'Next merge']) {
    await expect(help).toContainText(label);
  }
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe('none');
});
