// Playwright runs the e2e tests against the production build (vite build + vite preview) in
// Debian's Chromium: no browser download, ever.
import { defineConfig } from '@playwright/test';
import { launchOptions } from './scripts/chromium.mjs';

// E2E_PORT lets two runs (say, a local one and CI) share a machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    trace: 'on-first-retry',
    launchOptions,
  },
  webServer: {
    command: `node_modules/.bin/vite build && node_modules/.bin/vite preview --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
  },
});
