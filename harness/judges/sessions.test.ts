import { describe, expect, it } from 'vitest';
import { peakOpen, sess06Problem, sess07Problem, sess08PoolProblem, sess08StormProblem, stormRun } from './index.ts';

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
      clause: 'SESS-07.no-reuse', message: 'the client sent the token again after Client.InvalidSecurityToken', expected: 'no request with that token', actual: '2 more uses of the refused token, each after the refusal was answered: OTA_PingRQ, SessionCloseRQ',
    });
  });
});

describe('SESS-08 judges (the client suite and observe)', () => {
  it('pool-bound: finds nothing while no more sessions than the pool are open at once', () => {
    // The second ends when the third opens: never three at once.
    const spans = [{ opened: 1, ended: 10 }, { opened: 2, ended: 5 }, { opened: 5 }];
    expect(peakOpen(spans)).toBe(2);
    expect(sess08PoolProblem(2, spans)).toBeUndefined();
  });

  it('pool-bound: counts a session never ended as open to the end, and says where', () => {
    expect(sess08PoolProblem(2, [{ opened: 1 }, { opened: 2 }, { opened: 3, ended: 4 }], 'CERT')).toEqual({
      clause: 'SESS-08.pool-bound', message: 'the client held more than 2 sessions open with a pool of 2', expected: 'at most 2', actual: '3 (CERT)',
    });
    expect(sess08PoolProblem(1, [{ opened: 1 }, { opened: 2 }])?.actual).toBe('2');
  });

  it('no-retry-storm: one retry at once, or retries after a back-off, are no storm', () => {
    expect(sess08StormProblem([{}, {}])).toBeUndefined();
    // Attempts sent together (a negative pause: before the previous one was answered) are no retries of each other.
    expect(sess08StormProblem([{}, { pauseMs: -3 }, { pauseMs: -1 }])).toBeUndefined();
    expect(sess08StormProblem([{}, { pauseMs: 5 }, { pauseMs: 500 }, { pauseMs: 3 }])).toBeUndefined();
  });

  it('no-retry-storm: more than one retry in a row, each without a pause, is a storm', () => {
    const refused = [{ pauseMs: 900 }, { pauseMs: 200 }, { pauseMs: 2 }, { pauseMs: 1 }];
    expect(stormRun(refused)).toEqual(refused.slice(1));
    expect(sess08StormProblem([{}, { pauseMs: 200 }, { pauseMs: 2 }, { pauseMs: 1 }])).toEqual({
      clause: 'SESS-08.no-retry-storm', message: 'the client retried SessionCreateRQ in a loop after Client.ReachedTALimit', expected: 'at most one retry without a pause',
      actual: '3 SessionCreateRQ refused for a full pool, one after the other, each sent at once after the previous refusal',
    });
    // A driven client's pauses are not known: every retry counts.
    expect(sess08StormProblem([{}, {}, {}])?.actual).toBe('3 SessionCreateRQ refused for a full pool, one after the other');
  });
});
