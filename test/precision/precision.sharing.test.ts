/**
 * The self-test reuses, for the suite files whose simulator never asked about a subject's defects, the verdicts of a
 * defect-free run (harness/selftest.ts, `selfTestRun`). Held here: the shared report gives every rule the status a run
 * of every file with the defects on gives, for a defect one file asks about and a pair on a route-taker's latitude
 * profile (its own defect-free run); a defect-free run is the shared run's files merged (the stand-in's tests run
 * their plain stand-ins so); and the files say which defects they asked about. The same for the mutant clients: the
 * client suite's files say which of the reference client's faults their clients asked about, and a mutant's shared
 * report is that of a run of every file with the mutant.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../harness/report/index.ts';
import type { Subject } from '../../harness/selftest.ts';
import { DEFAULT_PROFILE } from '../../harness/sim/latitude.ts';
import { selftest } from '../support/compiled.ts';
import { useSession } from '../support/test-session.ts';

const { allPairs, allSubjects, selfTestRun, sharedClientRun, sharedServiceRun } = selftest;
const statuses = (report: Pick<Report, 'rules'>) => Object.fromEntries(report.rules.map((r) => [r.id, r.status]));
const quiet = { outDir: '', write: false, quiet: true, log: () => {} } as const;

describe('the self-test shares a defect-free run between subjects', () => {
  const session = useSession();

  it('each file says which simulator defects it asked about', async () => {
    const { consultedDefects } = await session().run({ target: 'sim', runs: 1, only: ['REST-03', 'ACCESS-02'], ...quiet });
    expect(consultedDefects.get('suites/service/token-endpoint.test.ts')).toContain('rest03-token-type-capitalized');
    expect(consultedDefects.get('suites/service/access.test.ts')).toContain('access02-any-agency');
    expect(consultedDefects.get('suites/service/token-endpoint.test.ts')).not.toContain('access02-any-agency');
  }, 60_000);

  it('gives every rule the status of a run of every file with the defects on', async () => {
    const defects = (await allSubjects()).filter((s): s is Extract<Subject, { kind: 'defect' }> => s.kind === 'defect');
    const pick = (id: string) => defects.find((d) => d.id === id) ?? expect.unreachable(id);
    const withProfile = allPairs().find((p) => p.taker.profile?.throttle === '429') ?? expect.unreachable('a throttling pair');
    // A defect one file asks about (access), and a pair on a latitude profile (its own defect-free run). Every defect and
    // every pair, both ways: the verdict snapshot (scripts/verdicts.ts, docs/running.md).
    for (const subject of [pick('access02-any-agency'), withProfile]) {
      const shared = await selfTestRun(session(), subject, { runs: 1 });
      const full = await selfTestRun(session(), subject, { runs: 1, share: false });
      expect(statuses(shared), subject.id).toEqual(statuses(full));
      for (const rule of subject.breaks) expect(statuses(shared)[rule], `${subject.id} ${rule}`).toMatch(/^(fail|warn|info)$/);
    }
  }, 120_000);

  it('a defect-free run made of the shared run\'s files gives every rule the status of a whole run, and costs no run of its own', async () => {
    // The throttling pair's profile, whose shared run the test above made (as selfTestRun orders the options).
    const pair = allPairs().find((p) => p.taker.profile?.throttle === '429') ?? expect.unreachable('a throttling pair');
    const profile = { ...DEFAULT_PROFILE, ...pair.taker.profile };
    const shared = await sharedServiceRun(session(), { runs: 1, profile });
    const full = (await session().run({ target: 'sim', suite: 'service', runs: 1, profile, ...quiet })).report;
    expect(statuses(shared)).toEqual(statuses(full));
    expect(shared.summary).toEqual(full.summary);
    // The options in another order: the same files' reports (no run made, so the same durations).
    const again = await sharedServiceRun(session(), { profile, defects: [], runs: 1 });
    expect(again.rules.flatMap((r) => r.checks.map((c) => c.durationMs))).toEqual(shared.rules.flatMap((r) => r.checks.map((c) => c.durationMs)));
  }, 120_000);
});

describe('the self-test shares a fault-free run of the reference client between mutant clients', () => {
  const session = useSession();
  const mutant = (subjects: readonly Subject[], id: string) =>
    subjects.find((s): s is Extract<Subject, { kind: 'mutant' }> => s.kind === 'mutant' && s.id === id) ?? expect.unreachable(id);

  it('each client file says which faults its clients asked about', async () => {
    const { consultedFaults } = await session().run({ target: 'sim', suite: 'client', runs: 1, only: ['CRED-01', 'SESS-06'], ...quiet });
    expect(consultedFaults.get('suites/client/credentials.test.ts')).toContain('cred01-no-v1');
    expect(consultedFaults.get('suites/client/sessions.test.ts')).toContain('sess06-never-closes');
    expect(consultedFaults.get('suites/client/sessions.test.ts')).not.toContain('cred01-no-v1');
    // A client that cannot say (a driver of the protocol): its files may have asked about anything.
    const subjects = await allSubjects();
    const driver = subjects.find((s) => s.kind === 'reference' && s.suite === 'client' && s.client?.kind === 'command') ?? expect.unreachable('a driver');
    const { consultedFaults: byDriver } = await session().run({ target: 'sim', suite: 'client', runs: 1, only: ['SESS-06'], client: driver.kind === 'reference' ? driver.client : undefined, ...quiet });
    expect(byDriver.get('suites/client/sessions.test.ts')).toBe('all');
  }, 60_000);

  it('gives every rule the status of a run of every file with the mutant', async () => {
    const subjects = await allSubjects();
    // A fault one file asks about (errors), and one of every SOAP request (four files). Every mutant, both ways: the
    // verdict snapshot (scripts/verdicts.ts, docs/running.md).
    for (const subject of [mutant(subjects, 'err06-generic-error'), mutant(subjects, 'soap04-action-ota')]) {
      const shared = await selfTestRun(session(), subject, { runs: 1 });
      const full = await selfTestRun(session(), subject, { runs: 1, share: false });
      expect(statuses(shared), subject.id).toEqual(statuses(full));
      expect(shared.summary, subject.id).toEqual(full.summary);
      for (const rule of subject.breaks) expect(statuses(shared)[rule], `${subject.id} ${rule}`).toBe('fail');
    }
  }, 120_000);

  it('a fault-free run made of the shared run\'s files gives every rule the status of a whole run', async () => {
    const subjects = await allSubjects();
    const { client } = mutant(subjects, 'err06-generic-error');
    // No fault asked about: every file is the fault-free run's (the reference client's, whatever module is named).
    const shared = await sharedClientRun(session(), { client, faults: [], runs: 1 });
    const full = (await session().run({ target: 'sim', suite: 'client', runs: 1, ...quiet })).report;
    expect(statuses(shared)).toEqual(statuses(full));
    expect(shared.summary).toEqual(full.summary);
    expect(shared.rules.flatMap((r) => r.checks.map((c) => `${r.id} ${c.name} ${c.status}`)).sort()).toEqual(full.rules.flatMap((r) => r.checks.map((c) => `${r.id} ${c.name} ${c.status}`)).sort());
  }, 120_000);
});
