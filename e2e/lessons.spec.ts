// Teaching mode: a lesson opens by its link, steps through every stop with the engine's facts
// in its text, judges one wrong and one right prediction, and switches to the presenter view.
import { deflateRawSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FtlApp } from './app';

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A link written here, independently of the app's encoder (raw DEFLATE + base64url). */
const link = (state: unknown) => `#ftl1.${b64url(deflateRawSync(Buffer.from(JSON.stringify(state))))}`;

const lesson = JSON.parse(readFileSync('public/lessons/page-gc.json', 'utf8')) as {
  experiment: Record<string, unknown>;
  stops: { at: [number, number]; question?: unknown }[];
};

test('a lesson opens by its link, steps through its stops, judges predictions and presents', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new FtlApp(page);
  const first = lesson.stops[0];
  await app.open(
    `/${link({ ...lesson.experiment, at: first.at, tab: 'request', sections: { lesson: { id: 'page-gc', stop: 0 } } })}`,
  );
  await app.waitReady();
  const bar = page.getByTestId('lesson');
  await expect(bar).toContainText('Stop 1 of 6');
  // The text's numbers come from the engine: request 5 programmed 8 pages.
  await expect(page.getByTestId('lesson-text')).toContainText('Request #4 programmed 8 pages');
  // The stop's text points at the block grid: the stage's grid pane is outlined.
  await expect(page.locator('.stage__pane[data-view=grid]')).toHaveAttribute('data-highlight', 'lesson');

  for (let i = 1; i < lesson.stops.length; i++) {
    await bar.getByRole('button', { name: 'Next stop →' }).click();
    await expect(bar).toContainText(`Stop ${i + 1} of 6`);
    await expect
      .poll(
        async () => {
          const s = await app.snapshot();
          return [s.pos.request, s.pos.op];
        },
        { timeout: 30_000 },
      )
      .toEqual(lesson.stops[i].at);
    await expect(page.getByTestId('lesson-text')).not.toContainText('{');

    if (i === 2) {
      // Which block will GC pick? Block 3 is wrong: greedy takes block 0.
      await bar.getByLabel('Your answer').fill('3');
      await bar.getByRole('button', { name: 'Lock in' }).click();
      await bar.getByRole('button', { name: 'Reveal' }).click();
      await expect(page.getByTestId('verdict')).toContainText('Not this time: the engine says 0');
      await bar.getByRole('button', { name: 'Back to this stop' }).click();
      await expect.poll(async () => (await app.snapshot()).pos.request).toBe(9);
    }
    if (i === 4) {
      // How many valid pages will the next victim hold? 4.
      await bar.getByLabel('Your answer').fill('4');
      await bar.getByRole('button', { name: 'Lock in' }).click();
      // Stepping to the reveal (not the Reveal button) judges it too.
      await page.keyboard.press('g');
      await expect(page.getByTestId('verdict')).toContainText('Right!');
    }
  }
  await expect(page.getByTestId('lesson-text')).toContainText(
    'Block 1 was the victim this time, with 4 valid pages copied. The host has written 64 pages, the flash has programmed 72: WAF 1.13.',
  );

  // The user's own stage: moving between stops keeps it; the presenter lends the stage and gives it back.
  const stage = page.getByTestId('stage');
  await page.getByLabel('View on the stage').selectOption('trace');
  await expect(stage).toHaveAttribute('data-main', 'trace');
  await bar.getByRole('button', { name: '← Previous stop' }).click();
  await expect(bar).toContainText('Stop 5 of 6');
  await expect.poll(async () => (await app.snapshot()).pos.request, { timeout: 30_000 }).toBe(10);
  await expect(stage).toHaveAttribute('data-main', 'trace');
  await bar.getByRole('button', { name: 'Next stop →' }).click();
  await expect(bar).toContainText('Stop 6 of 6');
  await expect(stage).toHaveAttribute('data-main', 'trace');

  await bar.getByRole('button', { name: 'Presenter view' }).click();
  const presenter = page.getByTestId('presenter');
  await expect(presenter).toBeVisible();
  // Stop 6 names the counters as its view: they take the stage, the rest of the app steps aside.
  await expect(stage).toHaveAttribute('data-main', 'counters');
  await expect(stage.getByRole('region', { name: 'Counters' }).first()).toBeVisible();
  await expect(page.getByRole('group', { name: 'What is on the stage' })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Narration' })).toBeHidden();
  const [stageBox, textBox] = [await stage.boundingBox(), await presenter.boundingBox()];
  expect(stageBox!.x + stageBox!.width).toBeLessThanOrEqual(textBox!.x + 1);
  expect(stageBox!.width).toBeGreaterThan(600);
  await page.keyboard.press('ArrowLeft');
  await expect(presenter).toContainText('Stop 5 of 6');
  await expect.poll(async () => (await app.snapshot()).pos.request, { timeout: 30_000 }).toBe(10);
  // Stop 5 names no view: the block grid.
  await expect(stage).toHaveAttribute('data-main', 'grid');
  await expect(page.getByTestId('lesson-text')).toContainText('copies');
  await page.screenshot({ path: 'docs/screenshots/lesson-presenter-1280x720.png' });
  // Keyboard only: the answer typed, R reveals it (the app's own R, Reset, is not taken).
  await presenter.getByLabel('Your answer').fill('4');
  await presenter.getByLabel('Your answer').press('Enter');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('r');
  await expect(presenter.getByTestId('verdict')).toContainText('Right!');
  await page.keyboard.press('ArrowLeft');
  await expect(presenter).toContainText('Stop 4 of 6');
  // Leave at once: the stop's link may still be restoring, and a restore keeps a section the
  // user changed meanwhile (share/controller.test.ts), so the stage given back stays.
  await page.keyboard.press('Escape');
  await expect(presenter).toHaveCount(0);
  await expect(stage).toHaveAttribute('data-main', 'trace');
  await expect(page.getByRole('group', { name: 'What is on the stage' })).toBeVisible();
  await expect
    .poll(
      async () => {
        const s = await app.snapshot();
        return [s.pos.request, s.pos.op, s.busy];
      },
      { timeout: 30_000 },
    )
    .toEqual([...lesson.stops[3].at, false]);
  await expect(stage).toHaveAttribute('data-main', 'trace');
  await page.getByLabel('View on the stage').selectOption('grid');
  await page.screenshot({ path: 'docs/screenshots/lesson-stop-1280x720.png' });
});

test('the Lessons tab lists the shipped lessons and opens one; What is an FTL is on the first screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new FtlApp(page);
  await app.open('/');
  await app.waitReady();
  await page.getByText('What is an FTL?').first().click();
  await expect(page.getByText('Flash memory cannot overwrite a page').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Lessons' }).click();
  await page.locator('[data-lesson="bast-merges"]').click();
  await expect(page.getByTestId('lesson')).toContainText('BAST: switch, partial and full merges');
  await expect.poll(async () => (await app.snapshot()).pos.request, { timeout: 30_000 }).toBe(12);
  await page.getByTestId('lesson').getByRole('button', { name: 'switch' }).click();
  await page.getByTestId('lesson').getByRole('button', { name: 'Reveal' }).click();
  await expect(page.getByTestId('verdict')).toContainText('Right!');

  // Ask works on whatever is on screen: the next GC victim, answered by the engine.
  await page.getByRole('tab', { name: 'Lessons' }).click();
  const tab = page.getByRole('region', { name: 'Lessons' });
  await tab.getByRole('button', { name: 'Which block will GC pick next?' }).click();
  await tab.getByLabel('Your answer').fill('999');
  await tab.getByRole('button', { name: 'Lock in' }).click();
  await tab.getByRole('button', { name: 'Reveal' }).click();
  await expect(tab.getByTestId('verdict')).toContainText('Not this time: the engine says');

  // The WAF question N requests ahead: N past the trace's end is refused, said so; N = 2 is asked.
  const s0 = await app.snapshot();
  const left = s0.total - s0.pos.request;
  await tab.getByLabel('N, requests ahead').fill(String(left + 1));
  await tab.getByRole('button', { name: 'What will the WAF be after N more requests?' }).click();
  await expect(tab.getByTestId('ask-problem')).toContainText(`The trace has only ${left} more requests from here`);
  await tab.getByLabel('N, requests ahead').fill('2');
  await tab.getByRole('button', { name: 'What will the WAF be after N more requests?' }).click();
  await expect(tab.getByTestId('ask-problem')).toHaveCount(0);
  await expect(tab.getByTestId('quiz')).toContainText('What will the WAF be after 2 more requests?');
  await tab.getByLabel('Your answer').fill('9.99');
  await tab.getByRole('button', { name: 'Lock in' }).click();
  await tab.getByRole('button', { name: 'Reveal' }).click();
  await expect(tab.getByTestId('verdict')).toContainText('After 2 more requests the flash has programmed');
  await expect.poll(async () => (await app.snapshot()).pos.request).toBe(s0.pos.request + 2);

  // Save this stop: a lesson file of one stop at the position on screen.
  await page.waitForTimeout(400); // the link is rewritten once the position settles
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    tab.getByRole('button', { name: 'Save this stop' }).click(),
  ]);
  const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const pos = (await app.snapshot()).pos;
  expect(saved).toMatchObject({
    experiment: { scheme: 'bast', trace: { shipped: 'teaching/merges.csv' } },
    stops: [{ at: [pos.request, pos.op] }],
  });
});

test('a saturated device is said so on the main screen, with closed-loop arrivals one click away', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new FtlApp(page);
  await app.open('/');
  await app.waitReady();
  await page.keyboard.press('End');
  await expect.poll(async () => (await app.snapshot()).pos.request, { timeout: 30_000 }).toBe(1000);
  const note = page.getByTestId('saturation');
  await expect(note).toContainText('The device is saturated');
  await note.getByRole('button', { name: 'Replay closed loop' }).click();
  await app.waitReady();
  await page.keyboard.press('End');
  await expect.poll(async () => (await app.snapshot()).pos.request, { timeout: 30_000 }).toBe(1000);
  await expect(note).toHaveCount(0);
});

test("the RFTL lesson runs on the thesis' timings: its partial GC step and the bound L(p) are on screen", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new FtlApp(page);
  const rftl = JSON.parse(readFileSync('public/lessons/rftl-partial-gc.json', 'utf8')) as typeof lesson;
  await app.open(
    `/${link({ ...rftl.experiment, at: rftl.stops[1].at, tab: 'request', sections: { lesson: { id: 'rftl-partial-gc', stop: 1 } } })}`,
  );
  await app.waitReady();
  await expect(page.getByTestId('lesson-text')).toContainText('within the bound of 2,325 µs');
  await expect(page.getByTestId('request-gc-step').first()).toContainText('This request ran a partial GC step');
  await expect(page.getByTestId('request-gc-step').first()).toContainText('2,325');
});
