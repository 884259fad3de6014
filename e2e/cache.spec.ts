import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('the cache panel shows a DFTL miss entering the CMT, and stepping back takes it out', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'dftl' });
  await page.getByRole('tab', { name: 'RAM / cache' }).click();
  const cmt = page.getByTestId('cache-cmt');
  await expect(cmt).toBeVisible();

  // To the next mapping miss, then on through the request's operations until the entry is
  // inserted (the miss comes first, the insert after the translation-page read).
  await page.keyboard.press('m');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  const { pos } = await app.snapshot();
  const ev = (await page.evaluate(() => window.__ftl!.events()))!;
  const missAt = ev.ops.slice(0, pos.op).map((e) => e.type).lastIndexOf('cache_miss');
  const key = (ev.ops[missAt] as { key: number }).key;
  const insertAt = ev.ops.findIndex((e, i) => i >= missAt && e.type === 'cache_insert' && (e as { key: number }).key === key);
  expect(insertAt).toBeGreaterThanOrEqual(0);
  const entry = cmt.locator(`li[data-key="${key}"]`);
  await expect(entry).toHaveCount(0);
  for (let op = pos.op; op <= insertAt; op++) await page.evaluate(() => window.__ftl!.stepOp());
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveClass(/is-touched/);
  await expect(cmt.locator('li').first()).toHaveAttribute('data-key', String(key)); // most recent first

  // Back one operation before the insert: the entry is gone again.
  await page.evaluate(() => window.__ftl!.stepBackOp());
  await expect(entry).toHaveCount(0);
});
