/**
 * Launching Debian's Chromium for the browser test of `report.html` and the README screenshot
 * (`scripts/screenshot-report.ts`). Not part of the public API; `playwright-core` is a dev dependency.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, sandbox-less (containers), and nothing that talks to the network on its own. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Thrown when Chromium is not installed: a browser test must fail, never skip. */
export class ChromiumMissingError extends Error {
  readonly code = 'CHROMIUM_MISSING';
  override readonly name = 'ChromiumMissingError';

  constructor(path: string) {
    super(
      `Debian's chromium is not installed at ${path}, so the browser test of report.html cannot run: install it with `
        + '"apt-get update && apt-get install -y chromium" (CI installs it in .ci/run)',
    );
  }
}

/**
 * Launches Chromium headless. Playwright's `launch` gives each browser a fresh, temporary user-data-dir and
 * removes it on `close()`.
 *
 * @throws {ChromiumMissingError} when there is no browser at `path`.
 */
export async function launchChromium(path: string = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(path)) throw new ChromiumMissingError(path);
  return chromium.launch({ executablePath: path, headless: true, args: [...CHROMIUM_ARGS] });
}
