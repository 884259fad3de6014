import { expect, test, type Page } from '@playwright/test';
import { FtlApp } from './app';

/** The tree view's line of what the current request did to the tree. */
const ops = (page: Page) => page.getByTestId('tree-ops');
const row = (page: Page, id: string) => page.getByTestId('tree-svg').locator(`g.row[data-id="${id}"]`);

/**
 * Steps one request at a time (at most `max`) until the tree view says `what` happened;
 * returns its line.
 */
async function stepUntil(app: FtlApp, what: RegExp, max = 200): Promise<string> {
  for (let i = 0; i < max; i++) {
    const text = (await ops(app.page).textContent()) ?? '';
    if (what.test(text)) return text;
    const before = (await app.snapshot()).pos.request;
    await app.page.evaluate(() => window.__ftl!.step(1));
    await expect(ops(app.page)).toContainText(`Request #${before.toLocaleString('en-US')}:`);
  }
  throw new Error(`no request within ${max} did ${what}`);
}

test('the tree view shows TreeFTL loading a CTP, inserting a CDP and pruning a group, and stepping back brings the group back', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  // The teaching device: RAM for a few CTPs and CDPs, so prunes come within a few dozen requests.
  await app.load({ scheme: 'treeftl' });
  await page.getByRole('tab', { name: 'Tree' }).click();
  await expect(page.getByTestId('tree-panel')).toBeVisible();

  // A CTP load: the new group is drawn under the root, marked as loaded now.
  const load = await stepUntil(app, /CTP (\d+) loaded/);
  const t = load.match(/CTP (\d+) loaded/)![1];
  await expect(row(page, `ctp-${t}`)).toHaveClass(/is-loaded/);
  // The narration names the same operation, with its flash time.
  await expect(app.narration).toContainText(new RegExp(`CTP load: translation page ${t}\\b`));

  // A CDP insert: a dirty leaf under its CTP, marked as inserted now.
  const insert = await stepUntil(app, /CDP LPN (\d+) inserted/);
  const lpn = insert.match(/CDP LPN (\d+) inserted/)![1];
  const leaf = page.getByTestId('tree-svg').locator(`rect.leaf[data-id="cdp-${lpn}"]`);
  await expect(leaf).toHaveClass(/is-dirty/);
  await expect(leaf).toHaveClass(/is-inserted/);

  // The next prune that takes a whole group out (the engine's "next prune" stop).
  let pruned: string | undefined;
  for (let i = 0; i < 20 && !pruned; i++) {
    expect(await page.evaluate(() => window.__ftl!.jumpTo('prune'))).toBe(true);
    await app.waitReady();
    const said = (await ops(page).textContent()) ?? '';
    pruned = said.match(/Prune: CTP (\d+) left/)?.[1];
  }
  expect(pruned, 'a prune that takes a group out').toBeDefined();
  const ghost = page.getByTestId('tree-svg').locator(`g.ghost[data-id="ctp-${pruned}"]`);
  await expect(ghost).toBeVisible();
  await expect(ghost).toContainText(`CTP ${pruned} pruned`);
  // Told as one prune line (or event by event when GC ran inside it).
  await expect(app.narration).toContainText(
    new RegExp(`Prune of caching group CTP ${pruned}\\b|Evict translation page ${pruned}\\b`),
  );
  // Gone from the tree (unless the same request loaded it again, which the line would say).
  const reloaded = new RegExp(`CTP ${pruned} loaded`).test((await ops(page).textContent()) ?? '');
  if (!reloaded) await expect(row(page, `ctp-${pruned}`)).toHaveCount(0);

  // One request back, before the prune: the group is in the tree again, and no ghost.
  await page.keyboard.press('ArrowLeft');
  await app.waitReady();
  await expect(row(page, `ctp-${pruned}`)).toHaveCount(1);
  await expect(ghost).toHaveCount(0);

  // Zoom into that group and out again from the keyboard.
  await row(page, `ctp-${pruned}`).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Zoom' })).toContainText(`CTP ${pruned}`);
  await expect(page.getByTestId('tree-svg').locator('g.row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect(page.getByRole('button', { name: 'Zoom out' })).toHaveCount(0);
});
