import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnknownRuleError } from './errors.ts';
import type { CheckMeta } from './meta.ts';
import type { TestRecord } from './model.ts';
import type { ErrorLike, TestCaseLike, TestModuleLike } from './record.ts';
import { REDACTED, Redactor } from './redact.ts';
import { ConformanceReporter } from './reporter.ts';
import type { ConformanceReporterOptions } from './reporter.ts';
import type { RuleId } from '../catalog/index.ts';

interface FakeCase {
  readonly state?: TestRecord['state'];
  readonly errors?: readonly ErrorLike[];
  readonly meta?: CheckMeta;
  readonly project?: string;
  readonly note?: string;
}

const FILE = 'suites/service/rest.test.ts';

function fakeCase(name: string, input: FakeCase = {}, file = FILE): TestCaseLike {
  return {
    id: `${file}#${name}`,
    name,
    project: { name: input.project ?? 'conformance' },
    module: { moduleId: `/repo/${file}`, relativeModuleId: file },
    result: () => ({ state: input.state ?? 'passed', errors: input.errors, note: input.note }),
    meta: () => (input.meta ? { tds: input.meta } : {}),
    diagnostic: () => ({ duration: 12 }),
  };
}

function fakeModule(file: string, cases: readonly TestCaseLike[], errors: readonly ErrorLike[] = [], project = 'conformance'): TestModuleLike {
  return {
    moduleId: `/repo/${file}`,
    relativeModuleId: file,
    project: { name: project },
    children: { allTests: () => cases, allSuites: () => [] },
    errors: () => errors,
  };
}

const SECRET = 'Ws4kPq9TzX2!';
let clock = 0;

function reporterWith(options: Partial<ConformanceReporterOptions> = {}): { reporter: ConformanceReporter; lines: string[] } {
  const lines: string[] = [];
  const reporter = new ConformanceReporter({
    outDir: '/nonexistent/never-written',
    target: { name: 'simulator', kind: 'sim' },
    seed: 42,
    runs: 25,
    selection: ['REST-02', 'REST-03', 'REST-04', 'REST-05', 'ERR-05'],
    toolVersion: '0.1.0',
    redactor: new Redactor([SECRET]),
    log: (line) => lines.push(line),
    write: false,
    now: () => new Date(Date.UTC(2025, 0, 1) + (clock += 1000)),
    ...options,
  });
  return { reporter, lines };
}

const cases = [
  fakeCase('REST-02: source_ip is optional'),
  fakeCase('REST-03: a valid request gets a token', {
    state: 'failed',
    errors: [{ message: 'unexpected "token_type" value' }],
    meta: { failure: { message: `unexpected "token_type" value for ${SECRET}`, expected: 'bearer', actual: 'Bearer' } },
  }),
  fakeCase('REST-04: one call, one token', { meta: { resources: { tokens: 3, sessionsOpened: 0, sessionsClosed: 0 } } }),
  fakeCase('REST-05: 200 and JSON', { state: 'failed', errors: [{ message: 'unexpected status 201' }] }),
];
const unitCase = fakeCase('a unit test of something', { state: 'failed', errors: [{ message: 'x' }], project: 'unit' }, 'harness/x.test.ts');

async function runAll(reporter: ConformanceReporter, modules: readonly TestModuleLike[], reason: 'passed' | 'failed' | 'interrupted' = 'failed') {
  reporter.onInit();
  reporter.onTestRunStart();
  for (const module of modules) {
    for (const test of module.children.allTests()) reporter.onTestCaseResult(test);
    reporter.onTestModuleEnd(module);
  }
  await reporter.onTestRunEnd(modules, [], reason);
  return reporter.result();
}

describe('ConformanceReporter', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('builds the report of the conformance project\'s tests and ignores other projects', async () => {
    const { reporter } = reporterWith();
    const report = await runAll(reporter, [fakeModule(FILE, cases), fakeModule('harness/x.test.ts', [unitCase], [], 'unit')]);
    expect(reporter.report).toBe(report);
    expect(report.exitCode).toBe(1);
    expect(report.summary).toMatchObject({ pass: 2, fail: 1, warn: 1 });
    expect(report.unmapped).toEqual([]);
    expect(report.resources.tokens).toBe(3);
    expect(report.rules.find((r) => r.id === 'REST-03')?.checks[0]).toMatchObject({
      status: 'fail', message: `unexpected "token_type" value for ${REDACTED}`, file: FILE, durationMs: 12,
    });
    expect(report.startedAt < report.finishedAt).toBe(true);
  });

  it('prints a progress line per area as a file ends, then a summary and the failing rules, without secrets or colors', async () => {
    const { reporter, lines } = reporterWith();
    await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(lines[0]).toBe(`REST      4 checks  ✓ 2  ✗ 1  warn 1  (${FILE})`);
    expect(lines).toContain('area     rules  pass  part  fail  warn  info  skip   n/a error  not selected');
    expect(lines).toContain('REST         5     2     0     1     1     0     0     0     0             1');
    expect(lines).toContain('total       51     2     0     1     1     0     1     0     0            46');
    expect(lines).toContain(`✗     REST-03 MUST fail: unexpected "token_type" value for ${REDACTED}`);
    expect(lines).toContain('warn  REST-05 SHOULD warn: unexpected status 201');
    expect(lines.at(-1)).toBe('2 pass, 0 partial, 1 fail, 1 warn, 0 info, 1 skipped, 0 not applicable, 0 error; 46 not selected; exit code 1');
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain('\u001b[');
  });

  it('counts the rules the run did not select apart from the rules skipped for a reason, and leaves them out when it selected every rule', async () => {
    // ERR-05 is selected but no test names it: skipped for a reason. The 46 rules outside the selection are not selected.
    const { reporter, lines } = reporterWith();
    const report = await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(report.summary).toMatchObject({ skipped: 1, notSelected: 46 });
    expect(lines.at(-1)).toMatch(/ 1 skipped, .*; 46 not selected; exit code 1$/);
    const all = reporterWith({ selection: undefined });
    await runAll(all.reporter, [fakeModule(FILE, cases)]);
    expect(all.lines.at(-1)).not.toContain('not selected');
    expect(all.lines.at(-1)).toMatch(/ 47 skipped, /);
  });

  it('colors only when asked', async () => {
    const { reporter, lines } = reporterWith({ color: true });
    await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(lines[0]).toContain('\u001b[32m✓ 2\u001b[39m');
  });

  it('prints only the problems and the result line when quiet', async () => {
    const { reporter, lines } = reporterWith({ quiet: true });
    await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(lines.filter((l) => l !== '')).toEqual([
      `✗     REST-03 MUST fail: unexpected "token_type" value for ${REDACTED}`,
      'warn  REST-05 SHOULD warn: unexpected status 201',
      '2 pass, 0 partial, 1 fail, 1 warn, 0 info, 1 skipped, 0 not applicable, 0 error; 46 not selected; exit code 1',
    ]);
  });

  it('includes tests that were never reported one by one', async () => {
    const { reporter } = reporterWith();
    const skipped = fakeCase('ERR-05: fault status', { state: 'skipped', note: 'no SOAP endpoint' });
    reporter.onTestRunStart();
    await reporter.onTestRunEnd([fakeModule(FILE, [skipped])], [], 'passed');
    const report = await reporter.result();
    expect(report.rules.find((r) => r.id === 'ERR-05')).toMatchObject({ status: 'skipped', reason: 'no SOAP endpoint' });
  });

  it('turns files that failed to load and unhandled errors into run errors', async () => {
    const { reporter } = reporterWith();
    reporter.onTestRunStart();
    const broken = fakeModule('suites/service/broken.test.ts', [], [{ message: 'SyntaxError: unexpected token' }]);
    reporter.onTestModuleEnd(broken);
    await reporter.onTestRunEnd([broken], [{ message: 'socket hang up', code: 'ECONNRESET' }], 'failed');
    const report = await reporter.result();
    expect(report.runErrors).toEqual([
      { code: 'TEST_FILE_FAILED', message: 'suites/service/broken.test.ts: SyntaxError: unexpected token' },
      { code: 'UNHANDLED_ERROR', message: 'ECONNRESET: socket hang up' },
    ]);
    expect(report.exitCode).toBe(1);
  });

  it('exits 3 when the only errors are an unreachable target', async () => {
    const { reporter } = reporterWith();
    const unreachable = fakeCase('REST-02: x', {
      state: 'failed', errors: [{ message: 'TARGET_UNREACHABLE: cannot reach' }],
      meta: { outcome: { kind: 'error', code: 'TARGET_UNREACHABLE', message: 'cannot reach https://cert.example' } },
    });
    const report = await runAll(reporter, [fakeModule(FILE, [unreachable])]);
    expect(report.exitCode).toBe(3);
  });

  it('marks an interrupted run, and its summary line names the exit code of the signal, not the verdicts\'', async () => {
    const { reporter, lines } = reporterWith();
    const report = await runAll(reporter, [fakeModule(FILE, cases.slice(0, 1))], 'interrupted');
    expect(report).toMatchObject({ completion: 'interrupted', exitCode: 1 });
    expect(lines.at(-1)).toMatch(/; interrupted: the run exits 130 \(SIGINT\) or 143 \(SIGTERM\)$/);
  });

  it('writes the reports at the end, and what it knows so far on flush', async () => {
    const outDir = join(await mkdtemp(join(tmpdir(), 'tds-reporter-')), 'out');
    dirs.push(outDir);
    const { reporter, lines } = reporterWith({ outDir, write: true });
    reporter.onTestRunStart();
    const first = cases[0];
    if (first) reporter.onTestCaseResult(first);
    const partial = await reporter.flush();
    expect(partial).toMatchObject({ completion: 'partial', runErrors: [{ code: 'INCOMPLETE' }] });
    const written = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as { completion: string };
    expect(written.completion).toBe('partial');

    await reporter.onTestRunEnd([fakeModule(FILE, cases)], [], 'failed');
    const report = await reporter.result();
    expect(report.completion).toBe('complete');
    const files = await Promise.all(['report.json', 'junit.xml', 'report.md', 'report.html', 'report.earl.jsonld'].map((f) => readFile(join(outDir, f), 'utf8')));
    expect(JSON.parse(files[0] ?? '')).toEqual(JSON.parse(JSON.stringify(report)));
    for (const text of files) expect(text).not.toContain(SECRET);
    expect(lines).toContain(`reports: ${outDir} (report.json, junit.xml, report.md, report.html, report.earl.jsonld)`);
  });

  it('rejects its result when the reports cannot be written', async () => {
    const { reporter, lines } = reporterWith({ outDir: '/dev/null/reports', write: true });
    await reporter.onTestRunEnd([], [], 'passed');
    await expect(reporter.result()).rejects.toMatchObject({ code: 'REPORT_WRITE_FAILED' });
    expect(lines.at(-1)).toMatch(/^tds-conformance: could not write the reports to "\/dev\/null\/reports": /);
  });

  it('applies a baseline before writing: known failures do not fail the run, and say so', async () => {
    const { reporter, lines } = reporterWith({ quiet: true, baseline: { file: 'known.json', baseline: { knownFailures: [{ rule: 'REST-03' }] } } });
    const report = await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(report.exitCode).toBe(0);
    expect(report.baseline).toMatchObject({ file: 'known.json', knownFailures: ['REST-03'], exitCodeWithout: 1 });
    expect(lines.filter((l) => l !== '')).toEqual([
      `known REST-03 MUST fail (known failure): unexpected "token_type" value for ${REDACTED}`,
      'warn  REST-05 SHOULD warn: unexpected status 201',
      'baseline known.json: 1 known failure, 0 unexpected passes, 0 not judged',
      '2 pass, 0 partial, 1 fail, 1 warn, 0 info, 1 skipped, 0 not applicable, 0 error; 46 not selected; exit code 0',
    ]);
  });

  it('prints a listed failure that passed and fails the run', async () => {
    const { reporter, lines } = reporterWith({ quiet: true, baseline: { file: 'known.json', baseline: { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-02' }] } } });
    const report = await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(report.exitCode).toBe(1);
    expect(lines).toContain('✗     REST-02 is listed as a known failure in known.json but passed: remove it from the baseline');
  });

  it('with update, judges the run by its own failures', async () => {
    const { reporter } = reporterWith({ quiet: true, baseline: { file: 'known.json', baseline: { knownFailures: [{ rule: 'REST-02' }] }, update: true } });
    const report = await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(report.exitCode).toBe(0);
    expect(report.baseline).toMatchObject({ knownFailures: ['REST-03'], unexpectedPasses: [] });
  });

  it('completes replay commands with the run\'s context', async () => {
    const { reporter } = reporterWith({ replayContext: ['--defect', 'rest03-token-type-capitalized'] });
    const report = await runAll(reporter, [fakeModule(FILE, cases)]);
    expect(report.rules.find((r) => r.id === 'REST-03')?.checks[0]).toMatchObject({
      replay: "npx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token' --defect rest03-token-type-capitalized",
    });
  });

  it('refuses a selection with a rule the catalog does not have', () => {
    expect(() => reporterWith({ selection: ['REST-99' as RuleId] })).toThrow(UnknownRuleError);
  });
});
