/**
 * report.html in a real browser: Debian's Chromium, headless, through playwright-core. Fails (never skips) when
 * /usr/bin/chromium is missing; CI installs it (.ci/run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { ChromiumMissingError, launchChromium } from '../../test/support/browser.ts';
import { Redactor } from './redact.ts';
import { sampleReport } from '../../test/support/report.ts';
import { writeReports } from './write.ts';

const SECRET = 'Ws4kPq9TzX2!';

describe('report.html in Chromium', () => {
  let dir: string;
  let url: string;
  let browser: Browser | undefined;
  let launchError: unknown;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tds-html-'));
    const written = await writeReports(sampleReport(SECRET), dir, new Redactor([SECRET]));
    url = pathToFileURL(written.files.html).href;
    // A missing browser fails every test below with how to install it (rather than skipping them).
    browser = await launchChromium().catch((err: unknown) => {
      launchError = err;
      return undefined;
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    problems = [];
    if (launchError !== undefined) throw launchError;
    if (!browser) throw new Error('the browser did not start');
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // Nothing but the file itself may be requested.
    page.on('request', (request) => {
      if (request.url() !== url) problems.push(`request: ${request.url()}`);
    });
    await page.goto(url);
  });

  afterEach(async () => {
    if (browser === undefined) return;
    await page.close();
    expect(problems).toEqual([]);
  });

  const visibleRows = () => page.locator('#rules tbody tr:visible').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-rule')));
  const shown = () => page.locator('#shown-count').textContent();

  it('renders the summary and a failing rule\'s expected and actual values', async () => {
    expect(await page.title()).toBe('Conformance report: simulator (sim)');
    expect(await page.locator('#verdict').innerText()).toBe('exit code 1: a MUST rule failed');
    const counts = await page.locator('#summary .count').evaluateAll((items) => items.map((i) => i.textContent?.replace(/\s+/g, ' ').trim()));
    expect(counts).toEqual(['1 pass', '0 partial', '1 fail', '1 warn', '1 info', '45 skipped', '1 not applicable', '1 error', '0 not selected']);
    const failure = page.locator('#rule-REST-03');
    expect(await failure.isVisible()).toBe(true);
    expect(await failure.locator('.expected pre').innerText()).toBe('"bearer"');
    expect(await failure.locator('.actual pre').innerText()).toBe('"Bearer" «redacted»');
    expect(await failure.locator('.replay code').innerText()).toBe("npx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token@3:1'");
    expect(await page.content()).not.toContain('Ws4kPq9TzX2');
  });

  it('shows the filters, every rule at first', async () => {
    expect(await page.locator('#filters').isVisible()).toBe(true);
    expect(await shown()).toBe('51');
    expect(await visibleRows()).toHaveLength(51);
  });

  it('hides and shows rows by status', async () => {
    await page.locator('#filter-status input[value="skipped"]').uncheck();
    expect(await visibleRows()).toEqual(['REST-02', 'REST-03', 'REST-05', 'API-01', 'LIFE-01', 'ERR-05']);
    expect(await shown()).toBe('6');
    await page.locator('#filter-status input[value="pass"]').uncheck();
    expect(await visibleRows()).toEqual(['REST-03', 'REST-05', 'API-01', 'LIFE-01', 'ERR-05']);
    expect(await page.locator('#row-REST-02').isHidden()).toBe(true);
    // An area with nothing left to show disappears, its heading too.
    expect(await page.locator('#area-CRED').isHidden()).toBe(true);
    await page.locator('#filter-status input[value="fail"]').uncheck();
    expect(await page.locator('#rule-REST-03').isHidden()).toBe(true);
    expect(await page.locator('#rule-REST-05').isVisible()).toBe(true);
    await page.locator('#filter-status input[value="pass"]').check();
    expect(await page.locator('#row-REST-02').isVisible()).toBe(true);
    await page.locator('button[data-preset="problems"]').click();
    expect(await visibleRows()).toEqual(['REST-03', 'REST-05', 'API-01']);
    await page.locator('button[data-preset="all"]').click();
    expect(await shown()).toBe('51');
  });

  it('hides and shows rows by side', async () => {
    await page.locator('#filter-side input[value="service"]').uncheck();
    const clientRows = await visibleRows();
    expect(clientRows).toContain('CRED-01');
    expect(clientRows).not.toContain('REST-03');
    expect(await page.locator('#rule-REST-03').isHidden()).toBe(true);
    expect(await page.locator('#problems .empty').isVisible()).toBe(true);
    await page.locator('#filter-side input[value="client"]').uncheck();
    expect(await visibleRows()).toEqual([]);
    expect(await page.locator('#rules-empty').isVisible()).toBe(true);
    expect(await shown()).toBe('0');
    await page.locator('#filter-side input[value="service"]').check();
    expect(await visibleRows()).toContain('REST-03');
    expect(await page.locator('#rule-REST-03').isVisible()).toBe(true);
    expect(await visibleRows()).not.toContain('CRED-01');
  });
});

describe('launchChromium', () => {
  it('fails, saying how to install Debian\'s chromium, when the browser is missing', async () => {
    const error = await launchChromium('/nonexistent/chromium').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromiumMissingError);
    expect(error).toMatchObject({
      code: 'CHROMIUM_MISSING',
      message: 'Debian\'s chromium is not installed at /nonexistent/chromium, so the browser test of report.html cannot run: '
        + 'install it with "apt-get update && apt-get install -y chromium" (CI installs it in .ci/run)',
    });
  });
});
