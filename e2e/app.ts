// Page object for the app: the controls a user presses and the engine state behind them
// (read through window.__ftl, so assertions are about the simulation, not pixels).
import { expect, type Page } from '@playwright/test';

export type Snapshot = {
  status: string;
  cursor: number;
  total: number;
  hash: string;
  counters: Record<string, number>;
};

export class FtlApp {
  constructor(readonly page: Page) {}

  async open(path = '/') {
    await this.page.goto(path);
    await expect.poll(() => this.snapshot().then((s) => s.status), { timeout: 20_000 }).toBe('ready');
  }

  snapshot(): Promise<Snapshot> {
    return this.page.evaluate(() => {
      if (!window.__ftl) return { status: 'no-hook', cursor: 0, total: 0, hash: '', counters: {} };
      return window.__ftl.snapshot();
    });
  }

  get playButton() {
    return this.page.getByRole('button', { name: /^(Play|Pause)$/ });
  }

  get grid() {
    return this.page.getByTestId('block-grid');
  }

  /** Pixels of the block grid, to check that drawing follows the engine. */
  gridPixels(): Promise<string> {
    return this.page.evaluate(() => (document.querySelector('[data-testid=block-grid]') as HTMLCanvasElement).toDataURL());
  }
}
