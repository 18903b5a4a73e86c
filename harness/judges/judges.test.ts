import { describe, expect, it } from 'vitest';
import { basicAuthorization, encodeBase64Utf8 } from '../credentials/index.ts';
import { buildRequest, makeRequestHeader, parseEnvelope, sessionCloseRQBody, type ParsedEnvelope } from '../soap/index.ts';
import { isJsonContentType, readCred02, rest03Problems, rest05Problems, sess05BodyProblem, sess05HeaderProblem } from './index.ts';

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
  });

  it('names the scheme (strict: one space after Basic), the outer or the inner layer', () => {
    const single = `Basic ${encodeBase64Utf8('V1:u:g:AA:secret')}`;
    expect(readCred02(undefined)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme', actual: '(no header)' } });
    expect(readCred02('Basic  abc')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme' } });
    expect(readCred02('Bearer abc')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.basic-scheme', actual: 'Bearer …' } });
    expect(readCred02('Basic %%%')).toMatchObject({ ok: false, problem: { clause: 'CRED-02.outer-layer' } });
    expect(readCred02(single)).toMatchObject({ ok: false, problem: { clause: 'CRED-02.inner-layer' } });
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
