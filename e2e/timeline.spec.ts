import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

test('stepping forward and back, by requests and by operations, returns to the identical engine state', async ({
  page,
}) => {
  const app = new FtlApp(page);
  await app.open();
  await page.evaluate(() => window.__ftl!.step(200));
  const at200 = await app.snapshot();
  expect(at200.cursor).toBe(200);
  expect(at200.hash).toMatch(/^[0-9a-f]{16}$/);

  // Forward: three requests with the button, then two operations of the next one.
  for (let i = 0; i < 3; i++) await app.button('Step').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(203);
  const at203 = await app.snapshot();
  expect(at203.hash).not.toBe(at200.hash);
  await app.button('Step op').click();
  await app.button('Step op').click();
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);

  // Back: operations until request 203's start, then requests.
  for (let s = await app.snapshot(); s.cursor > 203 || s.pos.op > 0; s = await app.snapshot()) {
    await page.evaluate(() => window.__ftl!.stepBackOp());
  }
  expect((await app.snapshot()).hash).toBe(at203.hash);
  for (let i = 0; i < 3; i++) await app.button('Back').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(200);
  expect((await app.snapshot()).hash).toBe(at200.hash);

  // Back over a request boundary by operations lands inside the previous request.
  await app.button('Back op').click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(199);
  await page.evaluate(() => window.__ftl!.step(1));
  expect((await app.snapshot()).hash).toBe(at200.hash);
});

test('jumping to the next GC highlights its victim on the grid', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  await app.button('Next GC').click();
  await expect.poll(async () => (await app.snapshot()).pos.op).toBeGreaterThan(0);
  const { pos } = await app.snapshot();
  const ev = await page.evaluate(() => window.__ftl!.events());
  const start = ev!.ops[pos.op - 1];
  expect(start.type).toBe('gc_start');
  const victim = (start as { victim: number }).victim;
  await expect.poll(() => page.evaluate(() => window.__ftl!.highlight()?.victim)).toBe(victim);
  expect(await page.evaluate(() => window.__ftl!.highlight()?.victimActive)).toBe(true);
  await expect(app.narration.locator('[aria-current=step]')).toContainText(`victim block ${victim}`);

  // Step through the collection: each copy flies from the victim; after the erase the
  // victim is free and the engine's last victim agrees.
  const gcRequest = pos.request;
  for (let i = 0; i < 200 && (await app.snapshot()).pos.op > 0; i++) await page.evaluate(() => window.__ftl!.stepOp());
  expect((await app.snapshot()).cursor).toBe(gcRequest + 1);
  expect(await page.evaluate(() => window.__ftl!.lastGcVictim())).toBe(victim);
  await expect(page.getByTestId('inspector')).toContainText('GC and merges');

  // Hovering the page a copy landed on says what it holds.
  const move = await page.evaluate(() => window.__ftl!.highlight()?.moves[0]);
  if (move) {
    const box = (await app.grid.boundingBox())!;
    const at = await page.evaluate((ppn) => window.__ftl!.pageCenter(ppn), move.to);
    await page.mouse.move(box.x + at[0], box.y + at[1]);
    await expect(page.getByTestId('page-info')).toContainText(/: valid — LPN \d+, version \d+ · .* erased \d+×/);
  }
});

test('the scrubber and the response chart move the timeline', async ({ page }) => {
  const app = new FtlApp(page);
  await app.open();
  const scrubber = page.getByTestId('scrubber');
  await scrubber.fill('600');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(600);
  await scrubber.fill('150');
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(150);
  // A spike in the chart leads to the request that spiked (it becomes the last served).
  const spike = page.locator('[data-testid=response-chart] circle.spike').first();
  await expect(spike).toBeVisible();
  const label = (await spike.getAttribute('aria-label'))!;
  const req = Number(label.match(/#(\d+)/)![1]);
  await spike.click();
  await expect.poll(async () => (await app.snapshot()).cursor).toBe(req + 1);
  await expect(page.getByTestId('inspector')).toContainText(`Request #${req.toLocaleString('en-US')}`);
});
