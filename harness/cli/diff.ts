import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { diffReports, parseReportJson, renderDiff } from '../report/diff.ts';
import type { ComparableReport } from '../report/diff.ts';
import { ReportFileError } from '../report/errors.ts';
import { REPORT_FILES } from '../report/write.ts';
import { parse } from './args.ts';
import { UsageError } from './usage-error.ts';

export const DIFF_HELP = `Usage: tds-conformance diff <before/report.json> <after/report.json>

Compares two runs: prints each rule whose status changed ("REST-03  pass → fail"), then the rule counts by status
before and after. A directory stands for the report.json in it.

Exit codes: 0 no rule changed status, 1 some rule changed status, 2 a file is missing or is not a report.json.`;

/**
 * Reads a report for `diff`: a `report.json`, or a directory holding one.
 * @throws {ReportFileError} `REPORT_FILE_NOT_FOUND` or `REPORT_FILE_INVALID`.
 */
export async function readReportFile(given: string): Promise<ComparableReport> {
  let path = given;
  try {
    if ((await stat(given)).isDirectory()) path = join(given, REPORT_FILES.json);
  } catch {
    // reported below, by the read
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ReportFileError(
      code === 'ENOENT' ? 'REPORT_FILE_NOT_FOUND' : 'REPORT_FILE_INVALID',
      path,
      code === 'ENOENT'
        ? `"${path}" does not exist; give the report.json files of two runs (tds-conformance run --out <dir> writes <dir>/report.json)`
        : `"${path}" cannot be read: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return parseReportJson(text, path);
}

/** `tds-conformance diff a b`: 0 when no rule changed status, 1 when one did. Bad files throw (exit 2). */
export async function diffCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parse('diff', args, { help: { type: 'boolean', default: false } });
  if (values.help) {
    process.stdout.write(`${DIFF_HELP}\n`);
    return 0;
  }
  const [before, after, ...extra] = positionals;
  if (before === undefined || after === undefined || extra.length > 0) {
    throw new UsageError(`diff compares two reports: "tds-conformance diff <before/report.json> <after/report.json>" (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}).`);
  }
  const [a, b] = await Promise.all([readReportFile(before), readReportFile(after)]);
  const diff = diffReports(a, b);
  process.stdout.write(renderDiff(diff));
  return diff.changes.length === 0 ? 0 : 1;
}
