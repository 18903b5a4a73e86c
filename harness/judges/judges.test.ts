import { describe, expect, it } from 'vitest';
import { basicAuthorization, encodeBase64Utf8 } from '../credentials/index.ts';
import { buildRequest, makeRequestHeader, parseEnvelope, sessionCloseRQBody, type ParsedEnvelope } from '../soap/index.ts';
import { cred01Problems, cred04Problem, err02DistinguishableProblem, err06KeepsProblem, err06LoopProblem, isJsonContentType, readCred02, rest01Problems, rest03Problems, rest05Problems, sess05BodyProblem, sess05HeaderProblem, serviceSaid } from './index.ts';

const json = (status: number, body: unknown, type = 'application/json;charset=UTF-8') => ({ status, headers: { 'content-type': type }, body: JSON.stringify(body) });

describe('REST-03 and REST-05 judges (the service suite and observe)', () => {
  it('find nothing in a conforming token answer, with extra fields and any JSON type', () => {
    const ok = json(200, { access_token: 'T1RLAQ…*', token_type: 'bearer', expires_in: 604800, scope: '' }, 'Application/JSON; charset=utf-8');
    expect([...rest03Problems(ok), ...rest05Problems(ok)]).toEqual([]);
    expect(isJsonContentType('application/vnd.api+json')).toBe(true);
    expect(isJsonContentType('text/plain')).toBe(false);
  });

  it('name each broken clause with what was expected and what came', () => {
    expect(rest03Problems(json(200, { access_token: 'x', token_type: 'Bearer', expires_in: '604800' })).map((p) => [p.clause, p.expected, p.actual])).toEqual([
      ['REST-03.token-type', '"bearer"', '"Bearer"'],
      ['REST-03.expires-in', 'a JSON number', '"604800"'],
    ]);
    expect(rest03Problems({ status: 200, headers: {}, body: 'not json' })[0]?.clause).toBe('REST-03.json-object');
    expect(rest05Problems(json(201, { access_token: 'x' }, 'text/plain')).map((p) => p.clause)).toEqual(['REST-05.status-200', 'REST-05.json-content-type']);
  });
});

describe('CRED-02 judge (the client suite and observe)', () => {
  it('reads the Client ID and secret of a correctly built header', () => {
    const header = basicAuthorization({ userid: 'us:er', group: 'TR1C', domain: 'AA', password: 'pä:ss wörd+/=' });
    expect(readCred02(header)).toEqual({ ok: true, clientId: 'V1:us:er:TR1C:AA', password: 'pä:ss wörd+/=' });
    // Where the password is known (a driven client), the inner layer must carry it.
    expect(readCred02(header, 'pä:ss wörd+/=')).toMatchObject({ ok: true });
    expect(readCred02(header, 'other')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.inner-layer', message: 'the decoded client secret is not the password' } });
  });

  it('names the scheme (strict: one space after Basic), the outer or the inner layer', () => {
    const single = `Basic ${encodeBase64Utf8('V1:u:g:AA:secret')}`;
    expect(readCred02(undefined)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme', actual: '(no header)' } });
    expect(readCred02('Basic  abc')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme' } });
    expect(readCred02('Bearer abc')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme', actual: 'Bearer …' } });
    expect(readCred02('Basic %%%')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.outer-layer' } });
    expect(readCred02(single)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.inner-layer' } });
    expect(readCred02(single)).not.toHaveProperty('clientId');
  });

  it('still reads the Client ID of credentials sent with the scheme in another case or spacing, so that CRED-01 is judged on them', () => {
    const encoded = basicAuthorization({ userid: 'u', group: 'g', domain: 'AA', password: 'secret' }).slice('Basic '.length);
    expect(readCred02(`basic ${encoded}`)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme' }, clientId: 'V1:u:g:AA' });
    expect(readCred02(`Basic  ${encoded}`)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme' }, clientId: 'V1:u:g:AA' });
  });

  it('still reads the Client ID when only the secret half is broken, so that CRED-01 is judged even when CRED-02 fails', () => {
    const secretNotBase64 = `Basic ${encodeBase64Utf8(`${encodeBase64Utf8('V1:u:g:AA')}:not base64!`)}`;
    expect(readCred02(secretNotBase64)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.inner-layer' }, clientId: 'V1:u:g:AA' });
    const header = basicAuthorization({ userid: 'u', group: 'g', domain: 'AA', password: 'right' });
    expect(readCred02(header, 'wrong')).toMatchObject({ ok: false, clientId: 'V1:u:g:AA' });
  });
});

describe('CRED-01 and CRED-04 judges (the client suite and observe)', () => {
  const account = { epr: 'us:er', pcc: 'TR1C', restDomain: 'AA' };

  it('find nothing in the Client ID of the account, with its domain or, when none is configured, any one', () => {
    expect(cred01Problems('V1:us:er:TR1C:AA', account)).toEqual([]);
    expect(cred01Problems('V1:us:er:TR1C:XY', { epr: 'us:er', pcc: 'TR1C' })).toEqual([]);
    expect(cred01Problems('V1:someone:else:AA')).toEqual([]);
    expect(cred04Problem('V1:us:er:TR1C:AA')).toBeUndefined();
  });

  it('accept the iPCC or organization of the account in the group element, where the target config declares them', () => {
    const withIpcc = { ...account, groupAlternatives: ['7TZA'] };
    expect(cred01Problems('V1:us:er:7TZA:AA', withIpcc)).toEqual([]);
    expect(cred01Problems('V1:us:er:7TZA:AA', account).map((p) => p.clause)).toEqual(['CRED-01.fields']);
    expect(cred01Problems('V1:us:er:OTHER:AA', withIpcc).map((p) => p.clause)).toEqual(['CRED-01.fields']);
  });

  it('name a Client ID without V1, one of other fields, and a domain that is not the default AA', () => {
    expect(cred01Problems('us:er:TR1C:AA', account).map((p) => [p.clause, p.actual])).toEqual([
      ['CRED-01.v1-literal', 'us:er:TR1C:AA'],
      ['CRED-01.fields', 'us:er:TR1C:AA'],
    ]);
    expect(cred01Problems('V1:TR1C:us:er:AA', account)).toEqual([
      { clause: 'CRED-01.fields', message: 'the Client ID is not V1:<EPR>:<PCC>:<domain> of the account', expected: 'V1:us:er:TR1C:AA', actual: 'V1:TR1C:us:er:AA' },
    ]);
    // With no domain configured, the domain is one field: more fields are not the account's.
    expect(cred01Problems('V1:us:er:TR1C:A:A', { epr: 'us:er', pcc: 'TR1C' })[0]).toMatchObject({ clause: 'CRED-01.fields', expected: 'V1:us:er:TR1C:<domain>' });
    expect(cred04Problem('V1:us:er:TR1C:DEFAULT')).toEqual({ clause: 'CRED-04.default-domain', message: 'with no domain configured, the Client ID does not use the default domain AA', expected: 'AA', actual: 'DEFAULT' });
    // A side may mask the account's values in what the judge shows.
    expect(cred01Problems('V1:x:TR1C:AA', account, (text) => text.replaceAll('TR1C', '<pcc>'))[0]).toMatchObject({ expected: 'V1:us:er:<pcc>:AA', actual: 'V1:x:<pcc>:AA' });
  });
});

describe('REST-01 judge (the client suite and observe)', () => {
  const ok = { method: 'POST', path: '/v2/auth/token', headers: { 'content-type': 'Application/x-www-form-urlencoded; charset=UTF-8' }, body: 'grant_type=client_credentials&source_ip=10.0.0.1' };

  it('finds nothing in the document\'s token request, behind a base path when none is known', () => {
    expect(rest01Problems(ok, '')).toEqual([]);
    expect(rest01Problems({ ...ok, path: '/api/v2/auth/token' })).toEqual([]);
    expect(rest01Problems({ ...ok, path: '/api/v2/auth/token' }, '/api')).toEqual([]);
  });

  it('names the method or path, the content type and the grant type', () => {
    expect(rest01Problems({ ...ok, path: '/v2/auth/token/' }).map((p) => [p.clause, p.actual])).toEqual([['REST-01.method-path', 'POST /v2/auth/token/']]);
    expect(rest01Problems({ ...ok, path: '/api/v2/auth/token' }, '')[0]).toMatchObject({ clause: 'REST-01.method-path', expected: 'POST /v2/auth/token' });
    expect(rest01Problems({ method: 'GET', path: '/v2/auth/token', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"client_credentials"}' }).map((p) => [p.clause, p.expected, p.actual])).toEqual([
      ['REST-01.method-path', 'POST /v2/auth/token', 'GET /v2/auth/token'],
      ['REST-01.content-type', 'application/x-www-form-urlencoded', 'application/json'],
      ['REST-01.grant-type', 'grant_type=client_credentials', '{"grant_type":"client_credentials"}'],
    ]);
    expect(rest01Problems({ ...ok, headers: {}, body: '' }).map((p) => p.actual)).toEqual(['(none)', '(empty body)']);
  });
});

function closeRequest(options: { conversationId?: string; cpaId?: string; token?: string; body?: boolean } = {}): ParsedEnvelope {
  const header = makeRequestHeader({ action: 'SessionCloseRQ', cpaId: options.cpaId ?? 'Z2NL', conversationId: options.conversationId ?? 'conv-1', messageId: 'm-1', now: new Date(0) });
  const xml = buildRequest({
    header,
    security: options.token === undefined ? { kind: 'binarySecurityToken', token: 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/ACPCRTC!ICESMSLB\\/CRT.LB!-1' } : { kind: 'binarySecurityToken', token: options.token },
    body: sessionCloseRQBody({ pseudoCityCode: 'Z2NL', timeStamp: '2026-11-24T00:00:00Z' }),
  });
  const parsed = parseEnvelope(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.envelope;
}

describe('SESS-05 judges (the client suite and observe)', () => {
  it('find nothing in the document\'s SessionCloseRQ', () => {
    const close = closeRequest();
    expect(sess05HeaderProblem(close, { is: true })).toBeUndefined();
    expect(sess05HeaderProblem(close, { is: undefined })).toBeUndefined();
    expect(sess05BodyProblem(close)).toBeUndefined();
  });

  it('say what the header lacks, and that a token not the session\'s is not the session token', () => {
    expect(sess05HeaderProblem(closeRequest({ conversationId: '' }), { is: true })?.message).toBe('SessionCloseRQ carries no eb:ConversationId');
    expect(sess05HeaderProblem(closeRequest({ cpaId: '' }), { is: true })?.message).toBe('SessionCloseRQ carries no eb:CPAId');
    expect(sess05HeaderProblem(closeRequest(), { is: false, carried: 'a sessionless token' })).toMatchObject({ clause: 'SESS-05.header', actual: 'a sessionless token' });
  });
});

describe('ERR-06 judges (the client suite and observe)', () => {
  const sent = serviceSaid(JSON.stringify({ error: 'invalid_client', error_description: 'Credentials are missing or the syntax is not correct' }), 401);

  it('keeps-error: finds nothing when the client reports the service\'s code and description (and status, if it gives one)', () => {
    expect(sent).toEqual({ status: 401, error: 'invalid_client', description: 'Credentials are missing or the syntax is not correct' });
    expect(err06KeepsProblem(sent, { kind: 'auth', code: 'invalid_client', description: sent.description })).toBeUndefined();
    expect(err06KeepsProblem(sent, { kind: 'auth', code: 'invalid_client', description: sent.description, status: 401 })).toBeUndefined();
  });

  it('keeps-error: names a call that succeeded, an error that is no client error, and one that loses what was sent', () => {
    expect(err06KeepsProblem(sent, undefined)).toMatchObject({ clause: 'ERR-06.keeps-error', expected: 'an auth error with code "invalid_client"', actual: 'success' });
    expect(err06KeepsProblem(sent, 'Error: boom')).toMatchObject({ clause: 'ERR-06.keeps-error', actual: 'Error: boom' });
    expect(err06KeepsProblem(sent, { kind: 'generic', code: 'error', description: 'failed', status: 500 })).toEqual({
      clause: 'ERR-06.keeps-error',
      message: 'the client\'s error does not keep what the service sent (HTTP 401, error "invalid_client")',
      expected: JSON.stringify({ kind: 'auth', code: 'invalid_client', description: sent.description, status: 401 }),
      actual: JSON.stringify({ kind: 'generic', code: 'error', description: 'failed', status: 500 }),
    });
    expect(serviceSaid('not json', 401)).toEqual({ status: 401, error: undefined, description: undefined });
  });

  it('no-retry-loop: one retry is none, a third request is a loop', () => {
    expect(err06LoopProblem(1)).toBeUndefined();
    expect(err06LoopProblem(2)).toBeUndefined();
    expect(err06LoopProblem(3)).toEqual({ clause: 'ERR-06.no-retry-loop', message: 'the client retried invalid_client in a loop', expected: 'at most 2 token requests', actual: '3 token requests' });
  });
});

describe('ERR-02.distinguishable judge (against the ERR-01 answers of the same run)', () => {
  const err01 = [
    { ...serviceSaid('{"error":"invalid_client","error_description":"Credentials are missing or the syntax is not correct"}', 401), what: 'no Authorization header' },
    { ...serviceSaid('<html>401</html>', 401), what: 'one layer of base64' },
  ];
  it('finds nothing when the answer differs from every ERR-01 answer in its status, error or description', () => {
    expect(err02DistinguishableProblem(serviceSaid('{"error":"invalid_client","error_description":"Wrong clientID or clientSecret"}', 401), err01)).toBeUndefined();
    expect(err02DistinguishableProblem(serviceSaid('{"error":"invalid_client","error_description":"Credentials are missing or the syntax is not correct"}', 400), err01)).toBeUndefined();
  });
  it('fails an answer equal to an ERR-01 answer in status, error and description, whatever its words', () => {
    const uniform = '{"error":"invalid_client","error_description":"Client authentication failed"}';
    const p = err02DistinguishableProblem(serviceSaid(uniform, 401), [{ ...serviceSaid(uniform, 401), what: 'no Authorization header' }]);
    expect(p?.clause).toBe('ERR-02.distinguishable');
    expect(p?.message).toContain('cannot be told from the answer to no Authorization header');
    expect(p?.actual).toBe('HTTP 401, error "invalid_client", error_description "Client authentication failed"');
  });
});
