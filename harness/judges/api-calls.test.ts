import { describe, expect, it } from 'vitest';
import { api03Problems } from './index.ts';

describe('API-03 judge (the client suite and observe)', () => {
  it('finds nothing in a call with "Bearer <token>" and an upper-case method', () => {
    expect(api03Problems({ method: 'GET', path: '/v1/lists/supported/shop/themes', authorization: 'Bearer T1RLAQabc' })).toEqual([]);
  });

  it('bearer-scheme: names no header, a missing space or two spaces, showing only the start of the token', () => {
    const call = { method: 'GET', path: '/v1/x' };
    expect(api03Problems({ ...call, authorization: undefined })).toEqual([{
      clause: 'API-03.bearer-scheme', message: 'the call GET /v1/x does not carry "Authorization: Bearer <token>" (scheme Bearer, one space)', expected: 'Bearer <token>', actual: '(no header)',
    }]);
    // With no space, scheme and token cannot be told apart: only the first six characters are shown.
    expect(api03Problems({ ...call, authorization: 'BearerT1RLAQabcdef' })[0]?.actual).toBe('«no space»Bearer…');
    expect(api03Problems({ ...call, authorization: 'Bearer  T1RLAQabcdef' })[0]?.actual).toBe('Bearer«2 space(s)»T1RLAQ…');
  });

  it('bearer-scheme: names a well-formed header carrying a token the service never issued (the token as issued), where that is known', () => {
    const call = { method: 'GET', path: '/v1/x', authorization: 'Bearer t1rlaqabcdef' };
    expect(api03Problems({ ...call, issued: false })).toEqual([{
      clause: 'API-03.bearer-scheme', message: 'the call GET /v1/x carries a bearer token the service never issued: not the access_token as issued', expected: 'Bearer <access_token as issued>', actual: 'Bearer«1 space(s)»t1rlaq…',
    }]);
    expect(api03Problems({ ...call, issued: true })).toEqual([]);
    // Traffic that began after the token was issued does not know: nothing is said.
    expect(api03Problems(call)).toEqual([]);
  });

  it('upper-case-method: names a method not in upper case', () => {
    expect(api03Problems({ method: 'get', path: '/v1/x', authorization: 'Bearer T1' })).toEqual([{
      clause: 'API-03.upper-case-method', message: 'method of /v1/x is not upper case', expected: 'GET', actual: 'get',
    }]);
  });
});
