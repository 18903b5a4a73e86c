/** Builders of test records and reports for the unit tests of `harness/report`. Not part of the public API. */
import { buildReport } from '../../harness/report/build.ts';
import type { BuildOptions } from '../../harness/report/build.ts';
import type { CheckMeta } from '../../harness/report/meta.ts';
import type { Report, TestRecord } from '../../harness/report/model.ts';

export const buildOptions: BuildOptions = {
  toolVersion: '0.1.0',
  target: { name: 'simulator', kind: 'sim' },
  seed: 42,
  runs: 25,
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: '2025-01-01T00:01:00.000Z',
};

type RecordInput = Partial<Omit<TestRecord, 'title'>> & { readonly meta?: CheckMeta };

/** A test record: passed in `suites/service/x.test.ts` unless told otherwise. */
export function record(title: string, input: RecordInput = {}): TestRecord {
  return { title, file: 'suites/service/x.test.ts', state: 'passed', errors: [], durationMs: 5, ...input };
}

export function failed(title: string, message: string, meta?: CheckMeta): TestRecord {
  return record(title, { state: 'failed', errors: [{ message }], ...(meta && { meta }) });
}

/**
 * A report with one rule of each status, failure details that need escaping, and the given secret everywhere. With
 * `selection`, the rules outside it are not selected (their tests left out).
 */
export function sampleReport(secret: string, selection?: BuildOptions['selection']): Report {
  const evidence = [
    `POST /v2/auth/token\nAuthorization: Basic ${Buffer.from(`x:${secret}`).toString('base64')}\n\ngrant_type=client_credentials`,
    `<wsse:Password>${secret}</wsse:Password> & "quotes" ]]> \u0001 \`\`\` fence`,
  ];
  return buildReport([
    record('REST-02: source_ip is optional'),
    failed('REST-03: a valid request gets a token', `unexpected "token_type" value for ${secret}`, {
      failure: {
        message: `unexpected "token_type" value <bearer> | ${secret}`,
        expected: '"bearer"',
        actual: `"Bearer" ${secret}`,
        counterexample: `[{"password":"${secret}"}]`,
        seed: 42,
        path: '3:1',
        replay: `npx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token@3:1'`,
        evidence,
      },
    }),
    failed('REST-05: a token response is 200 JSON', 'unexpected status 201', { failure: { message: 'unexpected status 201', expected: '200', actual: '201' } }),
    failed('API-01: a bearer token works', 'connect failed', {
      outcome: { kind: 'error', code: 'TARGET_UNREACHABLE', message: `cannot reach https://user:${secret}@cert.example` },
    }),
    record('LIFE-01: a token expires', { state: 'skipped', meta: { outcome: { kind: 'not-applicable', reason: 'needs clock control' } } }),
    record('ERR-05: SOAP fault status', { meta: { outcome: { kind: 'info', observed: '500', publiclySeen: '500', matchesPublic: true } } }),
  ], { ...buildOptions, runErrors: [{ code: 'TEST_FILE_FAILED', message: `suites/x.test.ts: ${secret}` }], ...(selection && { selection }) });
}
