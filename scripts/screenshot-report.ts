/**
 * The screenshot of report.html in the README (docs/report-html.png): runs the service suites against the
 * simulator with a few defects switched on, renders report.html, and photographs it in headless Chromium with the
 * "problems only" filter on.
 *
 *   npx tsx scripts/screenshot-report.ts [out.png]
 *
 * Needs Debian's chromium at /usr/bin/chromium. Not part of the tests.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../test/support/browser.ts';
import { Redactor, renderReports } from '../harness/report/index.ts';
import { runConformance } from '../harness/runner.ts';

const out = resolve(process.argv[2] ?? 'docs/report-html.png');
const { report } = await runConformance({
  target: 'sim',
  defects: ['rest04-token-reused', 'err01-wrong-description', 'err03-secret-echoed'],
  outDir: '',
  write: false,
  quiet: true,
  log: () => {},
});
const dir = await mkdtemp(join(tmpdir(), 'tds-screenshot-'));
const browser = await launchChromium();
try {
  const file = join(dir, 'report.html');
  await writeFile(file, renderReports(report, new Redactor()).html, 'utf8');
  const page = await browser.newPage({ viewport: { width: 1200, height: 1300 }, colorScheme: 'light' });
  await page.goto(pathToFileURL(file).href);
  await page.click('button[data-preset="problems"]');
  await page.screenshot({ path: out });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
