import { describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import { Redactor } from './redact.ts';
import { redactReport } from './redact-report.ts';
import { buildOptions, failed, record } from '../../test/support/report.ts';

const TITLE = 'CRED-02: the client sends Authorization: Basic base64(base64(ClientID):base64(password)), for any account';
const REPLAY = `npx tds-conformance run --only CRED-02 --seed 42 --replay '${TITLE}@0:0'`;

function report(secret: string) {
  return buildReport([
    failed(TITLE, 'wrong credentials', {
      failure: {
        message: `the client sent Basic dXNlcjpwYXNz and ${secret}`,
        expected: 'scheme "Basic", credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:9>) )',
        actual: `Basic dXNlcjpwYXNz ${secret}`,
        replay: REPLAY,
        seed: 42,
        path: '0:0',
      },
    }),
    record('API-03: calls carry "Authorization: Bearer <token>" with one space'),
  ], buildOptions);
}

describe('redactReport (where redaction applies in a report)', () => {
  it('leaves check titles, replay commands and rule statements alone, which patterns would cut', () => {
    const safe = redactReport(report('s3cret-pw'), new Redactor(['s3cret-pw']));
    const cred02 = safe.rules.find((r) => r.id === 'CRED-02')!;
    expect(cred02.checks[0]?.name).toBe(TITLE);
    expect(cred02.checks[0] && 'replay' in cred02.checks[0] ? cred02.checks[0].replay : undefined).toBe(REPLAY);
    expect(cred02.statement).toContain('Basic <ENCODED_CREDENTIALS>');
    expect(safe.rules.find((r) => r.id === 'API-03')?.checks[0]?.name).toBe(TITLE.replace(/.*/, 'API-03: calls carry "Authorization: Bearer <token>" with one space'));
  });

  it('still redacts what the run observed, by value and by pattern, and the shape of credentials stays readable', () => {
    const safe = redactReport(report('s3cret-pw'), new Redactor(['s3cret-pw']));
    const check = safe.rules.find((r) => r.id === 'CRED-02')!.checks[0]!;
    expect(check).toMatchObject({
      message: 'the client sent Basic «redacted» and «redacted»',
      actual: 'Basic «redacted» «redacted»',
      expected: 'scheme "Basic", credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:9>) )',
    });
  });

  it('redacts a registered secret even in a static string', () => {
    const secret = 'for any account';
    const safe = redactReport(report('x'), new Redactor([secret]));
    expect(safe.rules.find((r) => r.id === 'CRED-02')!.checks[0]?.name).toBe(TITLE.replace(secret, '«redacted»'));
  });
});
