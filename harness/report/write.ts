import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderEarl } from './earl.ts';
import { ReportWriteError } from './errors.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { Report } from './model.ts';
import { PROFILE_FILE } from '../profile/types.ts';
import type { Redactor } from './redact.ts';
import { redactReport } from './redact-report.ts';

/** The names of the files a run writes in its output directory. */
export const REPORT_FILES = {
  json: 'report.json',
  junit: 'junit.xml',
  markdown: 'report.md',
  html: 'report.html',
  earl: 'report.earl.jsonld',
} as const;

/** The run's traffic beside the reports, when asked for (`run --report-har`; see harness/har/run-traffic.ts). */
export const TRAFFIC_FILE = 'traffic.har';

/** The kinds of report file, in the order they are listed. */
export type ReportKind = keyof typeof REPORT_FILES;
const KINDS = Object.keys(REPORT_FILES) as ReportKind[];

export interface RenderedReports {
  /** The report after redaction, as the files show it. */
  readonly report: Report;
  readonly json: string;
  readonly junit: string;
  readonly markdown: string;
  readonly html: string;
  /** EARL 1.0 as JSON-LD. */
  readonly earl: string;
}

/**
 * The report texts, with secrets removed twice: the report's data is redacted before rendering (what the run
 * observed by value and pattern, its static strings — titles, replay commands, rule texts — by value only; see
 * {@link redactReport}), and each rendered text again by value, which leaves the syntax of the document alone.
 */
export function renderReports(report: Report, redactor: Redactor): RenderedReports {
  const safe = redactReport(report, redactor);
  return {
    report: safe,
    json: redactor.redactValues(renderJson(safe)),
    junit: redactor.redactValues(renderJunit(safe)),
    markdown: redactor.redactValues(renderMarkdown(safe)),
    html: redactor.redactValues(renderHtml(safe)),
    earl: redactor.redactValues(renderEarl(safe)),
  };
}

let writes = 0;

export interface WrittenReports {
  /** The report after redaction. */
  readonly report: Report;
  /** Paths of the files written. */
  readonly files: { readonly [K in ReportKind]: string };
}

/**
 * Redacts the report and writes `report.json`, `junit.xml`, `report.md`, `report.html` and `report.earl.jsonld` to
 * `outDir` (created if missing).
 * Each file is written to a temporary name and renamed, so a reader never sees half a file.
 *
 * @throws {ReportWriteError} when the directory or a file cannot be written.
 */
export async function writeReports(report: Report, outDir: string, redactor: Redactor): Promise<WrittenReports> {
  const rendered = renderReports(report, redactor);
  const files = Object.fromEntries(KINDS.map((kind) => [kind, join(outDir, REPORT_FILES[kind])])) as { [K in ReportKind]: string };
  try {
    await mkdir(outDir, { recursive: true });
    await Promise.all(KINDS.map(async (kind) => {
      const temporary = `${files[kind]}.${process.pid}-${++writes}.tmp`;
      await writeFile(temporary, rendered[kind], 'utf8');
      await rename(temporary, files[kind]);
    }));
    // A live run's learned profile beside the reports (redacted like them: it holds no secret to begin with).
    if (rendered.report.profile) {
      const file = join(outDir, PROFILE_FILE);
      const temporary = `${file}.${process.pid}-${++writes}.tmp`;
      await writeFile(temporary, redactor.redactValues(`${JSON.stringify(rendered.report.profile, null, 2)}\n`), 'utf8');
      await rename(temporary, file);
    }
  } catch (err) {
    throw new ReportWriteError(outDir, err);
  }
  return { report: rendered.report, files };
}
