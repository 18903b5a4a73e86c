/**
 * A budget never decides a verdict, and neither does the order of the files (issue 27): the simulator with a
 * credential defect, served on loopback as a live target, run with the default budget (100 tokens, 40 sessions; only
 * the rate raised, which decides nothing) and the suites' files in shuffled orders. Every order gives the same
 * verdicts, the defect's rule fails in each, and no check is skipped for a spent budget. A service that refuses every
 * credential, and a conforming one, stay within the budget.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../harness/report/model.ts';
import { shuffleWith } from '../../harness/run/file-order.ts';
import type { ConformanceSession } from '../../harness/run/session.ts';
import { defaultAccounts } from '../../harness/sim/default-accounts.ts';
import { sharedSession } from '../support/shared-session.ts';
import { cleanUp, NO_PROXY_ENV, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';

afterEach(cleanUp);

/**
 * The orders tried: Vitest's own (no seed) and two shuffles. Each run names its own (`fileOrderSeed`), so the three
 * orders run in this test worker's live session, one after the other.
 */
const ORDERS = [undefined, 7, 20261126] as const;

/** The simulator (with `defects`) as a live target: a config file with its CERT and PROD accounts. */
async function target(defects: readonly string[]): Promise<string> {
  const accounts = defaultAccounts(1);
  const { server } = await serveSimulator({ accounts: accounts.accounts, defects, seed: 1 });
  setEnv({ ...NO_PROXY_ENV, TDS_ORDER_CERT_PASSWORD: accounts.main.cert.password, TDS_ORDER_PROD_PASSWORD: accounts.main.prod.password });
  return writeTargetConfig(tempDir('order'), 'target.json', {
    name: `simulator${defects.length ? ` (${defects.join(', ')})` : ''}`,
    environments: { cert: server.urls.cert, prod: server.urls.prod },
    accounts: {
      cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, passwordEnv: 'TDS_ORDER_CERT_PASSWORD' },
      prod: { epr: accounts.main.prod.epr, pcc: accounts.main.prod.pcc, passwordEnv: 'TDS_ORDER_PROD_PASSWORD' },
    },
  });
}

/** A run of the live session, with its report and the order its files ended in (one at a time, one worker). */
async function run(config: string, fileOrderSeed?: number): Promise<{ report: Report; files: string[] }> {
  const session: ConformanceSession = await sharedSession('live');
  const { report, consultedDefects } = await session.run({
    target: config, budget: { requestsPerSecond: 1000 }, outDir: join(tempDir('order-out'), 'r'), write: false, quiet: true, log: () => {},
    ...(fileOrderSeed !== undefined && { fileOrderSeed }),
  });
  return { report, files: [...consultedDefects.keys()] };
}

const verdicts = (r: Report) => Object.fromEntries(r.rules.filter((x) => x.side === 'service').map((x) => [x.id, x.status]));
const budgetSkips = (r: Report) => r.rules.flatMap((x) => x.checks.filter((c) => 'message' in c && /budget of \d+ (tokens|sessions)/.test(String(c.message))).map((c) => `${x.id}: ${c.name}`));

describe('no verdict depends on the budget or on the order of the files (live targets, the default budget)', () => {
  it.each([
    { defect: 'cred03-cert-account-refused', fails: ['CRED-03'] },
    { defect: 'cred03-single-base64-expected', fails: ['CRED-03'] },
  ])('$defect fails $fails in every order, with the same verdicts, and nothing skipped for a spent budget', async ({ defect, fails }) => {
    const config = await target([defect]);
    const reports: Report[] = [];
    const orders: string[][] = [];
    for (const seed of ORDERS) {
      const { report, files } = await run(config, seed);
      reports.push(report);
      orders.push(files);
    }
    // The three runs ran the same files; each seeded run in its seed's order (the session hands Vitest the files in
    // the order of their paths, and the seed shuffles them: harness/run/file-order.ts).
    expect(orders[0]!.length).toBeGreaterThan(5);
    for (const o of orders) expect([...o].sort()).toEqual([...orders[0]!].sort());
    ORDERS.forEach((seed, i) => {
      if (seed !== undefined) expect(orders[i]).toEqual(shuffleWith([...orders[i]!].sort(), seed));
    });
    expect(orders[1]).not.toEqual(orders[2]);
    for (const r of reports) {
      expect(budgetSkips(r)).toEqual([]);
      expect(r.rules.filter((x) => x.status === 'fail').map((x) => x.id)).toEqual(fails);
      expect(r.resources.tokens).toBeLessThanOrEqual(100);
    }
    expect(verdicts(reports[1]!)).toEqual(verdicts(reports[0]!));
    expect(verdicts(reports[2]!)).toEqual(verdicts(reports[0]!));
  }, 240_000);

  it('a conforming service stays within the default budget, and the run says how many token and session requests it made', async () => {
    const { report } = await run(await target([]));
    expect(budgetSkips(report)).toEqual([]);
    expect(report.rules.filter((x) => x.status === 'fail' || x.status === 'error').map((x) => x.id)).toEqual([]);
    expect(report.resources.tokens).toBeLessThanOrEqual(100);
    expect(report.resources.tokenRequests).toBeGreaterThanOrEqual(report.resources.tokens);
    expect(report.resources.sessionRequests).toBeGreaterThanOrEqual(report.resources.sessionsOpened);
  }, 120_000);
});
