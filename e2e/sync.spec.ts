// Synchronised playback. The trace and device on screen under DFTL and TreeFTL in
// the app's worker (simulations of their own ids), stepped together: after every step both
// sides stand at the same request, and on a request DFTL misses in its CMT where TreeFTL's
// cached translation pages hit (the teacher's example).
import { expect, test, type Locator } from '@playwright/test';
import { FtlApp } from './app';

async function side(line: Locator) {
  const [request, hits, misses] = await Promise.all(
    ['data-request', 'data-hits', 'data-misses'].map((a) => line.getAttribute(a)),
  );
  return { request: Number(request), hits: Number(hits), misses: Number(misses) };
}

test('two schemes step through the same requests together; DFTL misses where TreeFTL hits', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Sync' }).click();
  await page.getByTestId('sync-scheme-0').selectOption('dftl');
  await page.getByTestId('sync-scheme-1').selectOption('treeftl');
  await page.getByTestId('sync-load').click();
  const sides = page.getByTestId('sync-side');
  await expect(sides).toHaveCount(2, { timeout: 30_000 });
  await expect(sides.nth(0)).toHaveAttribute('data-scheme', 'dftl');
  await expect(sides.nth(1)).toHaveAttribute('data-scheme', 'treeftl');
  const lines = page.getByTestId('sync-line');
  const main = (await app.snapshot()).pos.request;

  let contrast = -1;
  for (let r = 1; r <= 12; r++) {
    // Arrow keys on the stage step both sides (buttons do the same).
    if (r % 2) await page.getByTestId('sync-step').click();
    else await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('sync-position')).toHaveText(`request ${r} of 1,000`);
    await expect(lines.nth(0)).toHaveAttribute('data-request', String(r));
    await expect(lines.nth(1)).toHaveAttribute('data-request', String(r));
    const [a, b] = [await side(lines.nth(0)), await side(lines.nth(1))];
    if (contrast < 0 && a.misses > 0 && b.misses === 0 && b.hits > 0) contrast = r;
  }
  expect(contrast, 'a request where DFTL misses and TreeFTL hits').toBeGreaterThan(0);
  // Each side narrates its own request, and the app's own timeline did not move.
  await expect(lines.nth(0).locator('li').first()).toBeVisible();
  await expect(lines.nth(1)).toContainText('#11');
  expect((await app.snapshot()).pos.request).toBe(main);
  // Back and the scrubber move both too.
  await page.getByRole('button', { name: '◀ Back both' }).click();
  await expect(lines.nth(0)).toHaveAttribute('data-request', '11');
  await expect(lines.nth(1)).toHaveAttribute('data-request', '11');
  await page.getByLabel('Request (both sides)').fill(String(contrast));
  await expect(lines.nth(0)).toHaveAttribute('data-request', String(contrast));
  await expect(lines.nth(1)).toHaveAttribute('data-request', String(contrast));
  expect((await side(lines.nth(0))).misses).toBeGreaterThan(0);
  expect((await side(lines.nth(1))).misses).toBe(0);
});

test("the open stage keeps its keys: the app's shortcuts do not move the experiment behind it, a side's grid arrows move only its cursor", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Sync' }).click();
  await page.getByTestId('sync-load').click();
  await expect(page.getByTestId('sync-stage')).toBeFocused({ timeout: 30_000 });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('sync-position')).toHaveText('request 1 of 1,000');
  for (const key of ['End', 'PageDown', '.']) await page.keyboard.press(key);
  // Arrows on a side's block grid walk its pages, not both timelines.
  await page.getByTestId('sync-side').nth(0).getByTestId('block-grid').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(500);
  const s = await app.snapshot();
  expect([s.status, s.pos.request]).toEqual(['ready', 0]);
  await expect(page.getByTestId('sync-position')).toHaveText('request 1 of 1,000');
  // Space on the stage plays both sides (and again pauses them), not the app behind it.
  await page.getByTestId('sync-stage').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('sync-play')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('sync-line').nth(1)).not.toHaveAttribute('data-request', '1');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('sync-play')).toHaveAttribute('aria-pressed', 'false');
  const sides = () => Promise.all([0, 1].map((i) => page.getByTestId('sync-line').nth(i).getAttribute('data-request')));
  await expect.poll(async () => new Set(await sides()).size, 'both sides stop at the same request').toBe(1);
  expect((await app.snapshot()).pos.request).toBe(0);
});

test('the open stage is a modal dialog: Tab stays inside it, Escape closes it and focus returns to Show', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await page.getByRole('tab', { name: 'Sync' }).click();
  await page.getByTestId('sync-load').click();
  const stage = page.getByRole('dialog', { name: 'Synchronised playback' });
  await expect(stage).toBeFocused({ timeout: 30_000 });
  const inside = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid=sync-stage]'));
  await page.keyboard.press('Shift+Tab');
  expect(await inside(), 'Shift+Tab from the stage wraps to its last control').toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await inside(), `Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(stage).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show', exact: true })).toBeFocused();
});
