import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyBaseline, createBaseline, parseBaseline, readBaselineFile, renderBaseline, writeBaselineFile,
} from './baseline.ts';
import type { Baseline } from './baseline.ts';
import { buildReport } from './build.ts';
import { BaselineError } from './errors.ts';
import type { Report } from './model.ts';
import { buildOptions, failed, record, sampleReport } from '../../test/support/report.ts';

const FILE = 'known.json';
const parseError = (text: string): BaselineError => {
  try {
    parseBaseline(text, FILE);
  } catch (err) {
    if (err instanceof BaselineError) return err;
    throw err;
  }
  throw new Error('no error');
};

/** REST-03 fails in two checks, REST-02 passes, REST-05 (SHOULD) warns, ERR-01 is not selected. */
function report(): Report {
  return buildReport([
    failed('REST-03: a valid request gets a token', 'unexpected "token_type" value'),
    failed('REST-03: expires_in is a number', 'unexpected "expires_in" type'),
    record('REST-03: access_token is a string'),
    record('REST-02: source_ip is optional'),
    failed('REST-05: a token response is 200 JSON', 'unexpected status 201'),
  ], { ...buildOptions, selection: ['REST-02', 'REST-03', 'REST-05'] });
}

describe('parseBaseline', () => {
  it('reads rule IDs and entries with checks and a reason', () => {
    const text = JSON.stringify({
      $comment: 'ours',
      knownFailures: ['REST-03', { rule: 'ERR-01', checks: ['ERR-01: a', 'ERR-01: a'], reason: 'OPS-1' }, { rule: 'LIFE-01' }],
    });
    expect(parseBaseline(text, FILE)).toEqual({
      knownFailures: [{ rule: 'REST-03' }, { rule: 'ERR-01', checks: ['ERR-01: a'], reason: 'OPS-1' }, { rule: 'LIFE-01' }],
    });
  });

  it('says what is wrong with a file that is not a baseline', () => {
    const hint = 'a baseline is { "knownFailures": [ "REST-03", { "rule": "ERR-01", "checks": ["ERR-01: …"], "reason": "…" } ], '
      + '"knownFlaky": [ … same entries … ], "expectedSkips": [ { "rule": "LIFE-02", "reason": "…" } ], "requireChecked": true } (every key optional)';
    expect(parseError('{').message).toMatch(/^the baseline file "known\.json" is not valid JSON \(.+\); a baseline is /);
    expect(parseError('[]').message).toBe(`the baseline file "known.json" has none of "knownFailures", "knownFlaky" and "expectedSkips"; ${hint}`);
    expect(parseError('{"knownFailures":[],"known":1}').message)
      .toBe('the baseline file "known.json" has an unknown field "known"; only "knownFailures", "knownFlaky", "expectedSkips", "requireChecked" (and "$comment") are read');
    expect(parseError('{"knownFailures":[3]}').message)
      .toBe(`the baseline file "known.json" has knownFailures[0] that is neither a rule ID nor an object; ${hint}`);
    expect(parseError('{"knownFailures":[{"rule":"REST-03","check":["x"]}]}').message)
      .toBe('the baseline file "known.json" has knownFailures[0] with an unknown field "check"; an entry of "knownFailures" has "rule", "checks", "reason"');
    expect(parseError('{"knownFailures":[{"checks":["x"]}]}').message)
      .toBe('the baseline file "known.json" has knownFailures[0] without a "rule" (a rule ID such as "REST-03")');
    expect(parseError('{"knownFailures":["REST-99"]}').message)
      .toBe('the baseline file "known.json" names the rule "REST-99" (knownFailures[0]), which the catalog does not have; "tds-conformance rules" lists the rule IDs');
    expect(parseError('{"knownFailures":["ERR-05"]}').message)
      .toBe('the baseline file "known.json" lists ERR-05 (knownFailures[0]), an INFO rule; INFO rules record what was observed and never fail: remove it');
    expect(parseError('{"knownFailures":["REST-03",{"rule":"REST-03"}]}').message)
      .toBe('the baseline file "known.json" lists REST-03 twice (knownFailures[0] and knownFailures[1]); a rule is in one list, once: merge or remove one');
    expect(parseError('{"knownFailures":[{"rule":"REST-03","checks":[]}]}').message)
      .toBe('the baseline file "known.json" has knownFailures[0] whose "checks" is not a non-empty list of check titles; leave "checks" out to list the whole rule');
    expect(parseError('{"knownFailures":[{"rule":"REST-03","checks":["REST-04: x"]}]}').message)
      .toBe('the baseline file "known.json" has knownFailures[0] with the check "REST-04: x", which is not a check of REST-03: check titles start with the rule IDs they verify ("REST-03: …")');
    expect(parseError('{"knownFailures":[{"rule":"REST-03","reason":1}]}').message)
      .toBe('the baseline file "known.json" has knownFailures[0] whose "reason" is not a string');
    // Known-flaky entries and expected skips: one list per rule; an expected skip says why.
    expect(parseError('{"knownFailures":["API-05"],"knownFlaky":["API-05"]}').message)
      .toBe('the baseline file "known.json" lists API-05 twice (knownFailures[0] and knownFlaky[0]); a rule is in one list, once: merge or remove one');
    expect(parseError('{"expectedSkips":["LIFE-01"]}').message)
      .toBe('the baseline file "known.json" has expectedSkips[0] that is not an object: an expected skip is { "rule": "LIFE-02", "reason": "why this target cannot check it" }');
    expect(parseError('{"expectedSkips":[{"rule":"LIFE-01"}]}').message)
      .toBe('the baseline file "known.json" has expectedSkips[0] (LIFE-01) without a "reason": an expected skip says why this target cannot check the rule');
    expect(parseError('{"expectedSkips":[{"rule":"LIFE-01","reason":"x","checks":["LIFE-01: y"]}]}').message)
      .toBe('the baseline file "known.json" has expectedSkips[0] with an unknown field "checks"; an entry of "expectedSkips" has "rule", "reason"');
    expect(parseError('{"knownFlaky":[],"requireChecked":"yes"}').message)
      .toBe('the baseline file "known.json" has a "requireChecked" that is not true or false');
    expect(parseError('{').code).toBe('BASELINE_INVALID');
    expect(parseError('{').file).toBe(FILE);
  });
});

describe('applyBaseline', () => {
  it('lets a listed failure pass the run and marks it', () => {
    const before = report();
    expect(before.exitCode).toBe(1);
    const outcome = applyBaseline(before, { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-05' }] }, FILE);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.messages).toEqual([]);
    expect(outcome.report.exitCode).toBe(0);
    expect(outcome.report.rules.filter((r) => r.knownFailure).map((r) => r.id)).toEqual(['REST-03', 'REST-05']);
    expect(outcome.report.baseline).toEqual({
      file: FILE, knownFailures: ['REST-03', 'REST-05'], unexpectedPasses: [], notJudged: [], messages: [], exitCodeWithout: 1,
    });
    // The statuses and the summary stay what was observed.
    expect(outcome.report.summary).toEqual(before.summary);
    expect(outcome.report.rules.find((r) => r.id === 'REST-03')?.status).toBe('fail');
  });

  it('fails the run when a listed failure passed, saying to remove it', () => {
    const outcome = applyBaseline(report(), { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-02' }] }, FILE);
    expect(outcome.messages).toEqual(['REST-02 is listed as a known failure in known.json but passed: remove it from the baseline']);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.report.baseline).toMatchObject({ knownFailures: ['REST-03'], unexpectedPasses: ['REST-02'], exitCodeWithout: 1 });
    expect(outcome.report.rules.find((r) => r.id === 'REST-02')?.knownFailure).toBeUndefined();
  });

  it('fails the run for an unexpected pass even when nothing else failed', () => {
    const passing = buildReport([record('REST-02: source_ip is optional')], { ...buildOptions, selection: ['REST-02'] });
    const outcome = applyBaseline(passing, { knownFailures: [{ rule: 'REST-02' }] }, FILE);
    expect(passing.exitCode).toBe(0);
    expect(outcome.exitCode).toBe(1);
  });

  it('keeps a failure the baseline does not list failing the run', () => {
    const outcome = applyBaseline(report(), { knownFailures: [{ rule: 'REST-05' }] }, FILE);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.report.baseline?.knownFailures).toEqual(['REST-05']);
  });

  it('with checks listed, covers a rule only when every failed check is listed', () => {
    const one: Baseline = { knownFailures: [{ rule: 'REST-03', checks: ['REST-03: a valid request gets a token'] }] };
    expect(applyBaseline(report(), one, FILE)).toMatchObject({ exitCode: 1, report: { baseline: { knownFailures: [] } } });
    const both: Baseline = { knownFailures: [{ rule: 'REST-03', checks: ['REST-03: a valid request gets a token', 'REST-03: expires_in is a number'] }] };
    expect(applyBaseline(report(), both, FILE)).toMatchObject({ exitCode: 0, report: { baseline: { knownFailures: ['REST-03'] } } });
  });

  it('with checks listed, names each listed check that passed', () => {
    const baseline: Baseline = {
      knownFailures: [{ rule: 'REST-03', checks: ['REST-03: a valid request gets a token', 'REST-03: expires_in is a number', 'REST-03: access_token is a string'] }],
    };
    const outcome = applyBaseline(report(), baseline, FILE);
    expect(outcome.messages).toEqual([
      'REST-03 ("REST-03: access_token is a string") is listed as a known failure in known.json but passed: remove it from the baseline',
    ]);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.report.baseline).toMatchObject({ knownFailures: ['REST-03'], unexpectedPasses: ['REST-03'] });
  });

  it('does not judge listed rules the run did not check, and keeps an error an error', () => {
    const sample = sampleReport('whatever1');
    const outcome = applyBaseline(sample, { knownFailures: [{ rule: 'ERR-01' }, { rule: 'LIFE-01' }, { rule: 'API-01' }, { rule: 'REST-03' }] }, FILE);
    expect(outcome.report.baseline).toMatchObject({ knownFailures: ['REST-03'], unexpectedPasses: [], notJudged: ['API-01', 'LIFE-01', 'ERR-01'] });
    // API-01 errored (TARGET_UNREACHABLE): with REST-03 known, the unreachable target decides.
    expect(outcome.exitCode).toBe(3);
  });

  it('keeps the exit code of the report without a baseline when applied again', () => {
    const once = applyBaseline(report(), { knownFailures: [{ rule: 'REST-03' }] }, FILE).report;
    expect(applyBaseline(once, { knownFailures: [] }, FILE).report.baseline?.exitCodeWithout).toBe(1);
  });
});

describe('createBaseline', () => {
  it('lists every failed rule, in catalog order', () => {
    expect(createBaseline(report())).toEqual({ knownFailures: [{ rule: 'REST-03' }] });
  });

  it('keeps reasons, the checks form, and entries of rules the run did not judge or that only warned', () => {
    const previous: Baseline = {
      knownFailures: [
        { rule: 'REST-02', reason: 'fixed since' },
        { rule: 'REST-03', checks: ['REST-03: gone'], reason: 'OPS-7' },
        { rule: 'REST-05', reason: 'SHOULD' },
        { rule: 'ERR-01', reason: 'not selected this time' },
      ],
    };
    expect(createBaseline(report(), previous)).toEqual({
      knownFailures: [
        { rule: 'REST-03', checks: ['REST-03: a valid request gets a token', 'REST-03: expires_in is a number'], reason: 'OPS-7' },
        { rule: 'REST-05', reason: 'SHOULD' },
        { rule: 'ERR-01', reason: 'not selected this time' },
      ],
    });
  });

  it('writes what applying it accepts: the same run passes against its own baseline', () => {
    const baseline = createBaseline(report());
    expect(applyBaseline(report(), parseBaseline(renderBaseline(baseline), FILE), FILE).exitCode).toBe(0);
  });
});

describe('baseline files', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tds-baseline-'));
    dirs.push(dir);
    return dir;
  };

  it('writes rule IDs as plain strings and reads them back', async () => {
    const path = join(await tempDir(), 'known.json');
    const baseline: Baseline = { knownFailures: [{ rule: 'REST-03' }, { rule: 'ERR-01', checks: ['ERR-01: x'], reason: 'r' }] };
    await writeBaselineFile(path, baseline);
    const text = await readFile(path, 'utf8');
    expect(JSON.parse(text).knownFailures).toEqual(['REST-03', { rule: 'ERR-01', checks: ['ERR-01: x'], reason: 'r' }]);
    expect(text.endsWith('}\n')).toBe(true);
    expect(await readBaselineFile(path)).toEqual(baseline);
  });

  it('says how to create a missing file, unless a missing file is allowed', async () => {
    const path = join(await tempDir(), 'known.json');
    const error = await readBaselineFile(path, 'known.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaselineError);
    expect(error).toMatchObject({
      code: 'BASELINE_NOT_FOUND',
      file: 'known.json',
      message: 'the baseline file "known.json" does not exist; write it from the current failures with "tds-conformance run --baseline known.json --update-baseline"',
    });
    expect(await readBaselineFile(path, 'known.json', { allowMissing: true })).toEqual({ knownFailures: [] });
  });

  it('reports a file that cannot be written', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'file'), 'x');
    const error = await writeBaselineFile(join(dir, 'file', 'known.json'), { knownFailures: [] }, 'file/known.json').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BASELINE_WRITE_FAILED', file: 'file/known.json' });
    expect((error as Error).message).toMatch(/^could not write the baseline file "file\/known\.json": /);
  });
});

describe('known-flaky entries', () => {
  it('a listed rule that fails does not fail the run and is reported as known flaky, apart from known failures; one that passes is no news', () => {
    const before = report();
    const outcome = applyBaseline(before, { knownFailures: [], knownFlaky: [{ rule: 'REST-03', reason: 'shared rate limit' }, { rule: 'REST-02' }] }, FILE);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.messages).toEqual([]);
    expect(outcome.report.rules.filter((r) => r.knownFlaky).map((r) => r.id)).toEqual(['REST-03']);
    expect(outcome.report.rules.some((r) => r.knownFailure)).toBe(false);
    expect(outcome.report.baseline?.knownFailures).toEqual([]);
    expect(outcome.report.baseline?.knownFlaky).toEqual([
      { rule: 'REST-03', status: 'fail', failed: true, reason: 'shared rate limit' },
      { rule: 'REST-02', status: 'pass', failed: false },
    ]);
  });

  it('a flaky entry that lists checks excuses only those checks', () => {
    const only = applyBaseline(report(), { knownFailures: [], knownFlaky: [{ rule: 'REST-03', checks: ['REST-03: a valid request gets a token'] }] }, FILE);
    expect(only.exitCode).toBe(1);
    expect(only.report.rules.find((r) => r.id === 'REST-03')?.knownFlaky).toBeUndefined();
    const both = applyBaseline(report(), {
      knownFailures: [],
      knownFlaky: [{ rule: 'REST-03', checks: ['REST-03: a valid request gets a token', 'REST-03: expires_in is a number'] }],
    }, FILE);
    expect(both.exitCode).toBe(0);
  });

  it('--update-baseline keeps flaky entries, expected skips and requireChecked, and does not make a flaky failure a known failure', () => {
    const previous: Baseline = { knownFailures: [], knownFlaky: [{ rule: 'REST-03' }], expectedSkips: [{ rule: 'LIFE-01', reason: 'no clock' }], requireChecked: true };
    const updated = createBaseline(report(), previous);
    expect(updated.knownFailures).toEqual([]);
    expect(updated.knownFlaky).toEqual([{ rule: 'REST-03' }]);
    expect(updated.expectedSkips).toEqual([{ rule: 'LIFE-01', reason: 'no clock' }]);
    expect(updated.requireChecked).toBe(true);
    expect(parseBaseline(renderBaseline(updated), FILE)).toEqual(updated);
  });
});
