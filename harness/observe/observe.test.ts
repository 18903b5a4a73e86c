/**
 * The reference clients observed through the proxy with no driver get the verdicts their drivers get, wherever traffic
 * can show the rule: the TypeScript client used as a library, the Python client inside an ordinary application run
 * by the observation (`observe -- <command>`). Nothing written holds a secret or a token.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import { renderReports, type Report } from '../report/index.ts';
import type { EnvelopeValidator } from '../soap/index.ts';
import { rules } from '../catalog/index.ts';
import { runApplication } from './application.ts';
import { tryValidator } from './judge.ts';
import { parseInjections } from './inject.ts';
import { Observation } from './session.ts';
import { observeReferenceClient, type ObservedRun } from '../../test/support/observe.ts';

let validator: EnvelopeValidator | undefined;
let ts: ObservedRun;
beforeAll(async () => {
  validator = await tryValidator();
  ts = await observeReferenceClient([], validator);
}, 60_000);
afterAll(async () => {
  await validator?.close();
});

const statusOf = (report: Report, id: string) => report.rules.find((r) => r.id === id)?.status;
const clientRules = rules.filter((r) => r.side === 'client').map((r) => r.id);

/**
 * The published client libraries of the client suite (examples/clients/<library>/, each with the verdicts its driver
 * gets in expected-verdicts.json), used by an ordinary application with no driver (examples/observe/library-app.mjs).
 */
const LIBRARIES = ['simple-oauth2', 'sabre-rest', 'sabre-dev-studio'] as const;

interface ExpectedVerdicts {
  readonly rules: Readonly<Record<string, { readonly status: string; readonly after?: string }>>;
}

describe('the reference TypeScript client, observed with no driver', () => {
  it('CRED-01, CRED-02, CRED-04, REST-01, API-03, API-04, API-05, LIFE-03, SOAP-01, SOAP-03, SOAP-04, SOAP-05, SESS-05, SESS-06, SESS-07, SESS-08, ENV-02: every client rule passes, as through its driver', () => {
    const verdicts = Object.fromEntries(clientRules.map((id) => [id, statusOf(ts.report, id)]));
    // ERR-06 keeps its error code and description: what a client reports to its caller is not in its traffic.
    expect(verdicts).toEqual({ ...Object.fromEntries(clientRules.map((id) => [id, 'pass'])), 'ERR-06': 'partial' });
    expect(ts.report.rules.find((r) => r.id === 'ERR-06')?.clauses?.find((c) => c.status === 'unchecked')).toMatchObject({ id: 'ERR-06.keeps-error' });
  });

  it('REST-03, REST-05, STOK-02, ERR-03, ERR-05: the service rules its answers show are judged too', () => {
    expect(['REST-03', 'REST-05', 'STOK-02', 'ERR-03'].map((id) => statusOf(ts.report, id))).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(statusOf(ts.report, 'ERR-05')).toBe('info');
    expect(statusOf(ts.report, 'CRED-03')).toBe('skipped');
  });

  it('no report file holds a password or a token the traffic carried', () => {
    const rendered = renderReports(ts.report, ts.observation.redactor);
    const texts = [rendered.json, rendered.junit, rendered.markdown, rendered.html, rendered.earl];
    expect(ts.secrets.length).toBeGreaterThan(10);
    const leaked = ts.secrets.filter((s) => texts.some((t) => t.includes(s)));
    expect(leaked).toEqual([]);
  });
});

describe('an application on the Python reference client, run by the observation', () => {
  it('CRED-01, CRED-02, REST-01, API-03, API-04, API-05, LIFE-03, ENV-02: the REST rules pass as through its driver; the SOAP rules say what would exercise them', async () => {
    const observation = await Observation.start({ upstream: 'sim', injections: parseInjections(['unauthorized-once', 'overlap-first-calls']) });
    try {
      // Loopback only, unless told otherwise.
      expect(observation.proxy.urls.cert?.restBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const exit = await runApplication(`python3 ${join(PACKAGE_ROOT, 'examples/observe/app.py')}`, observation.childEnvironment(), { quiet: true });
      expect(exit).toEqual({ kind: 'exited', code: 0, signal: null });
      const { report } = await observation.judge({ wholeRun: true, validator });
      const rest = ['CRED-01', 'CRED-02', 'CRED-04', 'REST-01', 'API-03', 'API-04', 'ENV-02'];
      expect(rest.map((id) => `${id} ${statusOf(report, id)}`)).toEqual(rest.map((id) => `${id} pass`));
      // API-05 needs the application's concurrent first calls to overlap in time, which its threads may not do by
      // themselves on a loaded machine: overlap-first-calls holds the first call until the next one arrives.
      expect(statusOf(report, 'API-05')).toBe('pass');
      // One refusal (injected), no expiry: LIFE-03 is checked after a refusal only.
      expect(statusOf(report, 'LIFE-03')).toBe('partial');
      const soap = report.rules.find((r) => r.id === 'SOAP-01');
      expect(soap?.status).toBe('not-applicable');
      expect(soap?.reason).toBe('no SOAP request seen: let the application make a SOAP call');
      expect(report.rules.find((r) => r.id === 'SESS-08')?.reason).toBe('no session seen: let the application open sessions');
    } finally {
      await observation.close();
    }
  }, 30_000);

  for (const library of LIBRARIES) {
    it(`an application on ${library}, observed with no driver, gets its driver's verdict on every rule the traffic decides`, async () => {
      const expected = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'examples/clients', library, 'expected-verdicts.json'), 'utf8')) as ExpectedVerdicts;
      const observation = await Observation.start({ upstream: 'sim' });
      try {
        const exit = await runApplication(`node ${join(PACKAGE_ROOT, 'examples/observe/library-app.mjs')} ${library}`, observation.childEnvironment(), { quiet: true, cwd: PACKAGE_ROOT });
        expect(exit).toMatchObject({ kind: 'exited', code: 0 });
        const { report } = await observation.judge({ wholeRun: true, validator });
        // A rule the traffic decides (anything but not-applicable) gets the verdict the driver got, and a skip names
        // the same failed rule.
        const decided = report.rules.filter((r) => r.side === 'client' && r.status !== 'not-applicable' && expected.rules[r.id]);
        const got = decided.map((r) => `${r.id} ${r.status}${r.status === 'skipped' ? ` after ${r.reason?.match(/\(([A-Z]+-\d+) failed\)/)?.[1] ?? '?'}` : ''}`);
        const want = decided.map((r) => {
          const e = expected.rules[r.id]!;
          return `${r.id} ${e.status}${e.status === 'skipped' ? ` after ${e.after ?? '?'}` : ''}`;
        });
        expect(got).toEqual(want);
        // What the workload exercises is decided on every library: the credentials and the token request. (API-05 is
        // decided when the application's concurrent first calls overlap in time, which a loaded machine may not let
        // them do: it is then not-applicable, and when decided it must have the driver's verdict, above.)
        expect(decided.map((r) => r.id)).toEqual(expect.arrayContaining(['CRED-01', 'CRED-02', 'CRED-04', 'REST-01', 'API-03', 'API-04', 'ENV-02']));
      } finally {
        await observation.close();
      }
    }, 60_000);
  }
});
