/**
 * A live target end to end over HTTPS: the simulator served on loopback with a certificate of a throw-away CA, as a
 * real service would be, checked through a target config file (`caFile`, passwords from environment variables).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report, RuleStatus } from '../../harness/report/index.ts';
import { sharedRun } from '../support/shared-session.ts';
import { defaultAccounts } from '../../harness/sim/index.ts';
import { rules } from '../../harness/catalog/index.ts';
import { cleanUp, NO_PROXY_ENV, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';
import { makeTestPki } from './test-pki.ts';

afterEach(cleanUp);

const REPORT_FILES = ['report.json', 'junit.xml', 'report.md', 'report.html', 'report.earl.jsonld'];

/** The simulator over HTTPS, a config file for it (with or without `caFile`), and the passwords in the environment. */
async function httpsTarget(withCaFile: boolean): Promise<{ dir: string; config: string; origins: string[] }> {
  const dir = tempDir('https');
  const pki = makeTestPki(dir);
  const accounts = defaultAccounts(11);
  const { server } = await serveSimulator({ accounts: accounts.accounts, tls: { key: pki.key, cert: pki.cert }, seed: 11 });
  setEnv({ ...NO_PROXY_ENV, TDS_TEST_HTTPS_CERT_PASSWORD: accounts.main.cert.password, TDS_TEST_HTTPS_PROD_PASSWORD: accounts.main.prod.password });
  const config = writeTargetConfig(dir, 'target.json', {
    name: 'simulator over HTTPS',
    environments: server.urls,
    accounts: {
      cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, passwordEnv: 'TDS_TEST_HTTPS_CERT_PASSWORD', groupAlternatives: accounts.main.cert.groupAlternatives ?? [] },
      prod: { epr: accounts.main.prod.epr, pcc: accounts.main.prod.pcc, passwordEnv: 'TDS_TEST_HTTPS_PROD_PASSWORD', groupAlternatives: accounts.main.prod.groupAlternatives ?? [] },
    },
    // Relative to the config file, as a user writes it.
    ...(withCaFile && { caFile: 'ca.pem' }),
  });
  expect(server.urls.cert.restBaseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(server.urls.prod.restBaseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  return { dir, config, origins: [server.urls.cert.restBaseUrl, server.urls.prod.restBaseUrl] };
}

/** Rule ID → status, for the rules of the service side. */
function serviceStatuses(report: Report): Record<string, RuleStatus> {
  return Object.fromEntries(report.rules.filter((r) => r.side === 'service').map((r) => [r.id, r.status]));
}

const serviceRules = rules.filter((r) => r.side === 'service');
/** Rules a plain live target cannot fully exercise: a clause needs generated accounts, the clock, the pool or a look inside. */
const PARTIAL_ON_LIVE = new Set(['CRED-03', 'ERR-04', 'SESS-02', 'STOK-01']);

describe('a live target over HTTPS with a private CA (caFile)', () => {
  it('passes every service rule a live target is checked for; sim rules are not applicable, opt-in rules skipped; exit code 0', async () => {
    const { dir, config } = await httpsTarget(true);
    const outDir = join(dir, 'reports');
    const { report, exitCode } = await sharedRun({ budget: { requestsPerSecond: 1000 }, target: config, suite: 'service', allowOptIn: false, write: true, outDir, quiet: true, log: () => {} });

    const expected = Object.fromEntries(serviceRules.map((r): [string, RuleStatus] => [
      r.id,
      r.where === 'sim' ? 'not-applicable' : r.where === 'opt-in' ? 'skipped' : r.level === 'INFO' ? 'info' : PARTIAL_ON_LIVE.has(r.id) ? 'partial' : 'pass',
    ]));
    expect(serviceStatuses(report)).toEqual(expected);
    // Every check of a live rule held, needs control only the simulator offers (generated accounts, a moved clock),
    // audits answers (or refusals) the file did not get, or fills the shared session pool (opt-in); none was skipped for a spent
    // budget or a failed prerequisite.
    for (const rule of report.rules.filter((r) => r.side === 'service' && r.where === 'any')) {
      const held = rule.level === 'INFO' ? 'info' : 'pass';
      expect(rule.checks.filter((c) => c.status === held).length, rule.id).toBeGreaterThan(0);
      for (const check of rule.checks) {
        if (check.status === 'not-applicable') expect(check.message, check.name).toMatch(/simulator|control of the clock|received no successful answer to|had no token refused by the REST probe right after it was issued/);
        else if (check.status === 'skipped') expect(check.message, check.name).toMatch(/^[^:]+ uses shared resources of a live target: run with --allow-opt-in to include it$/);
        else expect([check.name, check.status]).toEqual([check.name, held]);
      }
    }
    expect(report.rules.filter((r) => r.side === 'client').every((r) => r.status === 'skipped')).toBe(true);
    expect(report.target).toEqual({ name: 'simulator over HTTPS', kind: 'live' });
    expect(report.runErrors).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.exitCode).toBe(0);
    for (const file of REPORT_FILES) expect(existsSync(join(outDir, file)), file).toBe(true);
    expect((JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as Report).summary).toEqual(report.summary);
  }, 180_000);

  it('without caFile, the certificate is not trusted: every live rule is an error (TARGET_UNREACHABLE), exit code 3', async () => {
    const { dir, config, origins } = await httpsTarget(false);
    const { report, exitCode } = await sharedRun({
      target: config, suite: 'service', allowOptIn: false, write: true, outDir: join(dir, 'reports'), quiet: true, log: () => {},
    });

    const expected = Object.fromEntries(serviceRules.map((r): [string, RuleStatus] => [
      r.id,
      r.where === 'sim' ? 'not-applicable' : r.where === 'opt-in' ? 'skipped' : 'error',
    ]));
    expect(serviceStatuses(report)).toEqual(expected);
    const errored = report.rules.flatMap((r) => r.checks).filter((c) => c.status === 'error');
    expect(errored.length).toBeGreaterThan(0);
    // The certificate of a CA the run was not told to trust: Node's verdict, named in each check.
    const untrusted = origins.map((origin) => `cannot reach ${origin} (UNABLE_TO_VERIFY_LEAF_SIGNATURE)`);
    for (const check of errored) {
      expect(check.status === 'error' && check.code, check.name).toBe('TARGET_UNREACHABLE');
      expect(untrusted, check.name).toContain(check.status === 'error' && check.message);
    }
    expect(exitCode).toBe(3);
  }, 180_000);
});
