import { describe, expect, it } from 'vitest';
import { api04Problem, api05Problem, life03Problem, renewableFrom, usableUntil } from './index.ts';

const HOUR = 3_600_000;
const token = { obtainedAt: '#1', issuedAt: 0, expiresIn: 604_800, uses: 3 };

describe('API-04 judge (the client suite and observe)', () => {
  it('finds a token request sent while the held token was valid', () => {
    expect(api04Problem({ at: '#5 POST /v2/auth/token', sentAt: HOUR, held: token })).toEqual({
      clause: 'API-04.reuse', message: 'the client requested a new token while its token was valid',
      expected: 'no token request while the token is valid (not refused, not expired)',
      actual: 'token request #5 POST /v2/auth/token after 3 calls with a token obtained at #1, still valid',
    });
  });

  it('accepts the first request, and one after the token was refused or made to expire', () => {
    expect(api04Problem({ at: '#1', sentAt: 0, held: undefined })).toBeUndefined();
    expect(api04Problem({ at: '#5', sentAt: HOUR, held: { ...token, endedAt: HOUR - 1 } })).toBeUndefined();
    expect(api04Problem({ at: '#5', sentAt: HOUR, held: { ...token, endedAt: HOUR } })).toBeUndefined();
    // Refused only after the request: the request was sent while the token was valid.
    expect(api04Problem({ at: '#5', sentAt: HOUR, held: { ...token, endedAt: HOUR + 1 } })).toMatchObject({
      clause: 'API-04.reuse', actual: 'token request #5 after 3 calls with a token obtained at #1, still valid',
    });
  });

  it('grants the latitude renew-ahead: the last tenth of the lifetime, or the last 300 s', () => {
    // 7 days: the last tenth (16.8 h) is longer than 300 s.
    const week = 604_800_000;
    expect(renewableFrom(0, 604_800)).toBe(week - week / 10);
    expect(api04Problem({ at: '#5', sentAt: week - week / 10, held: token })).toBeUndefined();
    expect(api04Problem({ at: '#5', sentAt: week - week / 10 - 1, held: token })).toMatchObject({
      clause: 'API-04.reuse', actual: 'token request #5 after 3 calls with a token obtained at #1, still valid',
    });
    // 20 min: the last 300 s is longer than its tenth (120 s).
    expect(renewableFrom(0, 1200)).toBe(900_000);
    expect(usableUntil({ ...token, expiresIn: 1200 })).toBe(900_000);
    // No lifetime given: it may have expired at any time, so no request is surely sent while it was valid.
    expect(api04Problem({ at: '#5', sentAt: 1, held: { ...token, expiresIn: undefined } })).toBeUndefined();
  });
});

describe('API-05 judge (the client suite and observe)', () => {
  it('accepts one token request, and finds more', () => {
    expect(api05Problem(1, 'in flight at once')).toBeUndefined();
    expect(api05Problem(3, 'in flight at once')).toEqual({
      clause: 'API-05.single-flight', message: 'concurrent calls of a client with no token caused more than one token request', expected: 'one token request', actual: '3 token requests in flight at once',
    });
  });
});

describe('LIFE-03 judge (the client suite and observe)', () => {
  const refused = { first: '#4 GET /v1/lists/supported/shop/themes', resent: [] };

  it('finds a refused token sent again, on the clause it is given', () => {
    expect(life03Problem('LIFE-03.after-refusal', [refused, { ...refused, resent: ['#6 GET /x', '#7 GET /x'] }])).toEqual({
      clause: 'LIFE-03.after-refusal', message: 'the client sent the refused token again', expected: 'no request with the refused token after the refusal',
      actual: '2 more uses of the refused token, each after the refusal at #4 GET /v1/lists/supported/shop/themes was answered',
    });
  });

  it('finds a driven client that did not recover, and leaves recovery unjudged when it is not known', () => {
    expect(life03Problem('LIFE-03.after-expiry', [refused], false)).toMatchObject({ clause: 'LIFE-03.after-expiry', message: 'the client did not obtain a new token and go on after its token expired' });
    expect(life03Problem('LIFE-03.after-expiry', [refused], true)).toBeUndefined();
    expect(life03Problem('LIFE-03.after-expiry', [refused])).toBeUndefined();
    // A client that renewed before its token expired was never refused: nothing to resend.
    expect(life03Problem('LIFE-03.after-expiry', [], true)).toBeUndefined();
  });
});
