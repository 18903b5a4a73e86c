/**
 * The latitude property (test/latitude/latitude.property.test.ts), and its helpers' own tests: the whole service suite passes on
 * every conforming variant of the service. Each profile is a simulator that chooses differently wherever the interface
 * document leaves a choice (harness/catalog/latitudes.ts); a `fail`, `warn` or `error` on any of them is an over-reach
 * of a check, printed with the rule, the check, the suite file and the profile it met.
 *
 * Every suite file has a simulator of its own, so one run of the suite checks one profile per file (`fileProfiles`):
 * a random run gives each of the service suite's files its own random profile, and the covering runs rotate the
 * covering profiles over the files, so that every file meets every value of every freedom.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { packageInfo, runner } from '../support/compiled.ts';
import type { Report } from '../../harness/report/index.ts';
import type { ConformanceSession, RunOptions } from '../../harness/runner.ts';

const { filesFor, selectRules } = runner;
/** The compiled harness's own (paths relative to dist/ when it drives dist/). */
const { suiteFileKey } = packageInfo;
import type { LatitudeProfile } from '../../harness/sim/latitude.ts';
import { conformingProfile } from '../../harness/sim/latitude-arbitrary.ts';

/** Random runs of the latitude property, in two parts of their own seeds (`TDS_LATITUDE_RUNS`): 17, with the 12 service files 204 profiles. */
export const RANDOM_RUNS = Number(process.env.TDS_LATITUDE_RUNS ?? 17);
/** The seed (`TDS_LATITUDE_SEED`), fixed so that CI is reproducible. */
export const SEED = Number(process.env.TDS_LATITUDE_SEED ?? 20261123);
const quiet = { outDir: '', write: false, quiet: true, log: () => {} } satisfies Partial<RunOptions>;

/** The service suite's files, as `fileProfiles` names them. */
export const FILES = filesFor(selectRules('service'), 'service').map(suiteFileKey).sort();

/** What a conforming service must never get: each check that failed, warned or errored, with the profile it met. */
function overReach(report: Report, profiles: Readonly<Record<string, LatitudeProfile>>): string[] {
  return report.rules
    .filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error')
    .flatMap((r) => r.checks.filter((c) => c.status === r.status).map((c) => {
      const message = 'message' in c ? String(c.message).slice(0, 400) : '';
      const profile = (c.file !== undefined && profiles[suiteFileKey(c.file)]) || 'default';
      return `${r.id} ${r.status}: ${c.name} — ${message}\n  in ${c.file}, on profile ${JSON.stringify(profile)}`;
    }));
}

const RAN = new Set(['pass', 'info']);
const DID_NOT_RUN = new Set(['skipped', 'not-applicable']);

/** What a check (and a rule) was on the default profile: the baseline of {@link hidden}. Made once per session. */
const baselines = new WeakMap<ConformanceSession, Promise<Report>>();

function baseline(session: ConformanceSession): Promise<Report> {
  let report = baselines.get(session);
  if (!report) {
    report = session.run({ ...quiet, target: 'sim', suite: 'service', runs: 1, seed: SEED }).then((r) => r.report);
    baselines.set(session, report);
  }
  return report;
}

/**
 * What a conforming profile hid: a check that ran on the default profile but was skipped or not applicable on this
 * one, and a rule that passed there but is only partial here. A freedom the harness cannot see through is as bad as
 * an over-reach: the check no longer judges a service that uses it.
 */
export function hidden(report: Report, base: Report, profiles: Readonly<Record<string, LatitudeProfile>>): string[] {
  const before = new Map(base.rules.flatMap((r) => r.checks.map((c) => [c.name, c.status] as const)));
  const ruleBefore = new Map(base.rules.map((r) => [r.id, r.status] as const));
  const out: string[] = [];
  for (const r of report.rules) {
    if (r.status === 'partial' && ruleBefore.get(r.id) === 'pass') out.push(`${r.id} partial on a conforming profile (pass on the default one)`);
    for (const c of r.checks) {
      if (!DID_NOT_RUN.has(c.status) || !RAN.has(before.get(c.name) ?? '')) continue;
      const reason = 'message' in c ? String(c.message).slice(0, 400) : '';
      const profile = (c.file !== undefined && profiles[suiteFileKey(c.file)]) || 'default';
      out.push(`${r.id} hidden (${c.status}; ${before.get(c.name)} on the default profile): ${c.name} — ${reason}\n  in ${c.file}, on profile ${JSON.stringify(profile)}`);
    }
  }
  return out;
}

/** One run of the service suite with a profile per file; the over-reaches and the hidden checks it found. */
export async function runOn(session: ConformanceSession, profiles: Readonly<Record<string, LatitudeProfile>>, seed: number, only?: RunOptions['only']): Promise<{ report: Report; bad: string[] }> {
  const { report } = await session.run({ ...quiet, target: 'sim', suite: 'service', runs: 1, seed, fileProfiles: profiles, ...(only && { only }) });
  const hiddenChecks = only ? [] : hidden(report, await baseline(session), profiles);
  return { report, bad: [...overReach(report, profiles), ...hiddenChecks] };
}

/** A test of `runs` random runs, a random conforming profile per file in each. */
export function randomRuns(session: () => ConformanceSession, runs: number, seed: number): void {
  it(`passes on ${runs} runs of random conforming profiles, one per file (${runs * FILES.length} profiles, seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(...FILES.map(() => conformingProfile())), fc.nat({ max: 1_000_000 }), async (profiles, runSeed) => {
        const byFile = Object.fromEntries(FILES.map((f, i) => [f, profiles[i]!]));
        const { report, bad } = await runOn(session(), byFile, runSeed);
        expect(report.summary.pass).toBeGreaterThan(0);
        if (bad.length) throw new Error(`over-reach or hidden check on a conforming profile (run seed ${runSeed}):\n${bad.join('\n')}`);
      }),
      // No shrinking: each case is a whole run; the failure names the rule, the file and its profile.
      { seed, numRuns: runs, endOnFailure: true },
    );
  }, 3_600_000);
}
