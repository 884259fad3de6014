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
  const missAt = ev.ops
    .slice(0, pos.op)
    .map((e) => e.type)
    .lastIndexOf('cache_miss');
  const key = (ev.ops[missAt] as { key: number }).key;
  const insertAt = ev.ops.findIndex(
    (e, i) => i >= missAt && e.type === 'cache_insert' && (e as { key: number }).key === key,
  );
  expect(insertAt).toBeGreaterThanOrEqual(0);
  const entry = cmt.locator(`li[data-key="${key}"]`);
  await expect(entry).toHaveCount(0);
  for (let op = pos.op; op <= insertAt; op++) await page.evaluate(() => window.__ftl!.stepOp());
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveClass(/is-touched/);
  await expect(cmt.locator('li[data-key]').first()).toHaveAttribute('data-key', String(key)); // most recent first

  // Back one operation before the insert: the entry is gone again.
  await page.evaluate(() => window.__ftl!.stepBackOp());
  await expect(entry).toHaveCount(0);
});

test('stepping a DFTL miss shows the translation-page read in the cache view and in the narration', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'dftl' });
  await page.getByRole('tab', { name: 'RAM / cache' }).click();
  await expect(page.getByTestId('cache-cmt')).toBeVisible();

  // To the next mapping miss, then on to the translation-page read it causes (wherever the
  // scheme puts it after the miss: an eviction may come first).
  await page.keyboard.press('m');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  const { pos } = await app.snapshot();
  const ev = (await page.evaluate(() => window.__ftl!.events()))!;
  const missAt = ev.ops
    .slice(0, pos.op)
    .map((e) => e.type)
    .lastIndexOf('cache_miss');
  const lpn = (ev.ops[missAt] as { key: number }).key;
  const readAt = ev.ops.findIndex(
    (e, i) => i > missAt && e.type === 'flash_read' && (e as { purpose: string }).purpose === 'translation',
  );
  expect(readAt).toBeGreaterThan(missAt);
  const tpage = (ev.ops[readAt] as { key: number }).key;

  // On the miss: the path's current step is the lookup, and the CMT shows the key missing.
  const path = page.getByTestId('cache-path');
  await expect(path.locator('[aria-current="step"]')).toContainText(`LPN ${lpn}`);
  await expect(path.locator('[aria-current="step"]')).toContainText('miss');
  await expect(page.getByTestId('cache-cmt').locator(`[data-missing-key="${lpn}"]`)).toBeVisible();

  for (let op = pos.op; op <= readAt; op++) await page.evaluate(() => window.__ftl!.stepOp());
  await expect.poll(async () => (await app.snapshot()).pos.op).toBe(readAt + 1);

  // The read: the current step names the translation page, the GTD row of that page is lit,
  // and the narration tells the same read.
  await expect(path.locator('[aria-current="step"]')).toContainText(`Read translation page ${tpage}`);
  await expect(page.getByTestId('cache-gtd').locator(`tr[data-key="${tpage}"]`)).toHaveAttribute(
    'data-step',
    'tp-read',
  );
  await expect(app.narration).toContainText(new RegExp(`read translation page ${tpage}\\b`, 'i'));

  // The path's steps work from the keyboard: ← goes back one step (to an op before the read).
  await path.locator('[aria-current="step"]').focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeLessThanOrEqual(readAt);
  await expect(path.locator('[aria-current="step"]')).not.toContainText(`Read translation page ${tpage}`);
  await expect(path.locator('[aria-current="step"]')).toBeFocused();
});

test('playing HCFTL until a DTP is written shows it in the DTP index of the cache view', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'hcftl' });
  expect((await app.snapshot()).scheme).toBe('hcftl');
  await page.getByRole('tab', { name: 'RAM / cache' }).click();
  const index = page.getByTestId('cache-dtp_index');
  await expect(index).toBeVisible();
  // DTP ids only grow: the newest one now (the device starts pre-filled, which may pack some).
  const newestId = async () =>
    Math.max(
      -1,
      ...(await index.locator('li[data-id]').evaluateAll((li) => li.map((l) => Number(l.getAttribute('data-id'))))),
    );
  const before = await newestId();

  // Play at 100 requests a second (the panel refreshes on its throttled clock while playing)
  // until a new DTP appears, then pause.
  await page.keyboard.press('+');
  await app.playButton.click();
  await expect.poll(newestId, { timeout: 30_000 }).toBeGreaterThan(before);
  await page.getByRole('button', { name: 'Pause' }).click();
  await app.waitReady();

  // The new DTP is an index entry, listed first (newest first): its LPN range, the flash page
  // it lives on, its bloom filter; and that flash page holds a dynamic translation page.
  // The panel may still repaint once after Pause (its throttled refresh): compare the first
  // entry with the newest id within one read, until they settle.
  const first = index.locator('li[data-id]').first();
  const firstId = async () => Number(await first.getAttribute('data-id'));
  await expect.poll(async () => (await firstId()) === (await newestId())).toBe(true);
  await expect(first).toContainText(/keys [\d,]+–[\d,]+ → flash page [\d,]+/);
  await expect(first).toContainText('bloom');
  const ppn = Number(await first.getAttribute('data-ppn'));
  const info = await page.evaluate((p) => window.__ftl!.pageInfo(p), ppn);
  expect(info?.kind).toBe('Dtp');
});
