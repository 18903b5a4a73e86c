/**
 * The Vitest reporter of conformance runs: collects the results of the `conformance` project's tests, prints a
 * line per rule area as its tests finish and a summary at the end, and writes the reports.
 * `npx tds-conformance run` and `npx vitest --project conformance` (with this reporter configured) see the same.
 */
import type { Reporter } from 'vitest/node';
import { areas, getRule, isRuleId, ruleIdsInTitle } from '../catalog/index.ts';
import type { AreaId, RuleId } from '../catalog/index.ts';
import { applyBaseline, baselineLine, createBaseline } from './baseline.ts';
import { applyGate, gateLine } from './gate.ts';
import type { Baseline } from './baseline.ts';
import { buildReport, checkResult, UNREACHABLE_CODES } from './build.ts';
import { UnknownRuleError } from './errors.ts';
import { isNotSelected } from './model.ts';
import type { CheckStatus, Completion, Correlation, Report, ReportTarget, Resources, RunError, ShardPart, TestRecord } from './model.ts';
import { errorCode, toTestRecord } from './record.ts';
import type { ErrorLike, TestCaseLike, TestModuleLike } from './record.ts';
import { Redactor } from './redact.ts';
import { redactReport } from './redact-report.ts';
import { REPORT_FILES, writeReports } from './write.ts';
import { throttlingLine } from './throttling.ts';
import { join } from 'node:path';
import { PROFILE_FILE, type LearnedProfile } from '../profile/types.ts';
import { mark } from '../timing.ts';

export interface ConformanceReporterOptions {
  /** Where `report.json`, `junit.xml` and `report.md` go. */
  readonly outDir: string;
  readonly target: ReportTarget;
  readonly seed: number;
  readonly runs: number;
  /** The selected rule IDs; every rule when left out. */
  readonly selection?: readonly RuleId[] | undefined;
  readonly toolVersion: string;
  /** Secrets to keep out of reports and console output. A new, empty one (patterns only) when left out. */
  readonly redactor?: Redactor | undefined;
  /** Where console output goes, a line at a time; standard error when left out. */
  readonly log?: ((line: string) => void) | undefined;
  /** Only the failed, warned and errored rules and the result line; no progress lines, no summary table. */
  readonly quiet?: boolean | undefined;
  /** Write the report files (default `true`); `false` only builds the report. */
  readonly write?: boolean | undefined;
  /** The Vitest project whose tests are conformance checks (default `conformance`). */
  readonly project?: string | undefined;
  /** ANSI colors; by default only when logging to standard error and it is a terminal (and `NO_COLOR` is unset). */
  readonly color?: boolean | undefined;
  readonly unreachableCodes?: ReadonlySet<string> | undefined;
  /** The clock for `startedAt` and `finishedAt`. */
  readonly now?: (() => Date) | undefined;
  /** Arguments appended to replay commands so they run against the same target (see `BuildOptions.replayContext`). */
  readonly replayContext?: readonly string[] | undefined;
  /**
   * A known-failures baseline to apply before the reports are written (`--baseline`): `baseline` as read from
   * `file`; with `update`, the report's own failures replace it (keeping `baseline`'s entries for rules the run did
   * not judge), as `--update-baseline` writes them.
   */
  readonly baseline?: { readonly file: string; readonly baseline: Baseline; readonly update?: boolean } | undefined;
  /** The run's correlation (its ID, header and HAR files), for `report.correlation`. */
  readonly correlation?: Correlation | undefined;
  /** A live run's learned profile of the target, from the report's verdicts (`report.profile`, profile.json). */
  readonly profile?: ((report: Report) => LearnedProfile | undefined) | undefined;
  /** The certification gate (`--require-checked`); also on when the baseline says `requireChecked`. */
  readonly requireChecked?: boolean | undefined;
  /**
   * The shard of the suites' files the run runs (`--shard`): recorded in the report; the gate is then recorded for
   * `merge` rather than applied (a shard holds part of the checks).
   */
  readonly shard?: ShardPart | undefined;
  /** Resource counts known better than the checks' own (a live run's session registry), read when a report is built. */
  readonly resources?: (() => Partial<Resources>) | undefined;
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a rejection nobody awaits must not crash the process
  return { promise, resolve, reject };
}

const SYMBOLS: Record<CheckStatus, string> = {
  pass: '✓', partial: '✓ partial', fail: '✗', warn: 'warn', info: 'info', skipped: 'skip', 'not-applicable': 'n/a', error: 'error',
};
const COLORS: Partial<Record<CheckStatus, number>> = { pass: 32, fail: 31, warn: 33, error: 35 };

export class ConformanceReporter implements Reporter {
  readonly #options: ConformanceReporterOptions;
  readonly #redactor: Redactor;
  readonly #log: (line: string) => void;
  readonly #color: boolean;
  readonly #now: () => Date;
  readonly #project: string;

  #records = new Map<string, TestRecord>();
  #moduleErrors = new Map<string, RunError[]>();
  #runErrors: RunError[] = [];
  #startedAt: Date;
  #ended = false;
  #interrupted = false;
  #report: Report | undefined;
  #result = deferred<Report>();
  #writing: Promise<unknown> = Promise.resolve();

  constructor(options: ConformanceReporterOptions) {
    for (const id of options.selection ?? []) if (!isRuleId(id)) throw new UnknownRuleError(id);
    this.#options = options;
    this.#redactor = options.redactor ?? new Redactor();
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#color = options.color ?? (options.log === undefined && process.stderr.isTTY === true && !process.env['NO_COLOR']);
    this.#now = options.now ?? (() => new Date());
    this.#project = options.project ?? 'conformance';
    this.#startedAt = this.#now();
  }

  /** The report of the finished run (redacted, as written); `undefined` until the run ends. */
  get report(): Report | undefined {
    return this.#report;
  }

  /** The report of the run, once it has ended and the files are written. Rejects when they could not be written. */
  result(): Promise<Report> {
    return this.#result.promise;
  }

  /** The run is being stopped (Ctrl-C): every report written from now on is marked `interrupted`. */
  interrupt(): void {
    this.#interrupted = true;
  }

  /** Adds an error of the run outside any check (sessions the harness could not close, say). */
  addRunError(error: RunError): void {
    this.#runErrors.push(error);
  }

  onInit(): void {
    this.#startedAt = this.#now();
  }

  onTestRunStart(): void {
    this.#records = new Map();
    this.#moduleErrors = new Map();
    this.#runErrors = [];
    this.#startedAt = this.#now();
    if (this.#ended) {
      this.#ended = false;
      this.#report = undefined;
      this.#result = deferred<Report>();
    }
  }

  onTestCaseResult(testCase: TestCaseLike): void {
    if (testCase.project.name !== this.#project) return;
    this.#records.set(testCase.id, toTestRecord(testCase));
  }

  onTestModuleEnd(module: TestModuleLike): void {
    if (module.project.name !== this.#project) return;
    this.#collectModuleErrors(module);
    if (this.#options.quiet) return;
    const records: TestRecord[] = [];
    for (const test of module.children.allTests()) {
      const record = this.#records.get(test.id);
      if (record) records.push(record);
    }
    for (const line of this.#progressLines(records, module.relativeModuleId)) this.#print(line);
  }

  async onTestRunEnd(
    modules: readonly TestModuleLike[],
    unhandledErrors: readonly ErrorLike[],
    reason: 'passed' | 'interrupted' | 'failed',
  ): Promise<void> {
    for (const module of modules) {
      if (module.project.name !== this.#project) continue;
      this.#collectModuleErrors(module);
      for (const test of module.children.allTests()) {
        if (!this.#records.has(test.id)) this.#records.set(test.id, toTestRecord(test));
      }
    }
    for (const error of unhandledErrors) {
      // A worker ended by the Ctrl-C that stopped the run is the interruption itself, already reported as such.
      if (this.#interrupted && error.message.startsWith('[vitest-pool]')) continue;
      const code = errorCode(error);
      this.#runErrors.push({ code: 'UNHANDLED_ERROR', message: `${code ? `${code}: ` : ''}${error.message}` });
    }
    this.#ended = true;
    try {
      const report = await this.#write(reason === 'interrupted' || this.#interrupted ? 'interrupted' : 'complete');
      this.#report = report;
      this.#printSummary(report);
      this.#result.resolve(report);
    } catch (err) {
      this.#print(`tds-conformance: ${err instanceof Error ? err.message : String(err)}`);
      this.#result.reject(err);
    }
  }

  /**
   * Builds a report of what is known so far and writes it (unless writing is off): for a run that is being
   * interrupted or is crashing. Checks that have not finished are missing; the report says `partial` (or
   * `interrupted`, after {@link interrupt}).
   */
  async flush(): Promise<Report> {
    return this.#write(this.#interrupted ? 'interrupted' : this.#ended ? 'complete' : 'partial');
  }

  #write(completion: Completion): Promise<Report> {
    const learn = (report: Report): Report => {
      const profile = this.#options.profile?.(report);
      return profile ? { ...report, profile } : report;
    };
    const build = (): Report => learn(buildReport([...this.#records.values()], {
      toolVersion: this.#options.toolVersion,
      target: this.#options.target,
      seed: this.#options.seed,
      runs: this.#options.runs,
      selection: this.#options.selection,
      startedAt: this.#startedAt.toISOString(),
      finishedAt: this.#now().toISOString(),
      completion,
      runErrors: [...[...this.#moduleErrors.values()].flat(), ...this.#runErrors],
      unreachableCodes: this.#options.unreachableCodes ?? UNREACHABLE_CODES,
      replayContext: this.#options.replayContext,
      resources: this.#options.resources?.(),
      correlation: this.#options.correlation,
      shard: this.#options.shard,
    }));
    const judge = (report: Report): Report => {
      const given = this.#options.baseline;
      const baseline = given === undefined ? undefined : given.update ? createBaseline(report, given.baseline) : given.baseline;
      const applied = given === undefined || baseline === undefined ? report : applyBaseline(report, baseline, given.file, this.#options.unreachableCodes ?? UNREACHABLE_CODES).report;
      // A shard's baseline goes with its report: merge judges the merged rules by it again.
      const judged = this.#options.shard !== undefined && given !== undefined && baseline !== undefined ? { ...applied, deferredBaseline: { file: given.file, baseline } } : applied;
      const gated = this.#options.requireChecked === true || baseline?.requireChecked === true;
      if (!gated) return judged;
      const expectedSkips = baseline?.expectedSkips ?? [];
      // A shard cannot tell a rule left unchecked from one checked in another shard: merge applies the gate.
      if (this.#options.shard !== undefined) return { ...judged, deferredGate: { expectedSkips, ...(given?.file !== undefined && { baselineFile: given.file }) } };
      return applyGate(judged, expectedSkips, given?.file).report;
    };
    // One write at a time: a flush and the final write must not interleave.
    const next = this.#writing.then(async () => {
      const report = judge(build());
      if (this.#options.write === false) return redactReport(report, this.#redactor);
      const written = (await writeReports(report, this.#options.outDir, this.#redactor)).report;
      mark('reports-written');
      return written;
    });
    this.#writing = next.catch(() => undefined);
    return next;
  }

  #collectModuleErrors(module: TestModuleLike): void {
    const errors: RunError[] = [];
    const add = (where: string, error: ErrorLike) =>
      errors.push({ code: 'TEST_FILE_FAILED', message: `${where}: ${error.message}` });
    for (const error of module.errors()) add(module.relativeModuleId, error);
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors()) add(`${module.relativeModuleId} › ${suite.name}`, error);
    }
    this.#moduleErrors.set(module.moduleId, errors);
  }

  #progressLines(records: readonly TestRecord[], file: string): string[] {
    const byArea = new Map<AreaId, CheckStatus[]>();
    const codes = this.#options.unreachableCodes ?? UNREACHABLE_CODES;
    for (const record of records) {
      for (const id of new Set(ruleIdsInTitle(record.title))) {
        const rule = getRule(id);
        byArea.set(rule.area, [...(byArea.get(rule.area) ?? []), checkResult(record, rule, codes).status]);
      }
    }
    return areas.filter((a) => byArea.has(a.id)).map((area) => {
      const statuses = byArea.get(area.id) ?? [];
      const count = (s: CheckStatus) => statuses.filter((x) => x === s).length;
      const parts = (Object.keys(SYMBOLS) as CheckStatus[])
        .filter((s) => s === 'pass' || s === 'fail' || count(s) > 0)
        .map((s) => this.#paint(s, `${SYMBOLS[s]} ${count(s)}`));
      const checks = `${statuses.length} check${statuses.length === 1 ? '' : 's'}`;
      return `${area.id.padEnd(7)} ${checks.padStart(10)}  ${parts.join('  ')}  (${file})`;
    });
  }

  #printSummary(report: Report): void {
    if (!this.#options.quiet) {
      // `skip` counts the selected rules skipped for a reason; the rules the run did not select have a column of their own.
      const columns = ['pass', 'partial', 'fail', 'warn', 'info', 'skipped', 'not-applicable', 'error'] as const;
      const heads = ['pass', 'part', 'fail', 'warn', 'info', 'skip', 'n/a', 'error'];
      const row = (label: string, values: readonly (number | string)[], notSelected: number | string) =>
        `${label.padEnd(8)}${values.map((v) => String(v).padStart(6)).join('')}${String(notSelected).padStart(14)}`;
      this.#print('');
      this.#print(row('area', ['rules', ...heads], 'not selected'));
      for (const area of areas) {
        const rules = report.rules.filter((r) => r.area === area.id);
        const selected = rules.filter((r) => !isNotSelected(r));
        this.#print(row(area.id, [rules.length, ...columns.map((s) => selected.filter((r) => r.status === s).length)], rules.length - selected.length));
      }
      const s = report.summary;
      this.#print(row('total', [report.rules.length, s.pass, s.partial, s.fail, s.warn, s.info, s.skipped, s.notApplicable, s.error], s.notSelected));
    }

    const problems = report.rules.filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error');
    if (problems.length > 0) {
      this.#print('');
      for (const rule of problems) {
        const first = rule.checks.find((c) => c.status === rule.status);
        const message = first && first.status !== 'pass' ? first.message : (rule.reason ?? '');
        const excused = rule.knownFailure ?? rule.knownFlaky;
        const symbol = rule.knownFailure ? 'known' : rule.knownFlaky ? 'flaky' : SYMBOLS[rule.status];
        const status = rule.knownFailure ? `${rule.status} (known failure)` : rule.knownFlaky ? `${rule.status} (known flaky)` : rule.status;
        const line = `${symbol.padEnd(5)} ${rule.id} ${rule.level} ${status}: ${message.split('\n', 1)[0] ?? ''}`;
        this.#print(excused ? line : this.#paint(rule.status, line));
      }
    }
    if (report.baseline !== undefined) {
      const b = report.baseline;
      for (const message of b.messages) this.#print(this.#paint('fail', `✗     ${message}`));
      this.#print(baselineLine(b));
    }
    if (report.gate !== undefined) {
      const g = report.gate;
      for (const message of g.messages) this.#print(this.#paint('fail', `✗     ${message}`));
      this.#print(gateLine(g));
    }
    if (report.deferredGate !== undefined) {
      this.#print(`require-checked: left to "tds-conformance merge", which applies it to this run's shards together (shard ${report.shard?.index ?? '?'}/${report.shard?.count ?? '?'} ran part of the suites' files)`);
    }
    for (const error of report.runErrors) this.#print(this.#paint('error', `error ${error.code}: ${error.message}`));
    if (report.target.kind === 'live') {
      const r = report.resources;
      const requests = r.tokenRequests !== undefined ? `; requests: ${r.tokenRequests} token-creating, ${r.sessionRequests ?? 0} SessionCreateRQ` : '';
      this.#print(`created on the target: ${r.tokens} token${r.tokens === 1 ? '' : 's'}, ${r.sessionsOpened} session${r.sessionsOpened === 1 ? '' : 's'} opened, ${r.sessionsClosed} closed${requests}`);
    }
    if (report.throttling !== undefined) this.#print(throttlingLine(report.throttling));
    if (report.profile !== undefined) {
      const p = report.profile;
      const observed = Object.values(p.latitudes).filter((l) => l.observed).length;
      const reproducible = p.deviations.filter((d) => d.defect !== undefined).length;
      const where = this.#options.write !== false ? `${join(this.#options.outDir, PROFILE_FILE)}: ` : '';
      this.#print(`profile: ${where}${observed} of ${Object.keys(p.latitudes).length} latitudes observed, ${p.deviations.length} deviation${p.deviations.length === 1 ? '' : 's'} (${reproducible} the simulator reproduces); serve it with tds-conformance serve --profile`);
    }

    this.#print('');
    if (this.#options.write !== false && !this.#options.quiet) {
      this.#print(`reports: ${this.#options.outDir} (${Object.values(REPORT_FILES).join(', ')})`);
    }
    const s = report.summary;
    this.#print(
      `${s.pass} pass, ${s.partial} partial, ${s.fail} fail, ${s.warn} warn, ${s.info} info, ${s.skipped} skipped, ${s.notApplicable} not applicable, `
        + `${s.error} error${s.notSelected > 0 ? `; ${s.notSelected} not selected` : ''}; `
        // An interrupted run exits with its signal's code (130, 143), not the verdicts' (report.json's exitCode).
        + (report.completion === 'interrupted' ? 'interrupted: the run exits 130 (SIGINT) or 143 (SIGTERM)' : `exit code ${report.exitCode}`),
    );
  }

  #paint(status: CheckStatus, text: string): string {
    const color = COLORS[status];
    return this.#color && color !== undefined ? `\u001b[${color}m${text}\u001b[39m` : text;
  }

  #print(line: string): void {
    this.#log(this.#redactor.redact(line));
  }
}

