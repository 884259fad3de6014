import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FtlApp, randomTrace } from './app';

test('a three-scheme comparison runs to completion, fills the table and charts, and exports CSV, SVG and PNG', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  const schemes = (await app.schemes()).slice(0, 3);
  expect(schemes).toHaveLength(3);
  await page.getByRole('tab', { name: 'Compare' }).click();
  const lab = page.getByTestId('compare');
  for (const id of schemes.slice(0, 2)) await lab.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
  // Keyboard: Space on a focused scheme box ticks it (and does not start playback).
  const third = lab.getByRole('checkbox', { name: new RegExp(`^${schemes[2]} `) });
  await third.focus();
  await page.keyboard.press(' ');
  await expect(third).toBeChecked();
  expect((await app.snapshot()).status).not.toBe('playing');
  // Keyboard: Run is reachable and pressed with Enter.
  await lab.getByRole('button', { name: 'Run', exact: true }).focus();
  await page.keyboard.press('Enter');

  const table = page.getByTestId('compare-results');
  await expect(table.locator('tbody tr')).toHaveCount(3, { timeout: 30_000 });
  await expect(lab.getByRole('button', { name: 'Stop' })).toBeDisabled();
  await expect(lab.getByRole('status')).toHaveText('Comparison finished: 3 of 3 runs done.');
  for (const bar of await lab.locator('progress').all())
    await expect(bar).toHaveAttribute('aria-label', /done, 1,000 requests/);
  // Sorting by WAF orders the rows by the WAF column.
  await table.getByRole('button', { name: /^WAF/ }).click();
  const wafs = (await table.locator('td[data-column="waf"]').allInnerTexts()).map((t) =>
    Number(t.split(' ')[0].replace(/,/g, '')),
  );
  expect(wafs).toEqual([...wafs].sort((a, b) => a - b));

  const chart = page.getByTestId('compare-chart');
  await expect(chart.locator('rect.bar').first()).toBeVisible();

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    lab.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const lines = readFileSync(await csv.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines).toHaveLength(4);
  expect(lines[0]).toMatch(/^scheme,trace\.name,trace\.requests,/);
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[0])
      .sort(),
  ).toEqual([...schemes].sort());
  // The CSV's WAF of each scheme is the table's (shown to 3 decimals).
  const wafAt = lines[0].split(',').indexOf('waf');
  for (const line of lines.slice(1)) {
    const [scheme] = line.split(',');
    const cell = table
      .locator('tr', { has: page.locator(`th[scope=row]`, { hasText: new RegExp(`^${scheme}`) }) })
      .locator('td[data-column="waf"]');
    expect(Number((await cell.innerText()).split(' ')[0])).toBeCloseTo(Number(line.split(',')[wafAt]), 2);
  }

  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    lab.getByRole('button', { name: 'Download SVG' }).click(),
  ]);
  expect(svg.suggestedFilename()).toMatch(/\.svg$/);
  const text = readFileSync(await svg.path(), 'utf8');
  expect(text).toContain('<svg');
  expect(text).toContain('rect');
  // The chart picker: the response-time CDF has a line per scheme; it downloads as a PNG
  // (SVG rendered on a canvas at twice its size).
  await lab.getByRole('combobox', { name: 'Chart' }).selectOption({ label: 'Response-time CDF' });
  const cdf = page.getByTestId('compare-deck-chart');
  await expect(cdf).toHaveAttribute('data-chart', 'cdf');
  await expect(cdf.locator('path.line')).toHaveCount(3);
  await cdf.locator('rect.overlay').focus();
  await page.keyboard.press('End');
  await expect(lab.locator('.compare__hover')).toHaveText(/^Response time [\d,.]+ µs: /);
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    lab.getByRole('button', { name: 'Download PNG' }).click(),
  ]);
  expect(png.suggestedFilename()).toMatch(/-cdf\.png$/);
  const bytes = readFileSync(await png.path());
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const svgWidth = Number(await cdf.getAttribute('width'));
  expect(bytes.readUInt32BE(16)).toBe(svgWidth * 2); // IHDR width
  expect(bytes.readUInt32BE(20)).toBe(600); // 300 px tall, twice
  // Widen lays the lab over the page; the table stays in view there.
  await lab.getByRole('button', { name: 'Widen' }).click();
  await expect(lab.getByRole('button', { name: 'Narrow' })).toHaveAttribute('aria-pressed', 'true');
  await expect(table).toBeInViewport();
});

test('Stop ends the runs still going (finished ones stay), and the next Run starts fresh workers', async ({ page }) => {
  test.setTimeout(120_000);
  const app = new FtlApp(page);
  await app.open();
  // 200,000 requests: long enough that HCFTL's run (about six times page's natively on this
  // trace) is still going when page's has ended.
  await page.getByRole('tab', { name: 'Trace' }).click();
  await app.upload(randomTrace(200_000));
  await expect.poll(() => app.snapshot().then((s) => s.total), { timeout: 60_000 }).toBe(200_000);
  await app.waitReady();
  // page and dftl, quick, and HCFTL, the slowest scheme (on a two-core machine the pool runs
  // two at a time, and HCFTL starts when one of the others ends).
  const schemes = ['page', 'dftl', 'hcftl'];
  expect(await app.schemes()).toEqual(expect.arrayContaining(schemes));
  await page.getByRole('tab', { name: 'Compare' }).click();
  const lab = page.getByTestId('compare');
  for (const id of schemes) await lab.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
  const runs = lab.locator('.compare__progress li');
  const run = (id: string) =>
    runs.filter({ has: page.locator('.compare__runname', { hasText: new RegExp(`^${id}$`) }) });
  // Stop is pressed once page has finished and while HCFTL runs: the CPU (the workers' too)
  // is slowed 20x from Run to Stop, so HCFTL has seconds left then, not the moment between
  // two clicks.
  await app.throttleCpu(20);
  try {
    await lab.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(run('page')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await lab.getByRole('button', { name: 'Stop' }).click();
  } finally {
    await app.throttleCpu(1);
  }
  await expect(lab.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  const states = await runs.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-status')));
  expect(states).toHaveLength(3);
  for (const s of states) expect(['stopped', 'done']).toContain(s);
  // The finished run stays, with its row; the one still going was stopped and has none.
  await expect(run('page')).toHaveAttribute('data-status', 'done');
  await expect(run('hcftl')).toHaveAttribute('data-status', 'stopped');
  const rows = page.getByTestId('compare-results').locator('tbody tr');
  await expect(rows.filter({ hasText: /^page/ })).toHaveCount(1);
  await expect(rows.filter({ hasText: /^hcftl/ })).toHaveCount(0);

  await lab.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('compare-results').locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
  for (const bar of await lab.locator('progress').all())
    await expect(bar).toHaveAttribute('aria-label', /done, 200,000 requests/);
});
