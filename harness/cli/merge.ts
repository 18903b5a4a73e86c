import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { exitCodeFor } from '../report/build.ts';
import { baselineLine, createBaseline, readBaselineFile, writeBaselineFile } from '../report/baseline.ts';
import { gateLine } from '../report/gate.ts';
import { parseReportJson } from '../report/diff.ts';
import { ReportFileError } from '../report/errors.ts';
import { renderMatrixHtml, renderMatrixMarkdown } from '../report/matrix.ts';
import { combinedExitCode, judgeMerged, groupBySubject, MergeError, mergeShards, missingShards, type SubjectReport } from '../report/merge.ts';
import type { Report } from '../report/model.ts';
import { Redactor } from '../report/redact.ts';
import { REPORT_FILES, writeReports } from '../report/write.ts';
import { parse } from './args.ts';
import { UsageError } from './usage-error.ts';

export const MERGE_HELP = `Usage: tds-conformance merge [--out <dir>] <report.json | dir | label=report.json>...

Combines the report.json files of several runs into one report set (report.json, junit.xml, report.md,
report.html, report.earl.jsonld). Reports of the same subject (the same target name, or the same label) are shards of
one run (run --shard i/n): their checks are put together and every rule judged again, as one unsharded run would.
Reports of different subjects (targets, clients) also give a conformance matrix, subject × rule: matrix.md and
matrix.html in --out, and each subject's report set in --out/<subject>/. The baseline (--baseline) and the
certification gate (--require-checked) of sharded runs are applied to the merged report, as to one unsharded run.

Options:
  --out <dir>          where to write (default: reports/merged)
  --baseline <file>    judge each subject's merged report by this baseline (known failures, known-flaky rules,
                       expected skips, requireChecked), in place of the one its shards were run with (run --baseline)
  --update-baseline    write the merged run's failures to the --baseline file, as run --update-baseline does for
                       one run (a shard cannot: it knows only its part); the shards of one subject only
  --require-checked    the certification gate on each subject's merged report: a selected rule that ends skipped,
                       not-applicable or partial fails it (exit 1). On by itself for the shards of a run that had
                       the gate on (run --shard … --require-checked, or a baseline's requireChecked), which leave it
                       to the merge, with the baseline's expected skips

A directory stands for the report.json in it; "label=path" names the subject of a report (say, the client it
tested), which is the target's name otherwise.

Exit codes: 0 no MUST rule failed and nothing errored in any subject, 1 one did, 2 a file is missing, is not a
report.json, or shards of one subject come from different runs (seed, --runs, tool version, shard count), 3 a
target could not be reached.`;

/** Reads a whole report.json (a directory stands for the report.json in it), checked as `diff` checks it. */
async function readReport(given: string): Promise<{ file: string; report: Report }> {
  let file = given;
  try {
    if ((await stat(given)).isDirectory()) file = join(given, REPORT_FILES.json);
  } catch {
    // reported by the read
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ReportFileError(code === 'ENOENT' ? 'REPORT_FILE_NOT_FOUND' : 'REPORT_FILE_INVALID', file,
      code === 'ENOENT' ? `"${file}" does not exist; give the report.json files of the runs to merge` : `"${file}" cannot be read: ${(err as Error).message}`, { cause: err });
  }
  parseReportJson(text, file);
  const report = JSON.parse(text) as Report;
  if (typeof report.seed !== 'number' || typeof report.target?.name !== 'string' || !Array.isArray(report.runErrors) || !Array.isArray(report.unmapped)) {
    throw new ReportFileError('REPORT_FILE_INVALID', file, `"${file}" is not a complete report.json of tds-conformance run (no seed, target, runErrors or unmapped); merge the report.json a run wrote`);
  }
  return { file, report };
}

/** `label=path` (a label without a path separator) or a plain path. */
function splitLabel(arg: string): { label?: string; path: string } {
  const eq = arg.indexOf('=');
  if (eq > 0 && !/[\\/]/.test(arg.slice(0, eq))) return { label: arg.slice(0, eq), path: arg.slice(eq + 1) };
  return { path: arg };
}

/** A directory name for a subject. */
export function subjectDir(subject: string): string {
  return subject.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'subject';
}

/** `tds-conformance merge …`: the combined exit code of the merged subjects. */
export async function mergeCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parse('merge', args, {
    out: { type: 'string', default: 'reports/merged' },
    baseline: { type: 'string' },
    'update-baseline': { type: 'boolean', default: false },
    'require-checked': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${MERGE_HELP}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('merge needs the report.json files to combine: "tds-conformance merge shard-1/report.json shard-2/report.json".');
  const inputs: SubjectReport[] = [];
  for (const arg of positionals) {
    const { label, path } = splitLabel(arg);
    const { file, report } = await readReport(path);
    inputs.push({ subject: label ?? report.target.name, file, report });
  }
  const update = values['update-baseline'];
  if (update && values.baseline === undefined) {
    throw new UsageError('--update-baseline writes the file of --baseline: give both, as in "--baseline known.json --update-baseline".');
  }
  const given = values.baseline === undefined ? undefined
    : { file: values.baseline, baseline: await readBaselineFile(resolve(values.baseline), values.baseline, { allowMissing: update }) };
  const outDir = resolve(values.out);
  const redactor = new Redactor();
  const columns: { subject: string; report: Report }[] = [];
  const groups = groupBySubject(inputs);
  if (update && groups.size > 1) {
    throw new UsageError(`--update-baseline writes the baseline of one subject, and these reports are of ${groups.size} (${[...groups.keys()].join(', ')}): merge the shards of one subject.`);
  }
  for (const [subject, group] of groups) {
    const shards = group.map((g) => g.report);
    let merged: Report;
    try {
      merged = mergeShards(shards);
    } catch (err) {
      if (err instanceof MergeError) throw new UsageError(`${err.message}: ${group.map((g) => g.file).join(', ')}.`);
      throw err;
    }
    const missing = missingShards(shards);
    if (missing !== undefined) {
      // A shard that crashed before writing its report must not turn the matrix green: the merged run is incomplete,
      // and its exit code says so (1, or 3 where a shard could not reach the target).
      process.stdout.write(`${subject}: ✗ ${missing}\n`);
      const runErrors = [...merged.runErrors, { code: 'SHARD_MISSING', message: missing }];
      merged = { ...merged, completion: 'partial', runErrors, exitCode: exitCodeFor(merged.rules, runErrors) };
    }
    // With --update-baseline, the merged run is judged by the baseline it writes, as run --update-baseline judges one.
    const baseline = given && (update ? { file: given.file, baseline: createBaseline(merged, given.baseline) } : given);
    const gated = judgeMerged(merged, shards, values['require-checked'], baseline);
    merged = gated.report;
    for (const message of gated.messages) process.stdout.write(`${subject}: ✗ ${message}\n`);
    if (merged.baseline !== undefined) process.stdout.write(`${subject}: ${baselineLine(merged.baseline)}\n`);
    if (merged.gate !== undefined) process.stdout.write(`${subject}: ${gateLine(merged.gate)}\n`);
    if (update && baseline !== undefined) {
      if (merged.completion === 'complete') {
        await writeBaselineFile(resolve(baseline.file), baseline.baseline, baseline.file);
        const n = baseline.baseline.knownFailures.length;
        process.stderr.write(`wrote ${baseline.file}: ${n} known failure${n === 1 ? '' : 's'}\n`);
      } else {
        process.stderr.write(`${baseline.file} was not updated: a shard did not complete (${merged.completion}); run it again.\n`);
      }
    }
    const dir = groups.size === 1 ? outDir : join(outDir, subjectDir(subject));
    const written = await writeReports(merged, dir, redactor);
    columns.push({ subject, report: written.report });
    const s = merged.summary;
    process.stdout.write(`${subject}: ${group.length} report${group.length === 1 ? '' : 's'} → ${dir} (${s.pass} pass, ${s.partial} partial, ${s.fail} fail, ${s.warn} warn, ${s.error} error; exit code ${merged.exitCode})\n`);
  }
  if (columns.length > 1) {
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, 'matrix.md'), renderMatrixMarkdown(columns));
    await writeFile(join(outDir, 'matrix.html'), renderMatrixHtml(columns));
    process.stdout.write(`conformance matrix (${columns.length} subjects × ${columns[0]?.report.rules.length ?? 0} rules) → ${join(outDir, 'matrix.md')}, matrix.html\n`);
  }
  return combinedExitCode(columns.map((c) => c.report));
}
