// The worst-case view: RFTL on a small device with the thesis' timings (Table 4.1's
// large-block SLC: 25 µs page read and spare-area read, 300 µs program, 2 ms erase), so its
// bound L(p) = T_er + T_wrpg + T_rdoob = 2,325 µs. "Next GC" stops on the request whose
// write begins a collection; the narration tells it as partial steps, the inspector names the request's GC
// time a partial GC step, and the response chart carries the bound as a labelled line.
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

const THESIS_TIMINGS = { page_read_ns: 25_000, oob_read_ns: 25_000, program_ns: 300_000, erase_ns: 2_000_000 };

test('rftl: next GC shows a partial GC step in the narration and the inspector, and the bound on the chart', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'rftl', device: { latency: THESIS_TIMINGS } });
  expect((await app.snapshot()).scheme).toBe('rftl');

  const bound = page.getByTestId('response-bound');
  await expect(bound).toContainText('RFTL bound L(p) = 2,325 µs');

  await expect(app.button('Next GC')).toBeEnabled();
  await page.keyboard.press('g');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);

  // The jump stands on the collection's start; the narration names its victim.
  const { pos } = await app.snapshot();
  const ev = await page.evaluate(() => window.__ftl!.events());
  const start = ev!.ops[pos.op - 1] as unknown as { type: string; victim: number; valid: number };
  expect(start.type).toBe('gc_start');
  const line = app.narration.locator('[aria-current=step]');
  await expect(line).toContainText(
    'Garbage collection begins, in partial steps that keep each request within the bound',
  );
  await expect(line).toContainText(`victim block ${start.victim}`);

  // The inspector: the request's GC time is one partial step, within the bound.
  const inspector = page.getByTestId('inspector');
  await expect(inspector.locator('tr[data-part="gc"]')).toContainText('partial GC step');
  await expect(page.getByTestId('request-gc-step')).toContainText('partial GC step');
  await expect(page.getByTestId('request-gc-step')).toContainText('2,325 µs');
  await expect(bound).toContainText('RFTL bound L(p) = 2,325 µs');
});

test("rftl: the block under the pointer tells its role and its logical block's GC state; S stops at each partial step", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await app.load({ scheme: 'rftl', device: { latency: THESIS_TIMINGS } });
  await page.keyboard.press('g');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  const { pos } = await app.snapshot();
  const ev = await page.evaluate(() => window.__ftl!.events());
  const start = ev!.ops[pos.op - 1] as unknown as { type: string; victim: number; valid: number };
  expect(start.type).toBe('gc_start');

  // The victim is the primary of the logical block being collected (Fig 4.5 a).
  const { pagesPerBlock } = await page.evaluate(() => window.__ftl!.blockRoles());
  const [x, y] = await page.evaluate(([b, p]) => window.__ftl!.pageCenter(b * p), [start.victim, pagesPerBlock]);
  await app.grid.hover({ position: { x, y } });
  const info = page.getByTestId('page-info');
  await expect(info).toContainText(`Block ${start.victim}, page 0`);
  // The jump stands part-way through the request, which the engine has served whole.
  await expect(info).toContainText(
    /primary of logical block \d+ \(once this request is served\) · GC: collecting the primary into the replacement \(Fig 4\.5 a\): \d+ of \d+ steps done/,
  );

  // "Next GC step" (S) is a stop of its own: it lands on a step that begins no collection
  // (a continuing step) within a few presses, which "Next GC" never does.
  await expect(app.button('Next GC step')).toBeEnabled();
  let continuing = false;
  for (let i = 0; i < 20 && !continuing; i++) {
    const before = await app.snapshot();
    await page.keyboard.press('s');
    await expect.poll(async () => JSON.stringify((await app.snapshot()).pos)).not.toBe(JSON.stringify(before.pos));
    const at = await app.snapshot();
    const ops = (await page.evaluate(() => window.__ftl!.events()))!.ops as unknown as {
      type: string;
      purpose?: string;
    }[];
    const here = ops[at.pos.op - 1];
    expect(here.type === 'gc_start' || here.purpose === 'gc', `stop ${i} stands on a GC operation`).toBe(true);
    continuing = here.type !== 'gc_start';
  }
  expect(continuing).toBe(true);
});

test("rftl: the grid colours each logical block's primary, replacement and buffer, and the legend names them", async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  // Before: the default page-mapped scheme names none of RFTL's roles.
  const legend = page.getByRole('list', { name: 'Legend' });
  await expect(legend).not.toContainText('valid · primary');
  await app.load({ scheme: 'rftl', device: { latency: THESIS_TIMINGS } });
  // After the first collection's request: a logical block has all three blocks.
  await page.keyboard.press('g');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  await page.evaluate(() => window.__ftl!.step(1));
  await app.waitReady();
  for (const role of ['primary', 'replacement', 'buffer']) await expect(legend).toContainText(`valid · ${role}`);
  await expect(legend).not.toContainText('valid · data');

  // The cells are tinted by role: each role's valid pages in its legend swatch's colour, and
  // no block of one role shows another role's colour.
  const { roles, pagesPerBlock } = await page.evaluate(() => window.__ftl!.blockRoles());
  const swatch = async (name: string) =>
    legend
      .locator('li', { hasText: `valid · ${name}` })
      .locator('.swatch')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  const colours = { 8: await swatch('primary'), 4: await swatch('replacement'), 5: await swatch('buffer') };
  expect(new Set(Object.values(colours)).size).toBe(3);
  const painted = await page.evaluate(
    ([roles, ppb]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="block-grid"]')!;
      const ctx = canvas.getContext('2d')!;
      const top = parseFloat(canvas.style.top) || 0;
      const seen: Record<number, string[]> = {};
      // Near a cell's corner, clear of the logical-page label drawn at its centre.
      const off = Math.max(0, Math.floor((window.__ftl!.pageCenter(1)[0] - window.__ftl!.pageCenter(0)[0]) / 2) - 2);
      roles.forEach((role, b) => {
        for (let p = 0; p < ppb; p++) {
          const [cx, cy] = window.__ftl!.pageCenter(b * ppb + p);
          const [x, y] = [cx - off, cy - off];
          if (y - top < 0 || y - top >= canvas.height) continue;
          const [r, g, bl] = ctx.getImageData(Math.floor(x), Math.floor(y - top), 1, 1).data;
          (seen[role] ??= []).push(`rgb(${r}, ${g}, ${bl})`);
        }
      });
      return seen;
    },
    [roles, pagesPerBlock] as const,
  );
  for (const [code, colour] of Object.entries(colours)) {
    expect(painted[Number(code)], `role ${code} drawn in its colour`).toContain(colour);
    for (const [other, c] of Object.entries(colours))
      if (other !== code) expect(painted[Number(code)], `role ${code} not in role ${other}'s colour`).not.toContain(c);
  }
});

test('a scheme without a bound draws no bound line and keeps the plain GC label', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  expect((await app.snapshot()).scheme).toBe('page');
  await page.keyboard.press('g');
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  await expect(page.getByTestId('inspector').locator('tr[data-part="gc"]')).toContainText('GC and merges');
  await expect(app.narration.locator('[aria-current=step]')).toContainText('free blocks ran short');
  await expect(page.getByTestId('response-bound')).toHaveCount(0);
  await expect(page.getByTestId('request-gc-step')).toHaveCount(0);
});
