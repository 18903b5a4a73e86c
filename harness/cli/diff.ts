import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { resolve } from 'node:path';
import { readBaselineFile } from '../report/baseline.ts';
import { countFlips, diffReports, parseReportJson, renderDiff, renderFlips } from '../report/diff.ts';
import type { ComparableReport } from '../report/diff.ts';
import { ReportFileError } from '../report/errors.ts';
import { REPORT_FILES } from '../report/write.ts';
import { parse } from './args.ts';
import { UsageError } from './usage-error.ts';

export const DIFF_HELP = `Usage: tds-conformance diff <before/report.json> <after/report.json> [<more/report.json> …] [--baseline <known.json>]

Compares two runs: prints each rule whose status changed ("REST-03  pass → fail"), then the rule counts by status
before and after (a rule a run did not select counts as "not-selected"). A directory stands for the report.json in
it.

Given three runs or more (in run order: nightly CERT runs, say), also counts for each rule the runs in which its
status differed from the run before ("API-05  2 of 3 runs flipped  pass fail pass pass"). With --baseline, the
rules its "knownFlaky" list names are marked, and their flips do not count for the exit code.

Exit codes: 0 no rule changed status (but known-flaky ones), 1 some rule changed status, 2 a file is missing or is
not a report.json (or the baseline is not valid).`;

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
  const { values, positionals } = parse('diff', args, { help: { type: 'boolean', default: false }, baseline: { type: 'string' } });
  if (values.help) {
    process.stdout.write(`${DIFF_HELP}\n`);
    return 0;
  }
  if (positionals.length < 2) {
    throw new UsageError(`diff compares two reports or more: "tds-conformance diff <before/report.json> <after/report.json> [<more/report.json> …]" (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}).`);
  }
  const baseline = values.baseline === undefined ? undefined : await readBaselineFile(resolve(values.baseline), values.baseline);
  const flaky = new Set<string>((baseline?.knownFlaky ?? []).map((k) => k.rule));
  const reports = await Promise.all(positionals.map((p) => readReportFile(p)));
  const diff = diffReports(reports[0]!, reports[reports.length - 1]!);
  if (reports.length === 2) {
    process.stdout.write(renderDiff(diff));
    return diff.changes.every((c) => flaky.has(c.id)) ? 0 : 1;
  }
  const flips = countFlips(reports, flaky);
  process.stdout.write(`first → last:\n${renderDiff(diff)}\nover ${reports.length} runs:\n${renderFlips(flips)}`);
  return flips.flipped.every((r) => r.knownFlaky) ? 0 : 1;
}
