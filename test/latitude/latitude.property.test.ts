import { describe, expect, it } from 'vitest';
import { FILES, RANDOM_RUNS, randomRuns, runOn, SEED } from './latitude-suite.ts';
import { useSession } from '../support/test-session.ts';
import { packageInfo, runner } from '../support/compiled.ts';
import type { RuleId } from '../../harness/catalog/index.ts';
import { profileWith, type LatitudeProfile } from '../../harness/sim/latitude.ts';

/**
 * The latitude property (test/latitude/latitude-suite.ts): the whole service suite passes on every conforming variant of the
 * service. This file: the per-file profiles reach their files, and the first part of the random runs; its other half,
 * latitude-covering.property.test.ts: the covering runs and the second part of the random runs (their own seed). Two
 * files, so that two test workers run them side by side, each on the session its test worker shares with its other
 * files (test/support/shared-session.ts), one run worker each: one file with a session of its own and two run workers
 * took 26 s of CPU alone on 2 CPUs (48 s), where one run worker took 19 s (81 s); each extra run worker warms its own
 * code, and a test worker with a session of its own loads a second Vitest.
 */
const session = useSession();
const { filesFor, selectRules } = runner;
const { suiteFileKey } = packageInfo;

/** A rule of each service suite file (a run selecting them runs every file, but only a few of its checks). */
function ruleForEachFile(): RuleId[] {
  const rules = selectRules('service');
  return [...new Set(FILES.map((f) => rules.find((id) => filesFor([id], 'service').map(suiteFileKey).includes(f))!))];
}

describe('latitude: the service suite passes on every conforming variant of the service', () => {
  it('finds the service suite\'s files and gives each the profile named for it', async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(10);
    // ERR-05 records the HTTP status of SOAP faults (INFO): 500 on the public service, 200 on this file's profile.
    const file = 'suites/service/soap-errors.test.ts';
    expect(FILES).toContain(file);
    const statusSeen = async (fileProfiles: Readonly<Record<string, LatitudeProfile>>) => {
      const { report } = await runOn(session(), fileProfiles, SEED, ['ERR-05']);
      return report.rules.find((r) => r.id === 'ERR-05')?.checks.some((c) => c.status === 'info' && c.matchesPublic === false);
    };
    expect(await statusSeen({})).toBe(false);
    expect(await statusSeen({ [file]: profileWith({ faultStatus: 200 }) })).toBe(true);

    // Every file: a latency of its own (5 ms apart), seen as a floor under every request its checks sent. The second
    // run reverses the latencies, so that no one profile handed to every file (or the default) passes both runs.
    const only = ruleForEachFile();
    for (const order of [FILES, [...FILES].reverse()]) {
      const latency = (f: string) => 5 * (order.indexOf(f) + 1);
      const { report } = await runOn(session(), Object.fromEntries(FILES.map((f) => [f, profileWith({ latencyMs: latency(f) })])), SEED, only);
      for (const f of FILES) {
        const durations = report.rules.flatMap((r) => r.checks)
          .filter((c) => c.file !== undefined && suiteFileKey(c.file) === f)
          .flatMap((c) => (c.requests?.requests ?? []).flatMap((q) => q.durationMs ?? []));
        expect(durations.length, `requests timed in ${f}`).toBeGreaterThan(0);
        expect(Math.min(...durations), `the fastest request in ${f} (its profile's latency: ${latency(f)} ms)`).toBeGreaterThanOrEqual(latency(f) - 1);
      }
    }
  }, 180_000);

  randomRuns(session, Math.floor(RANDOM_RUNS / 2), SEED);
});
