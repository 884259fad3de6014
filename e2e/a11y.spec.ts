// Keyboard and screen reader. Timeline keys work wherever focus is (except
// text fields), the narration is one tab stop, the grid has a keyboard page cursor, and a
// polite live region says where a move landed (throttled while playing).
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('after clicking a side tab, ← and → step the timeline instead of switching tabs, and Space plays', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const trace = page.getByRole('tab', { name: 'Trace' });
  await trace.click();
  await expect(trace).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(2);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(1);
  await expect(trace).toHaveAttribute('aria-selected', 'true');
  // Space on the open tab plays (and pauses), as the status line says.
  await expect(trace).toBeFocused();
  await page.keyboard.press(' ');
  await expect.poll(async () => (await app.snapshot()).cursor).toBeGreaterThan(3);
  await page.keyboard.press(' ');
  await expect.poll(async () => (await app.snapshot()).status).toMatch(/^(ready|done)$/);
  await page.evaluate(() => window.__ftl!.seek(1));
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(1);
  // In a text field the keys stay the field's.
  await page.getByLabel('Filter narration').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(200);
  expect((await app.snapshot()).cursor).toBe(1);
});

test('the narration list is one tab stop, walked with ↑ ↓', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await page.evaluate(() => window.__ftl!.step(30));
  await page.getByLabel('Filter narration').focus();
  let presses = 0;
  for (; presses < 10; presses++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('role'))) === 'tab') break;
  }
  expect(presses).toBeLessThanOrEqual(3); // the list, then the side tabs
  await page.getByTestId('narration').focus();
  await page.keyboard.press('ArrowDown');
  const first = await page.evaluate(() => document.activeElement?.textContent);
  await page.keyboard.press('ArrowDown');
  const second = await page.evaluate(() => document.activeElement?.textContent);
  expect(second).not.toBe(first);
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=narration]'))).toBe(true);
  await page.keyboard.press('Enter'); // moves the timeline there
  await expect.poll(async () => (await app.snapshot()).cursor).toBeLessThan(30);
});

test('the keyboard moves a page cursor over the grid, with the hover details', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.grid.focus();
  await expect(page.getByTestId('page-info')).toContainText('Block 0, page 0 (PPN 0)');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('page-info')).toContainText('Block 1, page 2 (PPN 18)');
  await expect(page.getByTestId('page-info')).toContainText('erased');
  expect((await app.snapshot()).cursor).toBe(0); // the arrows were the grid's
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('page-info')).toContainText('Hover or tap');
});

test('a polite live region says where a step landed, and little while playing', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  const region = page.getByTestId('announcer');
  await expect(region).toHaveAttribute('aria-live', 'polite');
  await app.button('Step').click();
  await expect(region).toHaveText(/^1 of 1,000 requests served\. Last: (read|write) LPN \d+/);
  await app.button('Next GC').click();
  await expect(region).toHaveText(
    /^Request [\d,]+ of 1,000, (read|write) LPN .*: operation \d+ of \d+\. Garbage collection: free blocks ran short/,
  );
  // Count what the region says over 4 s of fast play.
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid=announcer]')!;
    (window as unknown as { said: number }).said = 0;
    new MutationObserver(() => (window as unknown as { said: number }).said++).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await page.getByLabel('Speed').selectOption({ label: '100 req/s' });
  await app.playButton.click();
  await page.waitForTimeout(4000);
  await app.playButton.click();
  const said = await page.evaluate(() => (window as unknown as { said: number }).said);
  expect(said).toBeGreaterThanOrEqual(1);
  expect(said).toBeLessThanOrEqual(4); // ~400 requests served, at most every 3 s said (plus the stop)
});
