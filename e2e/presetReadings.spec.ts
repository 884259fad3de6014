// Paper presets on the user's own traces: Shin's device sized around the upload, and the
// HCFTL experiment's over-time readings charted.
import { expect, test, type Page } from '@playwright/test';
import { FtlApp } from './app';

async function openSweep(page: Page) {
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByTestId('compare').getByRole('button', { name: 'Sweep', exact: true }).click();
  return page.getByTestId('sweep');
}

/** A plain CSV trace: `passes` sequential passes of 64 KiB writes over [0, bytes). */
function sequentialWrites(name: string, bytes: number, passes: number) {
  const lines = ['op,offset,size,time_us'];
  for (let p = 0; p < passes; p++)
    for (let at = 0; at < bytes; at += 65536) lines.push(`W,${at},65536,${lines.length * 100}`);
  return { name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) };
}

test("Shin's preset sizes each device around the user's own trace and shows the sizes", async ({ page }) => {
  test.setTimeout(240_000);
  const app = new FtlApp(page);
  await app.open();
  const sweep = await openSweep(page);
  await sweep.getByLabel('Paper preset').selectOption({
    label: 'Shin Fig 3: average write response time against device utilization (footprint / capacity)',
  });
  // 160 MiB and 320 MiB footprints, one in each slot.
  await sweep.getByLabel('Your trace for desktop-a').setInputFiles(sequentialWrites('small.csv', 160 << 20, 1));
  await sweep.getByLabel('Your trace for desktop-b').setInputFiles(sequentialWrites('large.csv', 320 << 20, 1));
  await sweep.getByRole('button', { name: 'Run preset' }).click();
  await expect(sweep.getByTestId('sweep-status')).toHaveText('Sweep finished: 70 of 70 points done.', {
    timeout: 180_000,
  });
  const table = sweep.getByTestId('device-sizes');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  const small = table.locator('tr[data-trace="desktop-a"]');
  const large = table.locator('tr[data-trace="desktop-b"]');
  await expect(small.locator('th')).toHaveText('desktop-a (your trace)');
  await expect(small.locator('td').first()).toHaveText('160.0 MiB (measured)');
  await expect(large.locator('td').first()).toHaveText('320.0 MiB (measured)');
  // Seven utilizations; twice the footprint needs about twice the blocks at each.
  const blocks = async (row: typeof small) =>
    await row.locator('td[data-blocks]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-blocks'))));
  const [a, b] = [await blocks(small), await blocks(large)];
  expect(a).toHaveLength(7);
  for (let i = 0; i < 7; i++) {
    expect(b[i] / a[i]).toBeGreaterThan(1.9);
    expect(b[i] / a[i]).toBeLessThan(2.1);
    if (i > 0) expect(a[i]).toBeLessThan(a[i - 1]);
  }
});

test('the HCFTL preset charts its over-time readings (hit ratio, DTP index occupancy, ...) per series', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const app = new FtlApp(page);
  await app.open();
  const sweep = await openSweep(page);
  await sweep
    .getByLabel('Paper preset')
    .selectOption({ label: 'HCFTL Figs 4–6: CMT hit ratio and response time against DFTL and TPFTL' });
  // Small traces of ours in every slot: the paper's 128 GB device, short runs.
  const slots = sweep.getByLabel(/^Your trace for /);
  const n = await slots.count();
  for (let i = 0; i < n; i++) await slots.nth(i).setInputFiles(sequentialWrites(`mine${i}.csv`, 8 << 20, 2));
  await sweep.getByRole('button', { name: 'Run preset' }).click();
  await expect(sweep.getByTestId('sweep-status')).toHaveText(/^Sweep finished: (\d+) of \1 points done\.$/, {
    timeout: 280_000,
  });
  const charts = sweep.getByTestId('over-time-chart');
  await expect(sweep.locator('svg[data-reading="CMT hit ratio so far"]')).toHaveCount(1);
  const occupancy = sweep.locator('svg[data-reading="DTP index occupancy"]');
  await expect(occupancy).toHaveCount(1);
  // Hit ratio: a line per series; DTP index occupancy: HCFTL's only.
  await expect(sweep.locator('svg[data-reading="CMT hit ratio so far"] path.line')).toHaveCount(4);
  await expect(occupancy.locator('path.line')).toHaveCount(1);
  expect(await charts.count()).toBeGreaterThanOrEqual(2);
});
