// Page object for the app: the controls a user presses and the engine state behind them
// (read through window.__ftl, so assertions are about the simulation, not pixels).
import { expect, type CDPSession, type Locator, type Page } from '@playwright/test';
import type { FtlSnapshot } from '../web/src/testing/testHook';

export type Snapshot = FtlSnapshot;

export class FtlApp {
  constructor(readonly page: Page) {}

  async open(path = '/') {
    await this.page.goto(path);
    await this.waitReady();
  }

  /** Waits until a simulation is loaded and nothing is pending. */
  /**
   * Slows the page's CPU (the worker's too) by `rate` through the DevTools protocol, so work
   * that a fast parser finishes under the busy bar's half-second threshold still shows it;
   * rate 1 restores full speed.
   */
  async throttleCpu(rate: number) {
    // One session for the page's life: detaching it would drop the emulation.
    this.cdp ??= await this.page.context().newCDPSession(this.page);
    await this.cdp.send('Emulation.setCPUThrottlingRate', { rate });
  }

  private cdp?: CDPSession;

  async waitReady() {
    await expect.poll(() => this.snapshot().then((s) => s.status), { timeout: 30_000 }).toMatch(/^(ready|done)$/);
  }

  snapshot(): Promise<Snapshot> {
    return this.page.evaluate(() => {
      if (!window.__ftl)
        return {
          status: 'no-hook',
          cursor: 0,
          pos: { request: 0, op: 0, ops: 0 },
          total: 0,
          hash: '',
          counters: {},
          scheme: '',
          busy: false,
        };
      return window.__ftl.snapshot();
    });
  }

  /** Loads another experiment through the test hook (e.g. another scheme). */
  async load(config: Record<string, unknown>) {
    await this.page.evaluate((c) => window.__ftl!.load({ config: c as { scheme: string } }), config);
    await this.waitReady();
  }

  /**
   * Uploads through the file picker (Trace tab open) and commits it from the upload preview,
   * as a user does: pick, look at the preview, press "Load this trace".
   */
  async upload(files: Parameters<Locator['setInputFiles']>[0]) {
    await this.page.getByTestId('trace-upload').setInputFiles(files);
    await this.page.getByRole('button', { name: 'Load this trace' }).click();
  }

  schemes(): Promise<string[]> {
    return this.page.evaluate(() => window.__ftl!.schemes());
  }

  /** A timeline button by its visible name (exact match). */
  button(name: string) {
    return this.page.getByRole('toolbar', { name: 'Timeline' }).getByRole('button', { name, exact: true });
  }

  get playButton() {
    return this.page.getByRole('button', { name: /^(Play|Pause)$/ });
  }

  get grid() {
    return this.page.getByTestId('block-grid');
  }

  get narration() {
    return this.page.getByTestId('narration');
  }

  /** Pixels of the block grid, to check that drawing follows the engine. */
  gridPixels(): Promise<string> {
    return this.page.evaluate(() =>
      (document.querySelector('[data-testid=block-grid]') as HTMLCanvasElement).toDataURL(),
    );
  }
}

/**
 * `count` random 4 KiB requests (70 % writes) over 8 MiB, seeded: the same trace every run,
 * as a file for {@link FtlApp.upload}.
 */
export function randomTrace(count: number) {
  let s = 7;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const lines = ['op,offset,size,time_us'];
  for (let i = 0; i < count; i++)
    lines.push(`${rand() < 0.7 ? 'W' : 'R'},${Math.floor(rand() * 2048) * 4096},4096,${i * 100}`);
  const k = count % 1000 === 0 ? `${count / 1000}k` : String(count);
  return { name: `random-${k}.csv`, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) };
}
