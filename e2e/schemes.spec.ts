// Every scheme the engine lists can be selected and played on the default
// experiment without an error, and the block-mapped family's block roles (log; primary and replacement)
// show in the grid legend in the engine's words; the mapping-cache schemes show their
// translation-page traffic in the counters.
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

/** Roles each block-mapped scheme must have shown after a few hundred writes. */
const ROLES: Record<string, string[]> = {
  bast: ['log'],
  sbast: ['log'],
  fast: ['log'],
  'fast-do': ['log'],
  nftl: ['primary', 'replacement'],
  dac: ['primary', 'replacement'],
  rftl: ['primary'],
};

test('every scheme plays a few hundred requests of the default experiment without an error', async ({ page }) => {
  test.setTimeout(120_000);
  const app = new FtlApp(page);
  await app.open();
  const schemes = await app.schemes();
  for (const id of ['block', ...Object.keys(ROLES), 'dftl', 'hcftl']) expect(schemes).toContain(id);
  await page.getByRole('tab', { name: 'Trace' }).click();
  const select = page.getByRole('combobox', { name: 'Scheme' });
  const alert = page.getByTestId('status-error');
  const legend = page.getByRole('list', { name: 'Legend' });
  const seen = new Map<string, Set<string>>();
  for (const id of schemes) {
    await page.evaluate(() => window.__ftl!.seek(0));
    await app.waitReady();
    await select.selectOption(id);
    await expect.poll(async () => (await app.snapshot()).scheme, { message: `scheme ${id} loads` }).toBe(id);
    await app.waitReady();
    await expect(alert, `no error after loading ${id}`).toBeHidden();
    // A few hundred requests in steps, collecting the legend's roles on the way (a log
    // block may be merged away again by the end).
    const roles = new Set<string>();
    for (let k = 0; k < 6; k++) {
      await page.evaluate(() => window.__ftl!.step(50));
      await app.waitReady();
      for (const t of await legend.locator('li').allTextContents())
        if (t.startsWith('valid · ')) roles.add(t.slice('valid · '.length));
    }
    seen.set(id, roles);
    const s = await app.snapshot();
    expect(s.cursor, `${id} served the requests`).toBeGreaterThanOrEqual(Math.min(300, s.total));
    expect(s.counters.integrity_errors ?? 0, `${id} integrity`).toBe(0);
    await expect(alert, `no error while playing ${id}`).toBeHidden();
    // Translation-page traffic by cause shows for the schemes that report it.
    await page.getByRole('tab', { name: 'Counters' }).click();
    await expect(page.getByRole('region', { name: 'Counters' })).toBeVisible();
    const tpages = page.getByTestId('tpage-counters');
    if (id === 'page' || id === 'block') await expect(tpages).toBeHidden();
    if (id === 'hcftl') await expect(tpages.locator('tr[data-cause="dtp_write"]')).toContainText('DTP write');
    if (id === 'dftl') await expect(tpages.locator('tr[data-cause="miss"]')).toContainText('Cache miss');
    await page.getByRole('tab', { name: 'Trace' }).click();
  }
  for (const [id, roles] of Object.entries(ROLES))
    for (const r of roles) expect([...seen.get(id)!], `${id} legend`).toContain(r);
});
