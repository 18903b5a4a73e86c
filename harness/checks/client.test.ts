import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientError } from '../clients/protocol.ts';
import { PACKAGE_ROOT } from '../package-info.ts';
import type { SimEvent } from '../sim/index.ts';
import { bearerRefusal, callRefusal, ConfigurationRefused, explainFailure, sessionsLeftOpen, tokenRefusal } from './client.ts';
import { CheckFailure } from './failure.ts';
import { PrerequisiteFailed } from './errors.ts';

let seq = 0;
const event = (e: Partial<SimEvent>): SimEvent => ({
  seq: ++seq, at: 0, env: 'cert', protocol: 'rest', method: 'POST', path: '/v2/auth/token', headers: {}, body: '', status: 200, outcome: 'token-issued', ...e,
});
const refusedToken = (outcome: SimEvent['outcome'], description: string) =>
  event({ status: 401, outcome, answer: JSON.stringify({ error: 'invalid_client', error_description: description }) });
const soapFault = readFileSync(join(PACKAGE_ROOT, 'fixtures/envelopes/valid/response-fault-authentication-failed.xml'), 'utf8');

describe('tokenRefusal (client checks that need a token)', () => {
  it('names CRED-02 first for refused credential syntax, quoting what the service said', () => {
    expect(tokenRefusal([refusedToken('token-refused-syntax', 'Credentials are missing or the syntax is not correct')])).toEqual({
      after: ['CRED-02', 'CRED-01'],
      reason: 'the service refused the client\'s 1 token request(s) (a refusal (HTTP 401), error "invalid_client": "Credentials are missing or the syntax is not correct"), so the client held no token to check this rule with (see CRED-02, CRED-01)',
    });
  });

  it('names CRED-01 first for refused credentials, and REST-01 for a refused request', () => {
    expect(tokenRefusal([refusedToken('token-refused-credentials', 'Wrong clientID or clientSecret')])?.after).toEqual(['CRED-01', 'CRED-02']);
    expect(tokenRefusal([event({ status: 400, outcome: 'token-refused-request', answer: '{"error":"unsupported_grant_type"}' })])?.after).toEqual(['REST-01']);
  });

  it('is nothing when a token was issued, or when no token request was refused', () => {
    expect(tokenRefusal([refusedToken('token-refused-syntax', 'x'), event({ tokenIssued: 'T1RLAQtoken' })])).toBeUndefined();
    expect(tokenRefusal([event({ path: '/v1/lists/supported/shop/themes', method: 'GET', status: 401, outcome: 'api-refused-token' })])).toBeUndefined();
  });

  it('names REST-01 when the token endpoint did not answer the token request as one (wrong path, trailing slash)', () => {
    const slash = event({ path: '/v2/auth/token/', status: 404, outcome: 'not-found', headers: { authorization: 'Basic abc' } });
    expect(tokenRefusal([slash])).toEqual({
      after: ['REST-01'],
      reason: 'the client sent its token request as POST /v2/auth/token/, which the token endpoint did not answer (HTTP 404, not-found), so it held no token to check this rule with (see REST-01)',
    });
    expect(tokenRefusal([event({ path: '/v2/oauth/token', status: 404, outcome: 'not-found', body: 'grant_type=client_credentials' })])?.after).toEqual(['REST-01']);
    expect(tokenRefusal([event({ status: 0, outcome: 'no-answer' })])).toBeUndefined();
  });

  it('reads a SOAP token-creating request as refused only when harness/classify says so (SOAP-03)', () => {
    const soap = (answer: string) => event({ protocol: 'soap', path: '/websvc', action: 'TokenCreateRQ', status: 500, outcome: 'soap-fault', answer });
    expect(tokenRefusal([soap(soapFault)])?.after).toEqual(['SOAP-03']);
    expect(tokenRefusal([soap('<html>busy</html>')])).toBeUndefined();
  });
});

describe('bearerRefusal (API calls refused for their Authorization header)', () => {
  const api = (authorization: string, outcome: SimEvent['outcome']) => event({ method: 'GET', path: '/v1/lists/supported/shop/themes', headers: { authorization }, status: outcome === 'api-ok' ? 200 : 401, outcome });

  it('names API-03 when every API call was refused and one carried a header that is not "Bearer <token>"', () => {
    expect(bearerRefusal([event({ tokenIssued: 'T1' }), api('BearerT1', 'api-refused-token')])).toEqual({
      after: ['API-03'],
      reason: 'the service refused the client\'s 1 API call(s) whose Authorization header is not "Bearer <token>" and accepted none, so the client\'s use of its token could not be seen (see API-03)',
    });
  });

  it('is nothing when an API call was accepted, or the refused calls carried a well-formed header with an issued token', () => {
    expect(bearerRefusal([api('BearerT1', 'api-refused-token'), api('Bearer T1', 'api-ok')])).toBeUndefined();
    expect(bearerRefusal([event({ tokenIssued: 'T1' }), { ...api('Bearer T1', 'api-refused-token'), tokenUsed: 'T1' }])).toBeUndefined();
  });

  it('names API-03 when every API call was refused and one carried a token the service never issued (altered by the client)', () => {
    const altered = { ...api('Bearer t1', 'api-refused-token'), tokenUsed: 't1' };
    expect(bearerRefusal([event({ tokenIssued: 'T1' }), altered])).toEqual({
      after: ['API-03'],
      reason: 'the service refused the client\'s 1 API call(s) whose bearer token is not one it issued and accepted none, so the client\'s use of its token could not be seen (see API-03)',
    });
    // The tokens issued are read from the history when given (a token of an earlier window).
    expect(bearerRefusal([{ ...api('Bearer T1', 'api-refused-token'), tokenUsed: 'T1' }], [event({ tokenIssued: 'T1' })])).toBeUndefined();
  });
});

describe('callRefusal (SOAP calls refused for what another rule judges)', () => {
  const envelope = (name: string) => readFileSync(join(PACKAGE_ROOT, 'fixtures/envelopes/valid', name), 'utf8');
  const ping = envelope('request-ping.xml');
  const pingToken = /<wsse:BinarySecurityToken>([^<]+)</.exec(ping)![1]!;
  const invalidToken = envelope('response-fault-invalid-security-token.xml');
  const soapEvent = (e: Partial<SimEvent>) => event({ protocol: 'soap', path: '/websvc', status: 500, outcome: 'soap-fault', ...e });
  const unknownAction = invalidToken.replace(/<faultcode>[^<]*<\/faultcode><faultstring>[^<]*<\/faultstring>/, '<faultcode>soap-env:Client.InvalidEbXmlMessage</faultcode><faultstring>Unknown action OTA</faultstring>').replace('USG_INVALID_SECURITY_TOKEN', 'USG_UNKNOWN_ACTION');

  it('names SOAP-04 for an action the service does not know', () => {
    expect(callRefusal([soapEvent({ action: 'OTA', body: ping, answer: unknownAction })])?.after).toEqual(['SOAP-04']);
  });

  it('names SOAP-04 for a refused token only when the call carried no issued token in wsse:BinarySecurityToken', () => {
    const refused = soapEvent({ action: 'OTA_PingRQ', body: ping, answer: invalidToken });
    expect(callRefusal([refused])).toMatchObject({ after: ['SOAP-04'], reason: expect.stringContaining('which carried no token the service issued in wsse:BinarySecurityToken (binarySecurityToken)') });
    // The token was issued (and then refused: expired, revoked): another rule's matter, no explanation here.
    const issued = soapEvent({ action: 'SessionCreateRQ', status: 200, outcome: 'soap-ok', tokenKind: 'session', tokenIssued: pingToken });
    expect(callRefusal([refused], [issued, refused])).toBeUndefined();
  });

  it('names SESS-06 for a full pool only while sessions the client opened before are still open', () => {
    const opened = soapEvent({ action: 'SessionCreateRQ', status: 200, outcome: 'soap-ok', tokenKind: 'session', tokenIssued: 'S1' });
    const closed = soapEvent({ action: 'SessionCloseRQ', status: 200, outcome: 'soap-ok', tokenUsed: 'S1' });
    const full = soapEvent({ action: 'SessionCreateRQ', answer: envelope('response-fault-reached-ta-limit-no-security.xml') });
    expect(callRefusal([full], [opened, full])?.after).toEqual(['SESS-06']);
    expect(sessionsLeftOpen([opened, closed])).toEqual([]);
    expect(callRefusal([full], [opened, closed, full])).toBeUndefined();
  });

  it('names SOAP-03 when the op ended on a token request refused for its credentials, though a REST token was issued', () => {
    const restToken = event({ tokenIssued: 'T1RLAQrest' });
    const refusedCreate = soapEvent({ action: 'TokenCreateRQ', answer: soapFault });
    expect(callRefusal([restToken, refusedCreate])).toMatchObject({ after: ['SOAP-03'], reason: expect.stringContaining('TokenCreateRQ') });
    // A refused token request the op got past (a later SOAP call went through) explains nothing.
    const later = soapEvent({ action: 'OTA_PingRQ', status: 200, outcome: 'soap-ok' });
    expect(callRefusal([restToken, refusedCreate, later])).toBeUndefined();
  });
});

describe('explainFailure', () => {
  const refused = [refusedToken('token-refused-syntax', 'Credentials are missing or the syntax is not correct')];

  it('turns any failure of a check that needs a token into a skip naming the rule, when the token was refused', () => {
    const explained = explainFailure(new CheckFailure('the client made fewer API calls than asked'), refused, 'token');
    expect(explained).toBeInstanceOf(PrerequisiteFailed);
    expect((explained as PrerequisiteFailed).after).toEqual(['CRED-02', 'CRED-01']);
  });

  it('skips a check that needs a token after API-03 when its calls were refused for their header, but not API-03\'s own check', () => {
    const malformed = [event({ tokenIssued: 'T1' }), event({ method: 'GET', path: '/v1/lists/supported/shop/themes', headers: { authorization: 'BearerT1' }, status: 401, outcome: 'api-refused-token' })];
    const failure = new CheckFailure('unexpected token requests');
    expect((explainFailure(failure, malformed, 'token', ['API-04']) as PrerequisiteFailed).after).toEqual(['API-03']);
    expect(explainFailure(failure, malformed, 'token', ['API-03'])).toBe(failure);
  });

  it('turns a client error into a fail that quotes it, when the token was not the matter', () => {
    const explained = explainFailure(new ClientError({ kind: 'protocol', message: 'boom', code: 'X' }), [], 'token');
    expect(explained).toBeInstanceOf(CheckFailure);
    expect(explained).toMatchObject({ code: 'CLIENT_OPERATION_FAILED', message: 'the client failed an operation the check asked for (error kind "protocol"): boom', actual: '{"kind":"protocol","message":"boom","code":"X"}' });
  });

  it('leaves prerequisites, unsupported ops and checks that need no token alone', () => {
    const refusal = new ConfigurationRefused('protocol', 'bad id');
    expect(explainFailure(refusal, refused, 'token')).toBe(refusal);
    expect(refusal.after).toEqual(['CRED-02', 'CRED-01']);
    const unsupported = new ClientError({ kind: 'unsupported', message: '' });
    expect(explainFailure(unsupported, [], undefined)).toBe(unsupported);
    const failure = new CheckFailure('x');
    expect(explainFailure(failure, refused, undefined)).toBe(failure);
  });
});
