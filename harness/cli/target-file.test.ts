import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FailedCheck, Report } from '../report/index.ts';
import type { ConformanceSession } from '../runner.ts';
import { defaultAccounts, ManualClock, SimCore, startSimServer } from '../sim/index.ts';
import { sharedSession } from '../../test/support/shared-session.ts';

/**
 * A service described by a target file that breaks a rule: the rule fails with a message naming expected and actual
 * values (and, for SOAP, the envelope excerpt as evidence, secrets masked), and the run exits 1.
 */
describe('a target file pointing at a service that breaks rules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tds-target-file-'));
  let session: ConformanceSession | undefined;

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the rules against a simulator with the defect, served as a live target; returns the report and how many sessions were left open. */
  async function runAgainst(defect: string, only: string[]): Promise<Report & { leftOpen: number }> {
    const accounts = defaultAccounts(9);
    const core = new SimCore({ clock: new ManualClock(Date.now()), accounts: accounts.accounts, defects: [defect] });
    const server = await startSimServer(core);
    try {
      const config = join(dir, `${defect}.json`);
      writeFileSync(config, JSON.stringify({
        name: `service with ${defect}`,
        environments: { cert: server.urls.cert },
        accounts: { cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, password: accounts.main.cert.password } },
      }));
      session ??= await sharedSession('live');
      const { report } = await session.run({ budget: { requestsPerSecond: 1000 }, target: config, only: only as never, outDir: join(dir, defect), quiet: true, log: () => {} });
      const text = JSON.stringify(report);
      expect(text).not.toContain(accounts.main.cert.password);
      return Object.assign(report, { leftOpen: core.openSessionCount() });
    } finally {
      await server.close();
    }
  }

  const failed = (report: Report, id: string) => report.rules.find((r) => r.id === id)?.checks.find((c): c is FailedCheck => c.status === 'fail');

  it('REST: token_type "Bearer" fails REST-03 naming expected and actual, exit code 1', async () => {
    const report = await runAgainst('rest03-token-type-capitalized', ['REST-03']);
    expect(report.rules.find((r) => r.id === 'REST-03')?.status).toBe('fail');
    expect(failed(report, 'REST-03')).toMatchObject({ message: 'unexpected "token_type" value in the token response', expected: '"bearer"', actual: '"Bearer"' });
    expect(report.exitCode).toBe(1);
  }, 120_000);

  it.each([
    // The values as the judges (harness/judges) write them, the same in observe's reports.
    ['err04-wrong-faultcode', 'ERR-04', { message: expect.stringMatching(/^unexpected faultcode for SessionCloseRQ with /), expected: 'Client.InvalidSecurityToken', actual: 'Client.InvalidToken' }],
    ['soap02-no-ref-to-message-id', 'SOAP-02', { message: expect.stringMatching(/^eb:RefToMessageId of the answer to .+ is not the request's MessageId$/), expected: expect.stringMatching(/.+/), actual: '(none)' }],
    ['sess02-close-keeps-token', 'SESS-02', { message: 'OTA_PingRQ with the token of the closed session was accepted' }],
  ] as const)('SOAP: %s fails %s with the envelope excerpt as evidence', async (defect, rule, expected) => {
    const report = await runAgainst(defect, [rule]);
    expect(report.rules.find((r) => r.id === rule)?.status).toBe('fail');
    const check = failed(report, rule)!;
    expect(check).toMatchObject(expected);
    const evidence = check.evidence?.join('\n') ?? '';
    expect(evidence).toContain('<eb:MessageHeader');
    expect(evidence).toContain('<soap-env:Body>');
    expect(evidence).not.toMatch(/Shared\/IDL:IceSess|T1RLAQ[A-Za-z0-9+/]{20}/);
    expect(report.exitCode).toBe(1);
    // The harness closed every session it opened, although checks failed (a service whose close does not end the
    // session keeps it open: that is the defect).
    if (defect !== 'sess02-close-keeps-token') expect(report.leftOpen).toBe(0);
  }, 120_000);
});
