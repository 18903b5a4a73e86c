import { describe, expect, it } from 'vitest';
import { sess06Problem, sess07Problem } from './index.ts';

describe('SESS-06 judge (the client suite and observe)', () => {
  const closed = { closed: true, ended: false };
  const endedByService = { closed: false, ended: true };
  const open = { closed: false, ended: false };

  it('finds nothing when every session was closed or ended by the service', () => {
    for (const clause of ['SESS-06.end-of-work', 'SESS-06.shutdown', 'SESS-06.after-failure'] as const) {
      expect(sess06Problem(clause, [closed, endedByService, { ...closed, failedCall: true }])).toBeUndefined();
    }
  });

  it('counts the sessions left open at the end of work and at shutdown', () => {
    expect(sess06Problem('SESS-06.end-of-work', [closed, open, open])).toEqual({
      clause: 'SESS-06.end-of-work', message: 'the client left 2 of 3 session(s) open at the end of its work', expected: 'a SessionCloseRQ for every session', actual: '2 never closed',
    });
    expect(sess06Problem('SESS-06.shutdown', [open])).toMatchObject({ clause: 'SESS-06.shutdown', message: 'the client left 1 of 1 session(s) open at shutdown', actual: '1 never closed' });
  });

  it('after a failure, judges only the sessions with a failed call', () => {
    expect(sess06Problem('SESS-06.after-failure', [open, { ...closed, failedCall: true }])).toBeUndefined();
    expect(sess06Problem('SESS-06.after-failure', [closed, { ...open, failedCall: true }, { ...closed, failedCall: true }])).toEqual({
      clause: 'SESS-06.after-failure', message: 'the client left 1 of 2 session(s) open after a call inside it failed', expected: 'a SessionCloseRQ after the failed call', actual: '1 never closed',
    });
  });
});

describe('SESS-07 judge (the client suite and observe)', () => {
  it('finds nothing when the refused token was not sent again', () => {
    expect(sess07Problem([])).toBeUndefined();
  });

  it('names the requests that carried the refused token again', () => {
    expect(sess07Problem(['OTA_PingRQ', 'SessionCloseRQ'])).toEqual({
      clause: 'SESS-07.no-reuse', message: 'the client sent the token again after Client.InvalidSecurityToken', expected: 'no request with that token', actual: 'OTA_PingRQ, SessionCloseRQ',
    });
  });
});
