/**
 * A report's replay line re-runs just the failed check, with the same seed and path, and reproduces the failure:
 * run the suites against the simulator with a defect, take the failed check's replay command from the report,
 * parse it as the CLI would, run it, and compare.
 */
import { describe, expect, it } from 'vitest';
import { parseReplayCommand } from './cli/run.ts';
import type { FailedCheck, Report } from './report/index.ts';
import { sharedRun } from '../test/support/shared-session.ts';

const quietly = { outDir: '', write: false, quiet: true, log: () => {} } as const;

// The runs are made on the test worker's session (sharedRun); the replay may run in the worker the first run was made
// in (kept between runs), so a failure reproduced here is reproduced without anything the first run left behind.

function failedChecks(report: Report): FailedCheck[] {
  return report.rules.flatMap((r) => r.checks.filter((c): c is FailedCheck => c.status === 'fail' || c.status === 'warn'));
}

describe('replay commands', () => {
  it('re-run just the failed property with its seed and path, and reproduce the counterexample', async () => {
    const first = await sharedRun({ ...quietly, target: 'sim', defects: ['rest04-token-reused'], only: ['REST-02', 'REST-04', 'REST-05'] });
    // The defect repeats SOAP tokens too: the TokenCreateRQ check and the audits of every token a file obtained fail
    // with the property; the property is the one replayed.
    const failed = failedChecks(first.report);
    const failure = failed.find((c) => c.name === 'REST-04: N token calls yield N distinct tokens, each of them usable');
    expect(failed.filter((c) => c !== failure).map((c) => c.name)).toEqual(failed.filter((c) => c !== failure).map(() => expect.stringMatching(/^REST-04: (three TokenCreateRQ calls|every token the)/)));
    expect(failure).toMatchObject({ status: 'fail', seed: 42 });
    expect(failure?.replay).toBe(
      `npx tds-conformance run --only REST-04 --seed 42 --replay 'REST-04: N token calls yield N distinct tokens, each of them usable@${failure?.path}' --defect rest04-token-reused`,
    );

    const replay = parseReplayCommand(failure?.replay ?? '');
    const again = await sharedRun({ ...replay.options, ...quietly });
    // Only the replayed check ran.
    const ran = again.report.rules.flatMap((r) => r.checks.filter((c) => c.status !== 'skipped'));
    expect(ran.map((c) => c.name)).toEqual([failure?.name]);
    const [reproduced] = failedChecks(again.report);
    expect(reproduced).toMatchObject({
      name: failure?.name,
      status: 'fail',
      message: failure?.message,
      expected: failure?.expected,
      actual: failure?.actual,
      counterexample: failure?.counterexample,
      seed: 42,
      path: failure?.path,
      replay: failure?.replay,
    });
    expect(again.exitCode).toBe(1);
  }, 120_000);

  it('re-run a failed check without generated inputs by its title, with the run\'s seed', async () => {
    const first = await sharedRun({ ...quietly, target: 'sim', defects: ['rest03-token-type-capitalized'], only: ['REST-03'], seed: 7 });
    // The direct check and the audit of every token answer (REST-03 on every exchange) both fail; replay the first.
    const [failure, ...others] = failedChecks(first.report);
    expect(others.map((c) => c.name)).toEqual([expect.stringMatching(/^REST-03: every successful token answer/)]);
    expect(failure?.seed).toBeUndefined();
    expect(failure?.replay).toBe(`npx tds-conformance run --only REST-03 --seed 7 --replay '${failure?.name}' --defect rest03-token-type-capitalized`);
    const replay = parseReplayCommand(failure?.replay ?? '');
    expect(replay.options).toMatchObject({ seed: 7, replay: { check: failure?.name } });
    const again = await sharedRun({ ...replay.options, ...quietly });
    const [reproduced, ...more] = failedChecks(again.report);
    expect(more).toEqual([]);
    expect(reproduced).toMatchObject({
      name: failure?.name, status: 'fail', message: failure?.message, expected: failure?.expected, actual: failure?.actual, replay: failure?.replay,
    });
  }, 120_000);
});
