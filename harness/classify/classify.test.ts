import { describe, expect, it } from 'vitest';
import { buildResponse, parseEnvelope, specFaultBody, faultBody, tokenCreateRSBody } from '../soap/index.ts';
import { classifyRest, classifySoap, isTokenRefusal, withFaultCodes } from './index.ts';

const replyTo = { conversationId: 'c1', messageId: 'm1', cpaId: 'AB12', from: 'client', to: 'service', version: '2.0.0' as const };

function answer(body: ReturnType<typeof tokenCreateRSBody>, status = 500) {
  const xml = buildResponse({ header: { inReplyTo: replyTo, action: 'ErrorRS', messageId: '1', timestamp: new Date(0) }, security: { kind: 'empty' }, body });
  const parsed = parseEnvelope(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  return { status, envelope: parsed.envelope };
}

const fault = (faultcode: string, faultstring = 'x', stackTrace?: string) => answer(faultBody({ faultcode: faultcode.replace(/^[^:]*:/, ''), faultstring, ...(stackTrace && { stackTrace }) }));

describe('classifySoap', () => {
  it('reads an envelope without a fault as a success', () => {
    expect(classifySoap(answer(tokenCreateRSBody(), 200))).toEqual({ kind: 'success', action: 'ErrorRS' });
  });

  it('reads the document\'s and the public fault codes, whatever the prefix', () => {
    expect(classifySoap(answer(specFaultBody('invalidSecurityToken', 'T1'))).kind).toBe('refused');
    expect(classifySoap(answer(specFaultBody('authenticationFailed')))).toMatchObject({ kind: 'refused', why: 'authentication' });
    expect(classifySoap(answer(specFaultBody('reachedTALimit')))).toMatchObject({ kind: 'pool-full', code: 'Client.ReachedTALimit' });
    expect(classifySoap(fault('SOAP-ENV:Client.InvalidSecurityToken'))).toMatchObject({ kind: 'refused', why: 'invalid-token' });
  });

  it('never reads a fault it does not know as a refusal', () => {
    expect(classifySoap(fault('soap-env:Client.Validation', 'the request is not valid'))).toMatchObject({ kind: 'other-fault', code: 'Client.Validation' });
    expect(classifySoap(fault('soap-env:Server.Exception', 'boom'))).toMatchObject({ kind: 'other-fault' });
  });

  it('reads a fault about an unknown action as such', () => {
    expect(classifySoap(fault('soap-env:Client.InvalidAction', 'unsupported'))).toMatchObject({ kind: 'unknown-action', code: 'Client.InvalidAction' });
    expect(classifySoap(fault('soap-env:Client.Error', 'Unknown action FooRQ'))).toMatchObject({ kind: 'unknown-action' });
  });

  it('falls back on the service\'s StackTrace markers', () => {
    expect(classifySoap(fault('soap-env:Client.Other', 'x', 'SessionException: errors.session.USG_INVALID_SECURITY_TOKEN'))).toMatchObject({ kind: 'refused', why: 'invalid-token' });
    expect(classifySoap(fault('soap-env:Client.Other', 'x', 'errors.session.USG_RESOURCE_UNAVAILABLE'))).toMatchObject({ kind: 'pool-full' });
  });

  it('takes a target\'s own codes', () => {
    const codes = withFaultCodes({ notAuthorized: ['Client.NoAccess'], poolFull: ['Client.TooManySessions'] });
    expect(classifySoap(fault('soap-env:Client.NoAccess'), codes)).toMatchObject({ kind: 'refused', why: 'not-authorized' });
    expect(classifySoap(fault('soap-env:Client.TooManySessions'), codes)).toMatchObject({ kind: 'pool-full' });
  });

  it('says when the answer is not SOAP', () => {
    expect(classifySoap({ status: 502, envelope: undefined, parseError: 'not-well-formed: <html>' })).toEqual({ kind: 'not-soap', status: 502, reason: 'not-well-formed: <html>' });
  });
});

describe('classifyRest', () => {
  it('counts only 401 and 403 as a refusal of the token', () => {
    expect([200, 204, 401, 403, 400, 404, 405, 429, 500, 302].map((s) => classifyRest(s).kind)).toEqual([
      'success', 'success', 'refused', 'forbidden', 'rejected', 'not-found', 'not-found', 'rate-limited', 'server-error', 'unexpected',
    ]);
    expect([401, 403, 400, 404, 500].map((s) => isTokenRefusal(classifyRest(s)))).toEqual([true, true, false, false, false]);
  });
});
