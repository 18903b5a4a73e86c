import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../credentials/index.ts';
import type { Report } from '../report/model.ts';
import { DEFAULT_PROFILE, profileFaultCodes, profileWith, type LatitudeProfile } from '../sim/latitude.ts';
import { buildRequest, makeRequestHeader, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody, usernameToken, actionBody, type RequestSecurity, type SoapBody } from '../soap/index.ts';
import { withFaultCodes } from '../classify/index.ts';
import { ManualClock } from '../sim/clock.ts';
import { SimCore, SOAP_PATH } from '../sim/core.ts';
import { defaultAccounts } from '../sim/default-accounts.ts';
import { buildClientId, encodeCredentials } from '../credentials/index.ts';
import type { HttpRequest } from '../targets/index.ts';
import { compareProbes, fidelityOf, soapAspects } from './calibrate.ts';
import { FactCollector } from './facts.ts';
import { learnProfile } from './learn.ts';
import { parseLearnedProfile, ProfileFileError, standIn } from './serve.ts';
import { PROFILE_SCHEMA } from './types.ts';

const BASE = 'https://api.example.test';
const SOAP = 'https://ws.example.test/websvc';
const good = basicAuthorization({ userid: 'U1', group: 'G1', domain: 'AA', password: 'pw-secret' });
const answer = (status: number, body: string, type = 'application/json', extra: Record<string, string> = {}) => ({ status, headers: { 'content-type': type, ...extra }, body, durationMs: 3 });
const report = (rules: { id: string; status: string; side?: string; checks?: unknown[] }[] = []): Pick<Report, 'rules' | 'throttling'> =>
  ({ rules: rules.map((r) => ({ side: 'service', checks: [], ...r })) }) as unknown as Pick<Report, 'rules' | 'throttling'>;

function collected() {
  const c = new FactCollector([SOAP]);
  const tokenReq = (authorization: string | undefined, body = 'grant_type=client_credentials') => ({
    method: 'POST', url: `${BASE}/v2/auth/token`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization && { authorization }) }, body,
  });
  for (let i = 0; i < 5; i++) {
    c.observe(tokenReq(good), answer(200, JSON.stringify({ access_token: `AcmE${String(i).repeat(20)}Z`, token_type: 'bearer', expires_in: 604800 }), 'application/json', { 'x-trace': `${i}` }));
  }
  c.observe(tokenReq(undefined), answer(401, '{"error":"invalid_client","error_description":"Request rejected"}'));
  c.observe(tokenReq(basicAuthorization({ userid: 'U1', group: 'G1', domain: 'AA', password: 'nope' })), answer(401, '{"error":"invalid_client","error_description":"Bad secret for USER77"}'));
  c.observe(tokenReq(good, 'grant_type=password'), answer(415, '{"error":"invalid_grant","error_description":"x"}'));
  c.observe({ method: 'GET', url: `${BASE}/v1/x`, headers: { authorization: 'Bearer nope' } }, answer(403, ''));
  return c;
}

describe('learning a profile from what a target showed', () => {
  it('reads each latitude\'s value from the answers, and says why for every one it did not see', () => {
    const learned = learnProfile(collected().facts, { target: 't', tool: '0', report: report(), accountValues: ['USER77', 'G1X'] });
    expect(learned.values).toMatchObject({
      tokenShape: { kind: 'chars', prefix: 'AcmE', suffix: 'Z', length: 25 },
      jsonContentType: 'application/json', extraHeaders: ['x-trace'], wrongClientDescription: 'Bad secret for «account»',
      otherTokenErrorStatus: 415, otherTokenErrorCode: 'invalid_grant', apiRefusalStatus: 403, apiRefusalBody: 'empty',
    });
    // "Request rejected" does not say the credentials are missing or malformed (ERR-01): a deviation, not the
    // target's style, which the conforming stand-in does not copy.
    expect(learned.values.syntaxDescription).toBeUndefined();
    expect(learned.latitudes['soap-prefixes']).toEqual({ observed: false, reason: 'not seen: no SOAP answer showed it' });
    expect(learned.latitudes['error-description-wording']).toEqual({ observed: true, fields: ['wrongClientDescription'], unobservedFields: ['syntaxDescription'] });
    expect(learned.latitudes['pool-size']).toMatchObject({ observed: false });
    expect(learned.tokens).toEqual({ lengths: { min: 25, max: 25 }, samples: 5 });
    // No token, password or account value anywhere in the profile.
    const text = JSON.stringify(learned);
    expect(text).not.toMatch(/AcmE0{20}|pw-secret|USER77/);
  });

  it('ties API-02\'s and SESS-02\'s deviations to their defects by what the failing checks say', () => {
    const failed = (id: string, ...messages: string[]) => ({ id, status: 'fail', checks: messages.map((message) => ({ status: 'fail', message })) });
    const learned = (...rules: ReturnType<typeof failed>[]) => learnProfile(collected().facts, { target: 't', tool: '0', report: report(rules) }).deviations.map((d) => d.defect);
    expect(learned(failed('API-02', 'an API request with a tampered token (one character changed) was accepted'))).toEqual(['api02-unknown-token-accepted']);
    // A missing header accepted too is more than that defect makes: listed, not reproduced.
    expect(learned(failed('API-02', 'an API request with a tampered token (one character changed) was accepted', 'an API request with no Authorization header was accepted'))).toEqual([undefined]);
    expect(learned(failed('SESS-02', 'OTA_PingRQ with the token of the closed session was accepted', 'SessionCreateRQ was refused after a session of the full pool was closed'))).toEqual(['sess02-close-keeps-token']);
    expect(learned(failed('SESS-02', 'OTA_HotelAvailLLSRQ with the token of the closed session (accepted before the close) was accepted'))).toEqual(['sess02-closed-token-serves-business']);
    expect(learned(failed('SESS-02', 'SessionCreateRQ was refused after a session of the full pool was closed', 'the service left the state table at: create'))).toEqual(['sess02-close-keeps-slot']);
    expect(learned(failed('SESS-02', 'SessionCreateRQ number 3 was refused as the pool is full, and again after this check closed one of the sessions it held (the service confirmed the close): closed sessions keep their slots (SESS-02: closing a session releases its pool slot)'))).toEqual(['sess02-close-keeps-slot']);
    expect(learned(failed('SESS-02', 'SessionCloseRQ with ConversationId, CPAId and the token of an open session was refused'))).toEqual([undefined]);
  });

  it('learns throttling and a gateway\'s errors from the run\'s counts, and says why when there are none', () => {
    const throttled = (gatewayResent?: Record<string, number>) => ({ ...report(), throttling: { throttled: 2, waitedMs: 0, statuses: { '429': 2 }, retryAfter: [], endIntervalMs: 0, gaveUp: 0, ...(gatewayResent && { gatewayResent }) } });
    const values = (r: Pick<Report, 'rules' | 'throttling'>) => learnProfile(collected().facts, { target: 't', tool: '0', report: r }).values;
    expect([values(throttled({ '504': 3 })).throttle, values(throttled({ '504': 3 })).gatewayErrors]).toEqual(['429', '504']);
    expect(values(throttled({ '502': 2, '504': 1 })).gatewayErrors).toBe('502');
    expect(values(throttled()).gatewayErrors).toBe('none');
    const unseen = learnProfile(collected().facts, { target: 't', tool: '0', report: report() });
    expect([unseen.values.gatewayErrors, unseen.latitudes['gateway-errors']]).toEqual([undefined, { observed: false, reason: 'the run kept no throttling counts' }]);
  });

  it('ties a deviation to its rule and to the simulator\'s defect that makes it, only where the run broke that rule', () => {
    const c = new FactCollector([SOAP]);
    for (let i = 0; i < 4; i++) c.observe({ method: 'POST', url: `${BASE}/v2/auth/token`, headers: { authorization: good, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }, answer(200, `{"access_token":"t${i}xxxxxxxxxxxxxxxx","token_type":"Bearer","expires_in":604800}`));
    expect(learnProfile(c.facts, { target: 't', tool: '0', report: report([{ id: 'REST-03', status: 'pass' }]) }).deviations).toEqual([]);
    const broken = learnProfile(c.facts, { target: 't', tool: '0', report: report([{ id: 'REST-03', status: 'fail' }, { id: 'ERR-07', status: 'warn', checks: [{ status: 'warn', message: 'a hang' }] }]) });
    expect(broken.deviations).toEqual([
      { rule: 'REST-03', status: 'fail', observed: 'token_type "Bearer"', defect: 'rest03-token-type-capitalized' },
      { rule: 'ERR-07', status: 'warn', observed: 'a hang' },
    ]);
    expect(standIn(broken, { withDeviations: true }).defects).toEqual(['rest03-token-type-capitalized']);
    expect(standIn(broken).defects).toEqual([]);
  });
});

/** The simulator under `profile`, its answers to the exchanges a live run sends fed to a FactCollector: the learned profile. */
function learnedFromSim(profile: LatitudeProfile) {
  const accounts = defaultAccounts(5, { poolSize: profile.poolSize, sessionTimeoutSeconds: profile.sessionTimeoutSeconds });
  const core = new SimCore({ clock: new ManualClock(Date.UTC(2026, 0, 1)), accounts: accounts.accounts, seed: 5, profile });
  const main = accounts.main.cert;
  const c = new FactCollector([`${BASE}${SOAP_PATH}`], withFaultCodes(profileFaultCodes(profile)));
  const send = (req: HttpRequest) => {
    const url = new URL(req.url);
    const r = core.handle({ env: 'cert', method: req.method, path: url.pathname, query: '', headers: Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])), body: req.body ?? '' });
    if (r.kind !== 'response') throw new Error(r.kind);
    const res = { status: r.status, headers: r.headers, body: r.body, durationMs: 1 };
    c.observe(req, res);
    return res;
  };
  const authorization = `Basic ${encodeCredentials(buildClientId({ userid: main.epr, group: main.pcc, domain: main.restDomain }), main.password)}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  for (const body of ['grant_type=client_credentials', 'grant_type=client_credentials&source_ip=203.0.113.7']) send({ method: 'POST', url: `${BASE}/v2/auth/token`, headers: { ...form, authorization }, body });
  let n = 0;
  const soap = (action: string, security: RequestSecurity, body: SoapBody = actionBody(action)) => send({
    method: 'POST', url: `${BASE}${SOAP_PATH}`, headers: { 'content-type': 'text/xml' },
    body: buildRequest({ header: makeRequestHeader({ action, cpaId: main.pcc, conversationId: `c-${++n}`, now: new Date(), messageId: `m-${n}` }), security, body }),
  });
  const credentials = usernameToken({ username: main.epr, password: main.password, organization: main.pcc, domain: main.soapDomain });
  soap('TokenCreateRQ', credentials, tokenCreateRQBody());
  soap('TokenCreateRQ', { kind: 'binarySecurityToken', token: 'not-a-token' }, tokenCreateRQBody());
  soap('OTA_PingRQ', { kind: 'binarySecurityToken', token: 'T1RLAQ-nobody-issued' });
  const sessions = Array.from({ length: profile.poolSize + 1 }, () => /<(?:[\w.-]+:)?BinarySecurityToken[^>]*>([^<]+)</.exec(soap('SessionCreateRQ', credentials, sessionCreateRQBody()).body)?.[1]);
  soap('SessionCloseRQ', { kind: 'binarySecurityToken', token: sessions[0]! }, sessionCloseRQBody({ pseudoCityCode: main.pcc, timeStamp: '2026-01-01T00:00:00Z' }));
  send({ method: 'POST', url: `${BASE}${SOAP_PATH}`, headers: { 'content-type': 'text/xml' }, body: 'this is not XML' });
  return learnProfile(c.facts, { target: 't', tool: '0', report: report() });
}

describe('learning the values a simulator profile plays', () => {
  const NEW = ['tokenSourceIpEcho', 'responseTimestamp', 'ebVersion', 'headerBlock', 'tokenCreateBody', 'createBody', 'closeBody', 'stackTracePlacement', 'poolFullFaultCode', 'authFaultEchoesToken', 'garbageAnswer'] as const;
  it.each([
    DEFAULT_PROFILE,
    profileWith({ tokenSourceIpEcho: true, responseTimestamp: 'utc-basic', ebVersion: '2.0', headerBlock: 'trace', tokenCreateBody: 'status', createBody: 'Version-success', closeBody: 'empty', stackTracePlacement: 'nested', poolFullFaultCode: 'Client.TransactionLimitReached', authFaultEchoesToken: true, garbageAnswer: 'http-500', poolSize: 2 }),
    profileWith({ tokenExtraFields: true, tokenSourceIpEcho: true, createBody: 'success', stackTracePlacement: 'namespaced', tokenCreateBody: 'empty', garbageAnswer: 'http-400', poolSize: 3 }),
    profileWith({ createBody: 'Version', responseTimestamp: 'utc', restTokenAnyCase: true, tokenShape: { kind: 'uuid' } }),
  ])('learns each new field as served (%#)', (profile) => {
    const learned = learnedFromSim(profile);
    for (const key of NEW) expect([key, learned.values[key]]).toEqual([key, profile[key]]);
    expect(learned.values.tokenExtraFields).toBe(profile.tokenExtraFields);
    // Never seen in a run: said why.
    expect(learned.values.restTokenAnyCase).toBeUndefined();
    expect(learned.latitudes['token-format']).toEqual({ observed: true, fields: ['tokenShape'], unobservedFields: ['restTokenAnyCase'] });
  });

  it('judges learned texts with the judges\' own tests: newer conforming wordings are kept, others are deviations', () => {
    const c = new FactCollector([SOAP]);
    const learned = learnProfile(c.facts, { target: 't', tool: '0', report: report() });
    expect(learned.values).toEqual({});
    const values = (v: Partial<LatitudeProfile>) => {
      const facts = { ...c.facts, counts: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, { [String(x)]: 1 }])) };
      return learnProfile(facts, { target: 't', tool: '0', report: report() }).values;
    };
    expect(values({ invalidTokenFaultstring: 'Security token %s is not valid or has timed out', invalidTokenStackTrace: 'SessionException: invalid binary security token' }))
      .toEqual({ invalidTokenFaultstring: 'Security token %s is not valid or has timed out', invalidTokenStackTrace: 'SessionException: invalid binary security token' });
    expect(values({ invalidTokenFaultstring: 'Token %s refused', invalidTokenStackTrace: 'SessionException' })).toEqual({});
    expect(values({ syntaxDescription: 'Authorization header not present', wrongClientDescription: 'No client found for this client ID and secret' }))
      .toEqual({ syntaxDescription: 'Authorization header not present', wrongClientDescription: 'No client found for this client ID and secret' });
    expect(values({ wrongClientDescription: 'Credentials are missing or the client ID is wrong' })).toEqual({});
    // A description that echoed the secret (redacted by then) is ERR-03's deviation, not the target's wording.
    expect(values({ wrongClientDescription: 'No client matches the given client ID and secret: «redacted»' })).toEqual({});
    // An envelope in a default namespace (no prefix) is not a prefix the simulator can write.
    expect(values({ soapEnvPrefix: '', ebPrefix: 'eb' })).toEqual({ ebPrefix: 'eb' });
  });
});

describe('reading a profile file', () => {
  const valid = { schema: PROFILE_SCHEMA, target: 't', learnedAt: '', tool: '0', values: { jsonContentType: 'application/json' }, latitudes: {}, latency: {}, deviations: [] };
  it('serves its values over the simulator\'s defaults', () => {
    expect(standIn(parseLearnedProfile(valid)).profile).toEqual({ ...DEFAULT_PROFILE, jsonContentType: 'application/json' });
  });
  it.each([
    [null, 'is not a JSON object'],
    [{ ...valid, schema: 'other' }, 'is not a profile of this tool'],
    [{ ...valid, values: { nope: 1 } }, '"values.nope" is not a freedom the simulator knows'],
    [{ ...valid, values: { faultStatus: '500' } }, '"values.faultStatus" must be a number'],
    [{ ...valid, values: { throttle: 'sometimes' } }, '"values.throttle" is "sometimes", which the simulator cannot serve'],
    [{ ...valid, deviations: undefined }, 'has no "deviations" list'],
    // Values of the right type the simulator still cannot serve (before, the server crashed on its first request).
    [{ ...valid, values: { otherTokenErrorStatus: 1000 } }, '"values.otherTokenErrorStatus" is 1000, which the simulator cannot serve: a whole number from 200 to 599'],
    [{ ...valid, values: { faultStatus: 99 } }, 'a whole number from 200 to 599'],
    [{ ...valid, values: { poolSize: -1 } }, '"values.poolSize" is -1'],
    [{ ...valid, values: { extraHeaders: ['bad header'] } }, 'a list of HTTP header names'],
    [{ ...valid, values: { extraHeaders: { a: 1 } } }, 'a list of HTTP header names'],
    [{ ...valid, values: { jsonContentType: 'application/json\r\nX-Evil: 1' } }, 'a header value (no control characters)'],
    [{ ...valid, values: { soapEnvPrefix: 'a b' } }, 'an XML prefix'],
    [{ ...valid, values: { tokenShape: { kind: 'weird' } } }, 'a token shape of kind "chars", "jwt" or "uuid"'],
    [{ ...valid, values: { tokenShape: { kind: 'chars' } } }, 'needs a prefix, a suffix, a non-empty alphabet and a length'],
    [{ ...valid, values: { tokenShape: { kind: 'chars', prefix: '', suffix: '', alphabet: '', length: 20 } } }, 'a non-empty alphabet'],
    // Hand-edited into values the conforming stand-in must not serve, or that crashed it after it listened.
    [{ ...valid, values: { syntaxDescription: 'all good, here is your token' } }, '"values.syntaxDescription" is "all good, here is your token", which breaks ERR-01'],
    [{ ...valid, values: { otherTokenErrorCode: 'banana' } }, '"values.otherTokenErrorCode" is "banana", which the simulator cannot serve'],
    [{ ...valid, values: { soapEnvPrefix: 'xmlns' } }, 'names starting with "xml" are reserved'],
    [{ ...valid, values: { faultStatus: 503 } }, 'which breaks ERR-05'],
    [{ ...valid, values: { apiRefusalStatus: 200 } }, 'which breaks API-02'],
    [{ ...valid, values: { tokenShape: { kind: 'chars', prefix: '', suffix: '', alphabet: ' \n', length: 20 } } }, 'visible ASCII'],
    [{ ...valid, values: [] }, 'has no "values"'],
    [{ ...valid, latitudes: null }, '"latitudes" must be a JSON object'],
    [{ ...valid, deviations: [null] }, '"deviations[0]" must be an object with a "rule"'],
  ])('refuses %j saying what is wrong', (value, message) => {
    expect(() => parseLearnedProfile(value, 'p.json')).toThrow(ProfileFileError);
    expect(() => parseLearnedProfile(value, 'p.json')).toThrow(message);
  });
});

describe('comparing probe answers', () => {
  it('counts the aspects of each kind that match, and shows every difference side by side', () => {
    const kinds = compareProbes(
      { token: { status: '200', 'content type': 'application/json' }, 'api-call': { status: '200' } },
      { token: { status: '200', 'content type': 'application/json;charset=UTF-8' }, 'api-call': { status: '200' } },
    );
    expect(kinds.map((k) => [k.kind, fidelityOf(k)])).toEqual([['token', 50], ['api-call', 100]]);
    expect(kinds[0]?.differences).toEqual([{ aspect: 'content type', target: 'application/json', standIn: 'application/json;charset=UTF-8' }]);
  });
});

describe('the in-process simulator (MSW) as a stand-in', () => {
  it('takes a learned profile, as a file or parsed, with or without its deviations', async () => {
    const { createSimulator } = await import('../msw.ts');
    const learned = parseLearnedProfile({
      schema: PROFILE_SCHEMA, target: 't', learnedAt: '', tool: '0', latitudes: {}, latency: {},
      values: { jsonContentType: 'application/json', poolSize: 3 },
      deviations: [{ rule: 'REST-03', status: 'fail', observed: 'token_type "Bearer"', defect: 'rest03-token-type-capitalized' }],
    });
    const plain = createSimulator({ profile: learned });
    expect([plain.core.profile.jsonContentType, plain.accounts.cert.poolSize, [...plain.core.defects]]).toEqual(['application/json', 3, []]);
    expect([...createSimulator({ profile: learned, withDeviations: true }).core.defects]).toEqual(['rest03-token-type-capitalized']);
  });
});

describe('calibrate reads the freedoms a profile holds in SOAP answers', () => {
  const answer = (body: string) => ({ status: 500, headers: { 'content-type': 'text/xml' }, body, durationMs: 1 });
  const fault = (detail: string, extra = '') => `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header><eb:MessageHeader xmlns:eb="http://www.ebxml.org/namespaces/messageHeader" eb:version="1.0"><eb:Action>ErrorRS</eb:Action></eb:MessageHeader>${extra}</soap-env:Header><soap-env:Body><soap-env:Fault><faultcode>soap-env:Client.InvalidSecurityToken</faultcode><faultstring>Invalid: x</faultstring><detail>${detail}</detail></soap-env:Fault></soap-env:Body></soap-env:Envelope>`;

  it('tells where the StackTrace sits, the header blocks and eb:version, so that a stand-in without them scores below 100', () => {
    const plain = soapAspects(answer(fault('<StackTrace>errors.session.USG_INVALID_SECURITY_TOKEN</StackTrace>')));
    const nested = soapAspects(answer(fault('<Error><StackTrace>errors.session.USG_INVALID_SECURITY_TOKEN</StackTrace></Error>', '<tr:Trace xmlns:tr="urn:trace">t</tr:Trace>')));
    const namespaced = soapAspects(answer(fault('<ns1:StackTrace xmlns:ns1="urn:x">errors.session.USG_INVALID_SECURITY_TOKEN</ns1:StackTrace>')));
    expect(plain).toMatchObject({ 'StackTrace placement': 'plain', 'header blocks': 'MessageHeader', 'eb:version': '1.0' });
    expect(nested).toMatchObject({ 'StackTrace placement': 'nested', 'header blocks': 'MessageHeader, Trace' });
    expect(namespaced['StackTrace placement']).toBe('namespaced');
  });

  it('reads the shape of a response body: its element, attribute names and children, not their values', () => {
    const ok = (body: string) => soapAspects({ ...answer(`<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/><soap-env:Body>${body}</soap-env:Body></soap-env:Envelope>`), status: 200 });
    expect(ok('<SessionCreateRS xmlns="urn:ota" version="1" status="Approved"><ConversationId>c</ConversationId></SessionCreateRS>').body).toBe('SessionCreateRS [status version] (ConversationId)');
    expect(ok('<SessionCreateRS xmlns="urn:ota" Version="1.0.0"><Success/></SessionCreateRS>').body).toBe('SessionCreateRS [Version] (Success)');
    expect(ok('').body).toBe('(empty)');
  });
});

describe('a learned token shape in the written report', () => {
  it('keeps the prefix four tokens or more shared (no token pattern cuts it), and still redacts a registered secret in it', async () => {
    const { redactReport } = await import('../report/redact-report.ts');
    const { Redactor } = await import('../report/redact.ts');
    const tokenShape = { kind: 'chars', prefix: 'T1RLAQfixedPrefix1!', suffix: '*', alphabet: 'ABC', length: 40 };
    const report = { rules: [], unmapped: [], note: 'T1RLAQsomeTokenValue', profile: { values: { tokenShape, syntaxDescription: 'T1RLAQechoedToken1' } } } as unknown as import('../report/model.ts').Report;
    const out = redactReport(report, new Redactor()) as unknown as { note: string; profile: { values: { tokenShape: { prefix: string }; syntaxDescription: string } } };
    expect(out.profile.values.tokenShape.prefix).toBe('T1RLAQfixedPrefix1!');
    expect(out.note).toBe('«redacted»');
    expect(out.profile.values.syntaxDescription).toBe('«redacted»');
    const registered = redactReport(report, new Redactor(['fixedPrefix1'])) as unknown as typeof out;
    expect(registered.profile.values.tokenShape.prefix).toBe('T1RLAQ«redacted»!');
  });
});
