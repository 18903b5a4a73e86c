import { describe, expect, it } from 'vitest';
import { rules as catalog } from '../catalog/index.ts';
import type { RuleId } from '../catalog/index.ts';
import { buildReport, exitCodeFor, ruleStatus, UNREACHABLE_CODES } from './build.ts';
import { UnknownRuleError } from './errors.ts';
import type { CheckResult, RuleResult } from './model.ts';
import { buildOptions, failed, record } from '../../test/support/report.ts';

const ruleOf = (report: ReturnType<typeof buildReport>, id: RuleId): RuleResult => {
  const rule = report.rules.find((r) => r.id === id);
  if (!rule) throw new Error(`no ${id} in the report`);
  return rule;
};
const check = (status: CheckResult['status'], message: string = status): CheckResult => {
  switch (status) {
    case 'pass': return { name: 'c', status };
    case 'fail':
    case 'warn': return { name: 'c', status, message };
    case 'info': return { name: 'c', status, message };
    case 'skipped':
    case 'not-applicable': return { name: 'c', status, message };
    case 'error': return { name: 'c', status, code: 'TIMEOUT', message };
  }
};

describe('buildReport: the rules', () => {
  it('lists every catalog rule once, in catalog order, with its catalog fields', () => {
    const report = buildReport([], buildOptions);
    expect(report.rules.map((r) => r.id)).toEqual(catalog.map((r) => r.id));
    expect(report.rules[0]).toMatchObject({
      id: 'CRED-01', side: 'client', level: 'MUST', where: 'any', area: 'CRED', statement: catalog[0]?.statement,
    });
  });

  it('reports a selected rule without a test as skipped, naming the issue that will cover it', () => {
    const report = buildReport([], { ...buildOptions, notYetCovered: { 'CRED-01': 'client suite (issue 4)' } });
    expect(ruleOf(report, 'CRED-01')).toMatchObject({ status: 'skipped', reason: 'not covered yet: client suite (issue 4)', checks: [] });
    expect(ruleOf(report, 'REST-03')).toMatchObject({ status: 'skipped', reason: 'no check verifies this rule yet', checks: [] });
  });

  it('reports unselected rules as skipped "not selected", leaving out their checks', () => {
    const report = buildReport([failed('REST-03: x', 'boom'), record('REST-02: y')], { ...buildOptions, selection: ['REST-02'] });
    expect(ruleOf(report, 'REST-03')).toEqual(expect.objectContaining({ status: 'skipped', reason: 'not selected', notSelected: true, checks: [] }));
    expect(ruleOf(report, 'REST-02').status).toBe('pass');
    expect(ruleOf(report, 'REST-02')).not.toHaveProperty('notSelected');
    expect(report.selection).toEqual(['REST-02']);
    expect(report.exitCode).toBe(0);
  });

  it('lists the selection in catalog order', () => {
    const report = buildReport([], { ...buildOptions, selection: ['ERR-01', 'CRED-03', 'REST-02'] });
    expect(report.selection).toEqual(['CRED-03', 'REST-02', 'ERR-01']);
  });

  it('rejects a selection naming a rule the catalog does not have', () => {
    const build = () => buildReport([], { ...buildOptions, selection: ['REST-99' as RuleId] });
    expect(build).toThrow(UnknownRuleError);
    expect(build).toThrow('rule "REST-99" is not in the catalog; selections hold catalog rule IDs such as "REST-03"');
    try {
      build();
    } catch (err) {
      expect((err as UnknownRuleError).code).toBe('UNKNOWN_RULE');
    }
  });

  it('makes a test naming several rules a check of each, judged by each rule\'s level', () => {
    const report = buildReport([failed('ERR-01, ERR-03: bad credentials', 'wrong description')], buildOptions);
    expect(ruleOf(report, 'ERR-01')).toMatchObject({ status: 'fail', checks: [{ name: 'ERR-01, ERR-03: bad credentials', status: 'fail' }] });
    expect(ruleOf(report, 'ERR-03')).toMatchObject({ status: 'warn', checks: [{ name: 'ERR-01, ERR-03: bad credentials', status: 'warn' }] });
  });

  it('orders checks by file, keeping the reported order within a file', () => {
    const report = buildReport([
      record('REST-02: b', { file: 'suites/service/z.test.ts' }),
      record('REST-02: a2', { file: 'suites/service/a.test.ts' }),
      record('REST-02: a1', { file: 'suites/service/a.test.ts' }),
    ], buildOptions);
    expect(ruleOf(report, 'REST-02').checks.map((c) => c.name)).toEqual(['REST-02: a2', 'REST-02: a1', 'REST-02: b']);
  });
});

describe('buildReport: levels', () => {
  it('fails a MUST rule whose check failed', () => {
    expect(ruleOf(buildReport([failed('REST-03: x', 'm')], buildOptions), 'REST-03').status).toBe('fail');
  });

  it('warns on a SHOULD rule whose check failed', () => {
    const rule = ruleOf(buildReport([failed('REST-05: x', 'unexpected status 201')], buildOptions), 'REST-05');
    expect(rule).toMatchObject({ status: 'warn', checks: [{ status: 'warn', message: 'unexpected status 201' }] });
  });

  it('records the observation of an INFO rule and never fails it', () => {
    const info = { kind: 'info', observed: 'HTTP 500', publiclySeen: 'HTTP 500', matchesPublic: true } as const;
    const passed = ruleOf(buildReport([record('ERR-05: status', { meta: { outcome: info } })], buildOptions), 'ERR-05');
    expect(passed).toMatchObject({ status: 'info' });
    expect(passed.checks[0]).toEqual({
      name: 'ERR-05: status', file: 'suites/service/x.test.ts', durationMs: 5, status: 'info',
      message: 'observed: HTTP 500 (publicly seen: HTTP 500; the same)', observed: 'HTTP 500', publiclySeen: 'HTTP 500', matchesPublic: true,
    });
    const failing = ruleOf(buildReport([failed('ERR-05: status', 'no fault came back')], buildOptions), 'ERR-05');
    expect(failing).toMatchObject({ status: 'info', checks: [{ status: 'info', message: 'nothing observed: no fault came back' }] });
    const bare = ruleOf(buildReport([record('ERR-05: status')], buildOptions), 'ERR-05');
    expect(bare.checks[0]).toMatchObject({ status: 'info', message: 'passed; the check recorded no observation' });
  });

  it('says when an observation differs from what is publicly seen', () => {
    const outcome = { kind: 'info', observed: 'HTTP 200', publiclySeen: 'HTTP 500', matchesPublic: false } as const;
    const rule = ruleOf(buildReport([record('ERR-05: s', { meta: { outcome } })], buildOptions), 'ERR-05');
    expect(rule.checks[0]).toMatchObject({ message: 'observed: HTTP 200 (publicly seen: HTTP 500; different)', matchesPublic: false });
  });
});

describe('buildReport: replay commands', () => {
  const failure = { message: 'm', seed: 42, path: '0:1', replay: "npx tds-conformance run --only REST-04 --seed 42 --replay 'REST-04: x@0:1'" };

  it('appends the run\'s context to a property\'s replay command', () => {
    const report = buildReport([failed('REST-04: x', 'm', { failure })], { ...buildOptions, replayContext: ['--target', 'my cert.json', '--defect', 'd1'] });
    expect(ruleOf(report, 'REST-04').checks[0]).toMatchObject({
      replay: "npx tds-conformance run --only REST-04 --seed 42 --replay 'REST-04: x@0:1' --target 'my cert.json' --defect d1",
    });
  });

  it('gives a failed or warned check without one a replay command by title', () => {
    const report = buildReport([failed('REST-03, REST-05: y', 'm')], { ...buildOptions, seed: 7, replayContext: [] });
    expect(ruleOf(report, 'REST-03').checks[0]).toMatchObject({ status: 'fail', replay: "npx tds-conformance run --only REST-03,REST-05 --seed 7 --replay 'REST-03, REST-05: y'" });
    expect(ruleOf(report, 'REST-05').checks[0]).toMatchObject({ status: 'warn', replay: "npx tds-conformance run --only REST-03,REST-05 --seed 7 --replay 'REST-03, REST-05: y'" });
  });

  it('replays an audit of its file\'s exchanges by re-running every rule the run checked in that file, with no --replay', () => {
    const report = buildReport([
      record('ACCESS-01: a check that sent requests'),
      record('ACCESS-02: another', { file: 'suites/service/other.test.ts' }),
      failed('SOAP-02: every SOAP answer to the access checks validates', 'm', { replayFile: true }),
    ], { ...buildOptions, seed: 7, replayContext: ['--defect', 'd1'] });
    expect(ruleOf(report, 'SOAP-02').checks[0]).toMatchObject({ status: 'fail', replay: 'npx tds-conformance run --only ACCESS-01,SOAP-02 --seed 7 --defect d1' });
  });

  it('leaves replay commands alone without a context, and passing checks without one', () => {
    const report = buildReport([failed('REST-04: x', 'm', { failure }), failed('REST-03: y', 'm')], buildOptions);
    expect(ruleOf(report, 'REST-04').checks[0]).toMatchObject({ replay: failure.replay });
    expect(ruleOf(report, 'REST-03').checks[0]).not.toHaveProperty('replay');
    const passing = buildReport([record('REST-02: z')], { ...buildOptions, replayContext: ['--defect', 'd1'] });
    expect(ruleOf(passing, 'REST-02').checks[0]).not.toHaveProperty('replay');
  });
});

describe('buildReport: checks', () => {
  it('copies the failure detail of a failed check', () => {
    const failure = {
      message: 'unexpected "token_type" value', code: 'TOKEN_TYPE', expected: '"bearer"', actual: '"Bearer"',
      counterexample: '[{"x":1}]', seed: 7, path: '0:1', replay: 'npx tds-conformance run …', evidence: ['HTTP/1.1 200'],
    };
    const rule = ruleOf(buildReport([failed('REST-03: x', 'ignored', { failure })], buildOptions), 'REST-03');
    expect(rule.checks[0]).toEqual({
      name: 'REST-03: x', file: 'suites/service/x.test.ts', durationMs: 5, status: 'fail', ...failure,
    });
  });

  it('falls back to the assertion error when a check attached no failure detail', () => {
    const rec = record('REST-03: x', {
      state: 'failed', errors: [{ message: 'expected 1 to be 2', expected: '2', actual: '1' }, { message: 'second' }],
    });
    const rule = ruleOf(buildReport([rec], buildOptions), 'REST-03');
    expect(rule.checks[0]).toMatchObject({ status: 'fail', message: 'expected 1 to be 2 (and 1 more errors)', expected: '2', actual: '1' });
  });

  it('reports an error outcome as error, not fail, though the test failed', () => {
    const rec = failed('REST-03: x', 'TIMEOUT: no answer', { outcome: { kind: 'error', code: 'TIMEOUT', message: 'no answer within 5000 ms' }, failure: { message: 'no answer', evidence: ['POST /v2/auth/token'] } });
    const rule = ruleOf(buildReport([rec], buildOptions), 'REST-03');
    expect(rule).toMatchObject({ status: 'error', reason: 'TIMEOUT: no answer within 5000 ms' });
    expect(rule.checks[0]).toMatchObject({ status: 'error', code: 'TIMEOUT', message: 'no answer within 5000 ms', evidence: ['POST /v2/auth/token'] });
  });

  it('reports a check that ran out of its time (Vitest\'s test timeout) as error CHECK_TIMEOUT, never fail', () => {
    const report = buildReport([record('SESS-02: x', { state: 'failed', errors: [{ message: 'Test timed out in 30000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".' }] })], buildOptions);
    expect(ruleOf(report, 'SESS-02')).toMatchObject({ status: 'error' });
    expect(ruleOf(report, 'SESS-02').checks[0]).toMatchObject({ status: 'error', code: 'CHECK_TIMEOUT', message: expect.stringMatching(/^the check ran out of time \(30 s\) before it could judge/) });
  });

  it('reports a failed test whose error has an unreachable code as error', () => {
    const rec = record('REST-03: x', { state: 'failed', errors: [{ message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' }] });
    const report = buildReport([rec], buildOptions);
    expect(ruleOf(report, 'REST-03')).toMatchObject({ status: 'error', reason: 'connect ECONNREFUSED 127.0.0.1:1' });
    expect(report.exitCode).toBe(3);
  });

  it('reports skipped checks with the outcome\'s reason, the skip note, or "skipped"', () => {
    const report = buildReport([
      record('LIFE-01: a', { state: 'skipped', meta: { outcome: { kind: 'not-applicable', reason: 'no clock control' } } }),
      record('SESS-04: b', { state: 'skipped', meta: { outcome: { kind: 'skipped', reason: 'opt-in' } } }),
      record('REST-02: c', { state: 'skipped', note: 'prerequisite missing' }),
      record('REST-04: d', { state: 'skipped' }),
      record('REST-03: e', { state: 'pending' }),
    ], buildOptions);
    expect(ruleOf(report, 'LIFE-01')).toMatchObject({ status: 'not-applicable', reason: 'no clock control' });
    expect(ruleOf(report, 'SESS-04')).toMatchObject({ status: 'skipped', reason: 'opt-in' });
    expect(ruleOf(report, 'REST-02')).toMatchObject({ status: 'skipped', reason: 'prerequisite missing' });
    expect(ruleOf(report, 'REST-04')).toMatchObject({ status: 'skipped', reason: 'skipped' });
    expect(ruleOf(report, 'REST-03')).toMatchObject({ status: 'skipped', reason: 'did not finish' });
  });

  it('honours a not-applicable outcome on a test that returned without skipping', () => {
    const rec = record('LIFE-01: a', { meta: { outcome: { kind: 'not-applicable', reason: 'no clock control' } } });
    expect(ruleOf(buildReport([rec], buildOptions), 'LIFE-01').status).toBe('not-applicable');
  });
});

describe('ruleStatus', () => {
  it.each([
    [['pass', 'pass'], 'pass'],
    [['pass', 'fail'], 'fail'],
    [['fail', 'error'], 'fail'],
    [['warn', 'error'], 'warn'],
    [['pass', 'error'], 'error'],
    [['pass', 'warn'], 'warn'],
    [['warn', 'fail'], 'fail'],
    [['info', 'skipped'], 'info'],
    [['pass', 'skipped'], 'pass'],
    [['pass', 'not-applicable'], 'pass'],
    [['not-applicable', 'not-applicable'], 'not-applicable'],
    [['not-applicable', 'skipped'], 'skipped'],
    [['skipped'], 'skipped'],
    [[], 'skipped'],
  ] as const)('makes %j a %s rule', (statuses, expected) => {
    expect(ruleStatus(statuses.map((s) => check(s))).status).toBe(expected);
  });

  it('gives the reason of the first check with the rule\'s status', () => {
    expect(ruleStatus([check('not-applicable', 'a'), check('skipped', 'b'), check('skipped', 'c')])).toEqual({ status: 'skipped', reason: 'b' });
    expect(ruleStatus([check('error', 'no answer')])).toEqual({ status: 'error', reason: 'TIMEOUT: no answer' });
    expect(ruleStatus([check('fail')])).toEqual({ status: 'fail' });
  });
});

describe('exit codes', () => {
  const unreachable = { outcome: { kind: 'error', code: 'TARGET_UNREACHABLE', message: 'cannot reach' } } as const;
  const timeout = { outcome: { kind: 'error', code: 'TIMEOUT', message: 'no answer' } } as const;

  it('is 0 when every MUST rule passed, whatever SHOULD and INFO rules say', () => {
    const report = buildReport([
      record('REST-03: a'), failed('REST-05: b', 'status 201'), failed('ERR-05: c', 'no fault'),
      record('LIFE-01: d', { state: 'skipped', meta: { outcome: { kind: 'not-applicable', reason: 'n/a' } } }),
    ], buildOptions);
    expect(report.exitCode).toBe(0);
  });

  it('is 1 when a MUST rule failed, even when the target was also unreachable', () => {
    expect(buildReport([failed('REST-03: a', 'm')], buildOptions).exitCode).toBe(1);
    expect(buildReport([failed('REST-03: a', 'm'), failed('REST-02: b', 'x', unreachable)], buildOptions).exitCode).toBe(1);
  });

  it('is 3 when the target could not be reached and no MUST rule failed', () => {
    expect(buildReport([record('REST-03: a'), failed('REST-02: b', 'x', unreachable), failed('API-01: c', 'x', timeout)], buildOptions).exitCode).toBe(3);
  });

  it('is 1 for errors that are not unreachability', () => {
    expect(buildReport([failed('REST-02: b', 'x', timeout)], buildOptions).exitCode).toBe(1);
    expect(buildReport([failed('ERR-05: b', 'x', timeout)], buildOptions).exitCode).toBe(1);
    expect(buildReport([], { ...buildOptions, runErrors: [{ code: 'TEST_FILE_FAILED', message: 'x' }] }).exitCode).toBe(1);
  });

  it('takes the set of unreachable codes as a parameter', () => {
    const report = buildReport([failed('REST-02: b', 'x', timeout)], { ...buildOptions, unreachableCodes: new Set(['TIMEOUT']) });
    expect(report.exitCode).toBe(3);
    expect(exitCodeFor(report.rules, [], UNREACHABLE_CODES)).toBe(1);
  });

  it('is 1 for an interrupted or partial run that otherwise passed', () => {
    const interrupted = buildReport([record('REST-03: a')], { ...buildOptions, completion: 'interrupted' });
    expect(interrupted).toMatchObject({ completion: 'interrupted', exitCode: 1, runErrors: [{ code: 'INTERRUPTED' }] });
    const partial = buildReport([record('REST-03: a')], { ...buildOptions, completion: 'partial' });
    expect(partial).toMatchObject({ completion: 'partial', exitCode: 1, runErrors: [{ code: 'INCOMPLETE' }] });
  });

  it('is 1 when a test naming no rule failed', () => {
    const report = buildReport([failed('checks something', 'm'), record('also unnamed')], buildOptions);
    expect(report.unmapped).toEqual([
      { name: 'checks something', file: 'suites/service/x.test.ts', state: 'failed' },
      { name: 'also unnamed', file: 'suites/service/x.test.ts', state: 'passed' },
    ]);
    expect(report.runErrors).toHaveLength(1);
    expect(report.runErrors[0]?.code).toBe('UNMAPPED_TEST_FAILED');
    expect(report.exitCode).toBe(1);
  });
});

describe('buildReport: the run', () => {
  it('carries the run\'s identity and counts rules by status', () => {
    const report = buildReport([record('REST-03: a'), failed('REST-04: b', 'm'), failed('REST-05: c', 'm')], { ...buildOptions, selection: ['REST-03', 'REST-04', 'REST-05'] });
    expect(report).toMatchObject({
      schemaVersion: 1,
      tool: { name: 'tds-auth-conformance', version: '0.1.0' },
      target: { name: 'simulator', kind: 'sim' },
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:01:00.000Z',
      seed: 42,
      runs: 25,
      completion: 'complete',
      summary: { pass: 1, fail: 1, warn: 1, info: 0, skipped: 0, notApplicable: 0, error: 0, notSelected: catalog.length - 3 },
    });
  });

  it('counts the rules the run did not select apart from the rules skipped for a reason; the counts add up to the rules', () => {
    const report = buildReport([record('REST-03: a')], { ...buildOptions, selection: ['REST-03', 'REST-04'], notYetCovered: { 'REST-04': 'issue 99' } });
    expect(report.summary).toMatchObject({ pass: 1, skipped: 1, notSelected: catalog.length - 2 });
    expect(Object.values(report.summary).reduce((a, b) => a + b, 0)).toBe(report.rules.length);
    const everything = buildReport([record('REST-03: a')], buildOptions);
    expect(everything.summary).toMatchObject({ pass: 1, skipped: catalog.length - 1, notSelected: 0 });
    expect(everything.rules.some((r) => 'notSelected' in r)).toBe(false);
  });

  it('sums the resources every check created, selected or not', () => {
    const resources = (tokens: number, opened: number, closed: number) => ({ resources: { tokens, sessionsOpened: opened, sessionsClosed: closed } });
    const report = buildReport([
      record('REST-03: a', { meta: resources(2, 0, 0) }),
      record('SESS-02: b', { meta: resources(1, 3, 3) }),
      record('REST-04: c'),
    ], { ...buildOptions, selection: ['REST-03'] });
    expect(report.resources).toEqual({ tokens: 3, sessionsOpened: 3, sessionsClosed: 3 });
  });
});

describe('buildReport: clauses', () => {
  const all = ['REST-03.json-object', 'REST-03.access-token', 'REST-03.token-type', 'REST-03.expires-in'];
  const coverage = (declared: readonly string[], unchecked: { id: string; reason: string }[] = []) => ({ clauses: { declared, unchecked } });

  it('passes a rule whose checks exercised every clause, and lists each as checked', () => {
    const report = buildReport([record('REST-03: a', { meta: coverage(all.slice(0, 2)) }), record('REST-03: b', { meta: coverage(all.slice(2)) })], buildOptions);
    const rule = ruleOf(report, 'REST-03');
    expect(rule.status).toBe('pass');
    expect(rule.clauses?.map((c) => c.status)).toEqual(['checked', 'checked', 'checked', 'checked']);
  });

  it('makes a rule partial, not pass, when a clause was not exercised, saying which and why; the exit code stays 0', () => {
    const report = buildReport([
      record('REST-03: a', { meta: coverage(all, [{ id: 'REST-03.expires-in', reason: 'needs the clock' }]) }),
    ], buildOptions);
    const rule = ruleOf(report, 'REST-03');
    expect(rule.status).toBe('partial');
    expect(rule.reason).toBe('unchecked on this target: REST-03.expires-in (needs the clock)');
    expect(rule.clauses?.find((c) => c.id === 'REST-03.expires-in')).toMatchObject({ status: 'unchecked', reason: 'needs the clock' });
    expect(rule.checks[0]).toMatchObject({ clauses: all, unchecked: [{ id: 'REST-03.expires-in', reason: 'needs the clock' }] });
    expect(report.summary.partial).toBe(1);
    expect(report.exitCode).toBe(0);
  });

  it('counts a clause another check exercised as checked, and gives a skipped check\'s reason for one nobody did', () => {
    const report = buildReport([
      record('REST-03: a', { meta: coverage(all.slice(0, 3)) }),
      record('REST-03: b', { state: 'skipped', meta: { outcome: { kind: 'not-applicable', reason: 'no clock' }, ...coverage(['REST-03.expires-in']) } }),
    ], buildOptions);
    const rule = ruleOf(report, 'REST-03');
    expect(rule.status).toBe('partial');
    expect(rule.clauses?.find((c) => c.id === 'REST-03.expires-in')).toMatchObject({ status: 'unchecked', reason: 'not-applicable: no clock' });
  });

  it('fails only the clause a failure names, and leaves the check\'s others unverified unless another check passed them', () => {
    const report = buildReport([
      failed('REST-03: a', 'boom', { ...coverage(['REST-03.token-type', 'REST-03.json-object', 'REST-03.access-token']), failure: { message: 'boom', clause: 'REST-03.token-type' } }),
      record('REST-03: b', { meta: coverage(['REST-03.json-object']) }),
    ], buildOptions);
    const rule = ruleOf(report, 'REST-03');
    expect(rule.status).toBe('fail');
    expect(rule.checks[0]).toMatchObject({ status: 'fail', clause: 'REST-03.token-type' });
    expect(Object.fromEntries((rule.clauses ?? []).map((c) => [c.id, c.status]))).toMatchObject({
      'REST-03.token-type': 'failed', 'REST-03.json-object': 'checked', 'REST-03.access-token': 'unchecked',
    });
    expect(rule.clauses?.find((c) => c.id === 'REST-03.access-token')?.reason).toBe('not verified: the check stopped at its failure of REST-03.token-type');
  });

  it('marks the clauses of a failed check failed', () => {
    const report = buildReport([failed('REST-03: a', 'boom', coverage(['REST-03.token-type']))], buildOptions);
    const rule = ruleOf(report, 'REST-03');
    expect(rule.status).toBe('fail');
    expect(rule.clauses?.find((c) => c.id === 'REST-03.token-type')?.status).toBe('failed');
    expect(rule.clauses?.find((c) => c.id === 'REST-03.json-object')?.status).toBe('unchecked');
  });
});

describe('buildReport: missing prerequisites', () => {
  it('names the rule of the prerequisite that failed first in the run, and skips the dependent rule', () => {
    const report = buildReport([
      failed('CRED-03: the configured account obtains a token', 'no token'),
      record('ERR-01: x', { state: 'skipped', meta: { outcome: { kind: 'skipped', reason: 'prerequisite failed: no token', after: ['REST-03', 'CRED-03'] } } }),
    ], buildOptions);
    const rule = ruleOf(report, 'ERR-01');
    expect(rule.status).toBe('skipped');
    expect(rule.reason).toBe('prerequisite failed: no token (CRED-03 failed)');
    expect(rule.checks[0]).toMatchObject({ status: 'skipped', prerequisite: { rules: ['REST-03', 'CRED-03'], failedFirst: 'CRED-03' } });
  });

  it('words the named rule by what it came to: a rule that errored did not fail', () => {
    const report = buildReport([
      failed('SESS-02: after SessionCloseRQ the session token is refused', 'no SOAP answer', { outcome: { kind: 'error', code: 'INCONCLUSIVE', message: 'the pool was full' } }),
      record('STOK-02: x', { state: 'skipped', meta: { outcome: { kind: 'skipped', reason: 'prerequisite failed: no session', after: ['SESS-02'] } } }),
    ], buildOptions);
    expect(ruleOf(report, 'STOK-02').reason).toBe('prerequisite failed: no session (SESS-02 errored)');
  });

  it('keeps the reason as it is when none of the named rules failed in the run', () => {
    const report = buildReport([
      record('ERR-01: x', { state: 'skipped', meta: { outcome: { kind: 'skipped', reason: 'prerequisite failed: no token', after: ['CRED-03'] } } }),
    ], buildOptions);
    expect(ruleOf(report, 'ERR-01')).toMatchObject({ status: 'skipped', reason: 'prerequisite failed: no token' });
  });
});
