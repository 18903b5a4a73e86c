import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceSession } from './runner.ts';
import { selfTest } from './selftest.ts';

let session: ConformanceSession;
beforeAll(async () => {
  session = await ConformanceSession.open('sim');
}, 60_000);
afterAll(async () => {
  await session?.close();
});

describe('self-test precision', () => {
  it('a defect caught by its rule but failing another rule it does not declare is collateral, naming that rule', async () => {
    // soap02-no-ref-to-message-id breaks SOAP-02 and STOK-01 (both say TokenCreateRS refers to the request's MessageId).
    const result = await selfTest(session, { kind: 'defect', id: 'soap02-no-ref-to-message-id', breaks: ['SOAP-02'], mayFollow: [] }, { runs: 1 });
    expect(result).toMatchObject({ kind: 'collateral', wrong: ['STOK-01'], statuses: { 'SOAP-02': 'fail', 'STOK-01': 'fail' } });
  }, 120_000);

  it('a rule declared to follow is no collateral', async () => {
    const result = await selfTest(session, { kind: 'defect', id: 'soap02-no-ref-to-message-id', breaks: ['SOAP-02'], mayFollow: ['STOK-01'] }, { runs: 1 });
    expect(result).toMatchObject({ kind: 'caught', statuses: { 'SOAP-02': 'fail', 'STOK-01': 'fail' } });
  }, 120_000);

  it('a defect whose rule passes is missed', async () => {
    const result = await selfTest(session, { kind: 'defect', id: 'rest05-text-plain', breaks: ['REST-03'], mayFollow: [] }, { runs: 1 });
    expect(result).toMatchObject({ kind: 'missed', wrong: ['REST-03'] });
  }, 120_000);
});
