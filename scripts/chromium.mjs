// How every browser run of the project launches Debian's Chromium: the Playwright tests
// (playwright.config.ts), the benchmarks and the measuring and screenshot scripts. Nothing is
// downloaded; CHROMIUM_PATH names another binary.

/** The Chromium binary. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless run in a container: no sandbox (no user namespaces), no GPU, and
 *  none of the browser's own network traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** `chromium.launch(...)` / Playwright `launchOptions`. */
export const launchOptions = { executablePath: CHROMIUM, args: CHROMIUM_ARGS };
