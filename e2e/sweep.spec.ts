import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { FtlApp } from './app';

async function openSweep(page: Page) {
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByTestId('compare').getByRole('button', { name: 'Sweep', exact: true }).click();
  return page.getByTestId('sweep');
}

test('a sweep runs to completion, draws its line charts and downloads its CSV', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  const sweep = await openSweep(page);
  await sweep.getByLabel('Sweep parameter').fill('ram_bytes');
  await sweep.getByLabel('Sweep values').fill('2KiB,8KiB');
  for (const id of ['dftl', 'tpftl']) await sweep.getByRole('checkbox', { name: id, exact: true }).check();
  await sweep.getByRole('button', { name: 'Run sweep' }).click();
  await expect(sweep.getByTestId('sweep-status')).toHaveText('Sweep finished: 4 of 4 points done.', {
    timeout: 60_000,
  });
  // One chart per metric of interest, each with a point per scheme and value.
  const mean = sweep.locator('svg[data-metric="response_us.mean"]');
  await expect(mean.locator('circle.point')).toHaveCount(4);
  await expect(sweep.locator('svg[data-metric="mapping.hit_ratio"] circle.point')).toHaveCount(4);
  await expect(mean.locator('circle.point').first()).toHaveAttribute(
    'aria-label',
    /^dftl · Mean response at RAM budget 2 KiB: /,
  );

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    sweep.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const lines = readFileSync(await csv.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines).toHaveLength(5);
  expect(lines[0]).toMatch(/^sweep\.trace,sweep\.series,sweep\.key,sweep\.value,sweep\.label,scheme,/);
  expect(lines.slice(1).map((l) => l.split(',').slice(3, 6).join(','))).toEqual([
    '2048,2 KiB,dftl',
    '2048,2 KiB,tpftl',
    '8192,8 KiB,dftl',
    '8192,8 KiB,tpftl',
  ]);
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    mean.locator('xpath=../..').getByRole('button', { name: 'SVG' }).click(),
  ]);
  expect(readFileSync(await svg.path(), 'utf8')).toContain('circle');
});

test('a bad value fails its own point, naming it, and the others run; a sweep stopped half way keeps its finished points', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const name = 'tencent-cbs_cloud_storage-sample_50k.csv';
  await page.evaluate((n) => window.__ftl!.load({ traceUrl: `traces/${n}`, traceName: n }), name);
  await app.waitReady();
  const sweep = await openSweep(page);
  await sweep.getByRole('checkbox', { name: 'dftl', exact: true }).check();
  await sweep.getByLabel('Sweep parameter').fill('utilization');
  await sweep.getByLabel('Sweep values').fill('0.2,1.5');
  await sweep.getByRole('button', { name: 'Run sweep' }).click();
  await expect(sweep.getByTestId('sweep-status')).toHaveText(/^Sweep finished: 1 of 2 points done, 1 failed\.$/, {
    timeout: 60_000,
  });
  await expect(sweep.locator('.sweep__error')).toContainText(/dftl at 1\.5 on .*device\.utilization/);

  await sweep.getByLabel('Sweep values').fill('0,0.1,0.2,0.3,0.4,0.5,0.6,0.7');
  // The CPU (the workers' too) slowed 20x from Run to Stop: at full speed the other seven
  // points can finish between the status line's first point and the click.
  await app.throttleCpu(20);
  try {
    await sweep.getByRole('button', { name: 'Run sweep' }).click();
    await expect(sweep.getByTestId('sweep-status')).toHaveText(/^Running: [1-9] of 8 points done/, {
      timeout: 60_000,
    });
    await sweep.getByRole('button', { name: 'Stop' }).click();
  } finally {
    await app.throttleCpu(1);
  }
  await expect(sweep.getByRole('button', { name: 'Run sweep' })).toBeEnabled();
  const status = await sweep.getByTestId('sweep-status').innerText();
  const m = /^Sweep finished: (\d) of 8 points done, (\d) stopped\.$/.exec(status);
  expect(m, status).not.toBeNull();
  const finished = Number(m![1]);
  expect(finished).toBeGreaterThan(0);
  expect(finished + Number(m![2])).toBe(8);
  await expect(sweep.locator('svg[data-metric="response_us.mean"] circle.point')).toHaveCount(finished);
});

test("one click runs a paper preset on its stand-in traces and shows the paper's numbers beside ours with agreement", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const sweep = await openSweep(page);
  await sweep.getByLabel('Paper preset').selectOption({
    label: 'Shin Fig 3: average write response time against device utilization (footprint / capacity)',
  });
  await sweep.getByRole('button', { name: 'Run preset' }).click();
  // 7 utilizations x 5 series x 2 stand-ins.
  await expect(sweep.getByTestId('sweep-status')).toHaveText('Sweep finished: 70 of 70 points done.', {
    timeout: 240_000,
  });
  // The x axis is seed 004's utilization, one point per series and value on the write-response chart.
  const chart = sweep.locator('svg[data-metric="response_by_op_us.write.mean"]');
  await expect(chart.locator('circle.point')).toHaveCount(35);
  await expect(chart.locator('circle.point').first()).toHaveAttribute(
    'aria-label',
    /^page · Mean write response at Utilization \(footprint \/ capacity\) 0\.4: /,
  );
  const table = sweep.getByTestId('paper-table');
  await expect(table.locator('tbody tr')).toHaveCount(6);
  // Paper 2.5 – 26 beside a number of ours (not the dash of a missing run), and a mark.
  const first = table.locator('tbody tr').first();
  await expect(first.locator('td').nth(0)).toHaveText('2.5 – 26');
  await expect(first.locator('td').nth(1)).toHaveText(/^-?[\d,.]+( – -?[\d,.]+)?$/);
  await expect(first.locator('td').nth(2)).toHaveText(/agrees|does not agree/);
  await expect(sweep.getByText(/^Differences:/)).toBeVisible();
  await expect(sweep.getByText(/SYNTHETIC STAND-IN A for Shin's private/)).toBeVisible();
});
