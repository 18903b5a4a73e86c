import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from './report/index.ts';
import { ConformanceSession } from './runner.ts';
import { judgeSubject, type Subject } from './selftest.ts';
import type { RuleId } from './spec/index.ts';

let session: ConformanceSession;
let report: Report;
beforeAll(async () => {
  session = await ConformanceSession.open('sim');
  // One real run, judged under several declarations: soap02-no-ref-to-message-id breaks SOAP-02 and STOK-01 (both
  // say TokenCreateRS refers to the request's MessageId).
  ({ report } = await session.run({ target: 'sim', suite: 'service', defects: ['soap02-no-ref-to-message-id'], runs: 1, outDir: '', write: false, quiet: true, log: () => {} }));
}, 120_000);
afterAll(async () => {
  await session?.close();
});

function defect(breaks: readonly RuleId[], mayFollow: readonly RuleId[] = []): Subject {
  return { kind: 'defect', id: 'soap02-no-ref-to-message-id', breaks, mayFollow };
}

describe('self-test precision', () => {
  it('a defect caught by its rule but failing another rule it does not declare is collateral, naming that rule', () => {
    expect(judgeSubject(defect(['SOAP-02']), report)).toMatchObject({ kind: 'collateral', wrong: ['STOK-01'], statuses: { 'SOAP-02': 'fail', 'STOK-01': 'fail' } });
  });

  it('a rule declared to follow is no collateral', () => {
    expect(judgeSubject(defect(['SOAP-02'], ['STOK-01']), report)).toMatchObject({ kind: 'caught', statuses: { 'SOAP-02': 'fail', 'STOK-01': 'fail' } });
  });

  it('a defect whose rule passes is missed', () => {
    expect(judgeSubject(defect(['REST-03', 'SOAP-02'], ['STOK-01']), report)).toMatchObject({ kind: 'missed', wrong: ['REST-03'] });
  });

  it('a reference subject with a failed rule is dirty, naming it', () => {
    expect(judgeSubject({ kind: 'reference', id: 'r', suite: 'all' }, report)).toMatchObject({ kind: 'dirty', wrong: expect.arrayContaining(['SOAP-02', 'STOK-01']) });
  });
});
