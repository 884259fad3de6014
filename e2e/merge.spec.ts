// Merges on screen. Under bast on the teaching device (the default), "Next merge"
// lands on a merge; the narration names its kind and why, and the grid marks its blocks
// (read from the grid's accessible list of marked blocks, not pixels).
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

type Merge = {
  type: 'merge';
  kind: string;
  lbn: number;
  data_block: number | null;
  log_block: number;
  result_block: number;
};

test('next merge under bast: the narration tells its kind and why, the grid marks its blocks', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'bast' });
  expect((await app.snapshot()).scheme).toBe('bast');
  await app.button('Next merge').click();
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);

  // The jump stands on the merge event itself.
  const { pos } = await app.snapshot();
  const ev = await page.evaluate(() => window.__ftl!.events());
  const merge = ev!.ops[pos.op - 1] as unknown as Merge;
  expect(merge.type).toBe('merge');
  const kind = merge.kind.charAt(0).toUpperCase() + merge.kind.slice(1);

  const line = app.narration.locator('[aria-current=step]');
  await expect(line).toContainText(`${kind} merge of logical block ${merge.lbn}: log block ${merge.log_block}`);
  const why = {
    switch: 'written in order and complete',
    partial: 'written in order but is incomplete',
    full: /out of order|holds pages of|a later write/,
  }[merge.kind]!;
  await expect(line).toContainText(why);
  await expect(line).toContainText(/\d+ page cop(y|ies), \d+ erases?/);

  const marks = page.getByTestId('grid-marks');
  await expect(marks.locator(`li[data-mark="merge-log"][data-block="${merge.log_block}"]`)).toHaveCount(1);
  if (merge.data_block !== null)
    await expect(marks.locator(`li[data-mark="merge-data"][data-block="${merge.data_block}"]`)).toHaveCount(1);
  if (merge.kind === 'full' && merge.result_block !== 0xffffffff) {
    await expect(marks.locator(`li[data-mark="merge-result"][data-block="${merge.result_block}"]`)).toHaveCount(1);
  }
  // The grid drew what its list says.
  const hl = await page.evaluate(() => window.__ftl!.highlight());
  expect(hl!.merges.some((m) => m.log === merge.log_block && m.lbn === merge.lbn)).toBe(true);
  await expect(page.getByTestId('legend-merge')).toBeVisible();
});

test('hovering a log block under bast marks the data blocks it serves', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'bast' });
  // After the first merge the log-block pool is in use: take a log block (role 3).
  await app.button('Next merge').click();
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  const { roles, pagesPerBlock } = await page.evaluate(() => window.__ftl!.blockRoles());
  const log = roles.indexOf(3);
  expect(log).toBeGreaterThanOrEqual(0);
  const [x, y] = await page.evaluate(([b, p]) => window.__ftl!.pageCenter(b * p), [log, pagesPerBlock]);
  await app.grid.hover({ position: { x, y } });
  const marks = page.getByTestId('grid-marks');
  await expect(marks.locator(`li[data-mark="hover"][data-block="${log}"]`)).toHaveCount(1);
  // BAST: one log block serves one data block; the list names it.
  await expect(marks.locator('li[data-mark="associated"]')).toHaveCount(1);
  await expect(marks.locator('li[data-mark="associated"]')).toContainText('data block it serves');
});
