import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildClientId, encodeCredentials } from '../credentials/index.ts';
import {
  actionBody, buildRequest, makeRequestHeader, parseEnvelope, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody, usernameToken, type RequestSecurity,
} from '../soap/index.ts';
import { describes, latitudes } from '../catalog/index.ts';
import { classifySoap, withFaultCodes } from '../classify/index.ts';
import { namesInvalidSecurityToken, saysInvalidOrExpired } from '../judges/soap-answers.ts';
import { ManualClock } from './clock.ts';
import { SimCore, SOAP_PATH } from './core.ts';
import { defaultAccounts } from './default-accounts.ts';
import type { SimRequest, SimResponse } from './http.ts';
import { DEFAULT_PROFILE, DESCRIPTIONS, FAULTSTRINGS, profileFaultCodes, profileWith, STACK_TRACES, type LatitudeProfile } from './latitude.ts';
import { conformingProfile } from './latitude-arbitrary.ts';
import { caseFoldable, TOKEN_SHAPES } from './token-shape.ts';

const START = Date.UTC(2026, 0, 1);

function sim(profile: LatitudeProfile) {
  const accounts = defaultAccounts(3, { poolSize: profile.poolSize, sessionTimeoutSeconds: profile.sessionTimeoutSeconds });
  const core = new SimCore({ clock: new ManualClock(START), accounts: accounts.accounts, seed: 3, profile });
  const main = accounts.main.cert;
  const rest = (headers: Record<string, string>, body = 'grant_type=client_credentials'): SimResponse =>
    core.handle({ env: 'cert', method: 'POST', path: '/v2/auth/token', query: '', headers, body });
  const good = () => `Basic ${encodeCredentials(buildClientId({ userid: main.epr, group: main.pcc, domain: main.restDomain }), main.password)}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const soap = (action: string, security: RequestSecurity, body = actionBody(action)): SimResponse => {
    const header = makeRequestHeader({ action, cpaId: main.pcc, conversationId: 'conv-1', now: new Date(START), messageId: 'mid-1' });
    const req: SimRequest = { env: 'cert', method: 'POST', path: SOAP_PATH, query: '', headers: { 'content-type': 'text/xml' }, body: buildRequest({ header, security, body }) };
    return core.handle(req);
  };
  const credentials = (password = main.password) => usernameToken({ username: main.epr, password, organization: main.pcc, domain: main.soapDomain });
  return { core, main, rest, good, form, soap, credentials };
}

const answer = (r: SimResponse) => {
  if (r.kind !== 'response') throw new Error(`no answer: ${r.kind}`);
  return r;
};

describe('latitude profiles of the simulator', () => {
  it('the default profile answers as the public service does', () => {
    const s = sim(DEFAULT_PROFILE);
    const ok = answer(s.rest({ ...s.form, authorization: s.good() }));
    expect(ok.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(Object.keys(JSON.parse(ok.body))).toEqual(['access_token', 'token_type', 'expires_in']);
    expect(JSON.parse(ok.body).access_token).toMatch(/^T1RLAQ.+\*$/);
    const created = answer(s.soap('SessionCreateRQ', s.credentials(), sessionCreateRQBody()));
    expect(created.body).toContain('<soap-env:Envelope');
    expect(created.body).toContain('valueType="String" EncodingType="wsse:Base64Binary"');
  });

  it('varies token formats, JSON fields and order, content type parameters and headers (token-format, token-extra-fields, json-content-type-parameters, extra-response-headers)', () => {
    const s = sim(profileWith({ tokenShape: TOKEN_SHAPES.hex, tokenExtraFields: true, tokenFieldOrder: 'reversed', jsonContentType: 'Application/JSON; charset=utf-8', extraHeaders: ['pragma', 'x-request-id'] }));
    const ok = answer(s.rest({ ...s.form, authorization: s.good() }));
    const body = JSON.parse(ok.body) as Record<string, unknown>;
    expect(body.access_token).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(body)).toEqual(['issued_at', 'scope', 'expires_in', 'token_type', 'access_token']);
    expect(ok.headers['content-type']).toBe('Application/JSON; charset=utf-8');
    expect(ok.headers.pragma).toBe('no-cache');
    expect(ok.headers['x-request-id']).toMatch(/^\d{12}$/);
    // Any shape: a fixed prefix and suffix around characters of one alphabet, as a learned profile names it.
    const own = sim(profileWith({ tokenShape: { kind: 'chars', prefix: 'AcmE', suffix: '.x', alphabet: '0123456789', length: 30 } }));
    expect((JSON.parse(answer(own.rest({ ...own.form, authorization: own.good() })).body) as { access_token: string }).access_token).toMatch(/^AcmE\d{24}\.x$/);
  });

  it('words the invalid_client descriptions its own way, and answers other token errors with its own status and code (error-description-wording, other-token-errors)', () => {
    const s = sim(profileWith({ syntaxDescription: DESCRIPTIONS.syntax[2], wrongClientDescription: DESCRIPTIONS.wrongClient[3], otherTokenErrorStatus: 415, otherTokenErrorCode: 'invalid_grant' }));
    expect(JSON.parse(answer(s.rest({ ...s.form })).body)).toEqual({ error: 'invalid_client', error_description: DESCRIPTIONS.syntax[2] });
    expect(JSON.parse(answer(s.rest({ ...s.form, authorization: `Basic ${encodeCredentials('V1:x:y:AA', 'nope')}` })).body).error_description).toBe(DESCRIPTIONS.wrongClient[3]);
    const grant = answer(s.rest({ ...s.form, authorization: s.good() }, 'grant_type=password'));
    expect([grant.status, JSON.parse(grant.body).error]).toEqual([415, 'invalid_grant']);
  });

  it('every listed wording states its case and not the other, as ERR-01/ERR-02 and ERR-04 read it (error-description-wording, fault-texts)', () => {
    // ERR-01 asks a syntax description to state its case (the public one reads as both); these state it alone.
    for (const d of DESCRIPTIONS.syntax) expect([d, describes(d, 'missing-or-syntax')]).toEqual([d, true]);
    for (const d of DESCRIPTIONS.syntax.slice(4)) expect([d, describes(d, 'wrong-client')]).toEqual([d, false]);
    for (const d of DESCRIPTIONS.wrongClient) expect([d, describes(d, 'wrong-client'), describes(d, 'missing-or-syntax')]).toEqual([d, true, false]);
    for (const f of FAULTSTRINGS) expect([f, f.includes('%s') && saysInvalidOrExpired(f.replace('%s', 'T'))]).toEqual([f, true]);
    for (const t of STACK_TRACES) expect([t, namesInvalidSecurityToken(t)]).toEqual([t, true]);
  });

  it('echoes source_ip in the token answer only when the request carried it (token-extra-fields)', () => {
    const s = sim(profileWith({ tokenSourceIpEcho: true }));
    const keys = (body: string) => Object.keys(JSON.parse(answer(s.rest({ ...s.form, authorization: s.good() }, body)).body) as object);
    expect(keys('grant_type=client_credentials')).toEqual(['access_token', 'token_type', 'expires_in']);
    const withIp = JSON.parse(answer(s.rest({ ...s.form, authorization: s.good() }, 'grant_type=client_credentials&source_ip=203.0.113.7')).body) as Record<string, unknown>;
    expect(withIp.source_ip).toBe('203.0.113.7');
  });

  it('reads tokens of a case-insensitive shape in any letter case on the REST APIs when so profiled, and only those (token-format)', () => {
    expect([TOKEN_SHAPES.uuid, TOKEN_SHAPES.hex, TOKEN_SHAPES.public, TOKEN_SHAPES.jwt, TOKEN_SHAPES.short].map(caseFoldable)).toEqual([true, true, false, false, false]);
    const call = (s: ReturnType<typeof sim>, token: string) => answer(s.core.handle({ env: 'cert', method: 'GET', path: '/v1/lists/supported/shop/themes', query: '', headers: { authorization: `Bearer ${token}` }, body: '' })).status;
    for (const [tokenShape, restTokenAnyCase, upper] of [[TOKEN_SHAPES.uuid, true, 200], [TOKEN_SHAPES.hex, true, 200], [TOKEN_SHAPES.hex, false, 401], [TOKEN_SHAPES.short, true, 401]] as const) {
      const s = sim(profileWith({ tokenShape, restTokenAnyCase }));
      const token = (JSON.parse(answer(s.rest({ ...s.form, authorization: s.good() })).body) as { access_token: string }).access_token;
      const other = token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase();
      expect([tokenShape, restTokenAnyCase, call(s, token), call(s, other)]).toEqual([tokenShape, restTokenAnyCase, 200, upper]);
      // A character changed (not its case) is refused whatever the profile.
      expect(call(s, `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)).toBe(401);
    }
  });

  it('serves a token request without Content-Type when lenient (content-type-leniency)', () => {
    expect(answer(sim(profileWith({ missingContentType: 'serve' })).rest({ authorization: sim(DEFAULT_PROFILE).good() })).status).toBe(200);
    expect(answer(sim(DEFAULT_PROFILE).rest({ authorization: sim(DEFAULT_PROFILE).good() })).status).toBe(400);
  });

  it('refuses API calls with its own status and body (api-refusal-shape)', () => {
    const s = sim(profileWith({ apiRefusalStatus: 403, apiRefusalBody: 'empty' }));
    const refused = answer(s.core.handle({ env: 'cert', method: 'GET', path: '/v1/lists/supported/shop/themes', query: '', headers: { authorization: 'Bearer nope' }, body: '' }));
    expect([refused.status, refused.body]).toEqual([403, '']);
  });

  it('writes SOAP answers with other prefixes, header details and bodies, still well-formed (soap-prefixes, soap-header-details, soap-response-bodies)', () => {
    const s = sim(profileWith({ soapEnvPrefix: 'S', ebPrefix: 'mh', responseMessageId: 'uuid', responseTimestamp: 'utc', bstAttributes: 'none', tokenCreateBody: 'empty' }));
    const x = answer(s.soap('TokenCreateRQ', s.credentials(), tokenCreateRQBody()));
    expect(x.body).toContain('<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"');
    expect(x.body).toContain('<mh:MessageHeader');
    expect(x.body).not.toContain('valueType=');
    const parsed = parseEnvelope(x.body);
    expect(parsed.ok && parsed.envelope.action).toBe('TokenCreateRS');
    expect(parsed.ok && parsed.envelope.messageHeader?.messageData?.messageId).toMatch(/^[0-9a-f-]{36}@sim$/);
    expect(parsed.ok && parsed.envelope.messageHeader?.messageData?.timestamp).toMatch(/Z$/);
  });

  it('writes other header details and bodies: a basic-form zone, its own eb:version, a block of another namespace, TokenCreateRS with status, SessionCreateRS with Version and Success, an empty close answer (soap-header-details, soap-response-bodies)', () => {
    const s = sim(profileWith({ responseTimestamp: 'utc-basic', ebVersion: '2.0', headerBlock: 'trace', tokenCreateBody: 'status', createBody: 'Version-success', closeBody: 'empty' }));
    const x = answer(s.soap('TokenCreateRQ', s.credentials(), tokenCreateRQBody()));
    expect(x.body).toMatch(/<sws:TokenCreateRS [^>]*status="Approved"\/>/);
    expect(x.body).toMatch(/<tr:Trace xmlns:tr="urn:trace">.*<\/tr:Trace><\/soap-env:Header>/);
    const parsed = parseEnvelope(x.body);
    expect(parsed.ok && parsed.envelope.messageHeader?.messageData?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    expect(parsed.ok && parsed.envelope.messageHeader?.version).toBe('2.0');
    const created = answer(s.soap('SessionCreateRQ', s.credentials(), sessionCreateRQBody()));
    expect(created.body).toMatch(/<SessionCreateRS xmlns="[^"]+" Version="1\.0\.0" status="Approved"><Success\/><ConversationId>conv-1<\/ConversationId><\/SessionCreateRS>/);
    const token = /<wsse:BinarySecurityToken[^>]*>([^<]+)</.exec(created.body)?.[1] ?? '';
    const closed = answer(s.soap('SessionCloseRQ', { kind: 'binarySecurityToken', token }, sessionCloseRQBody({ pseudoCityCode: s.main.pcc, timeStamp: '2026-01-01T00:00:00Z' })));
    expect(closed.body).toContain('<soap-env:Body/>');
    expect(parseEnvelope(closed.body)).toMatchObject({ ok: true, envelope: { action: 'SessionCloseRS', fault: undefined } });
    // The default echoes the request's eb:version.
    expect(answer(sim(DEFAULT_PROFILE).soap('TokenCreateRQ', sim(DEFAULT_PROFILE).credentials(), tokenCreateRQBody())).body).toContain('eb:version="1.0"');
  });

  it('words faults its own way and sends them with its own status (fault-texts, other-fault-codes, fault-status)', () => {
    const s = sim(profileWith({ invalidTokenFaultstring: FAULTSTRINGS[1], invalidTokenStackTrace: 'session error: invalid security token', faultStatus: 200, authFaultCode: 'Client.InvalidCredentials', unknownActionFaultCode: 'Client.InvalidAction' }));
    const bad = answer(s.soap('OTA_PingRQ', { kind: 'binarySecurityToken', token: 'nope' }));
    expect(bad.status).toBe(200);
    const fault = parseEnvelope(bad.body);
    expect(fault.ok && fault.envelope.fault?.faultstring).toBe(FAULTSTRINGS[1].replace('%s', 'nope'));
    const auth = parseEnvelope(answer(s.soap('TokenCreateRQ', s.credentials('wrong'), tokenCreateRQBody())).body);
    expect(auth.ok && auth.envelope.fault?.faultcodeLocal).toBe('Client.InvalidCredentials');
    const unknown = parseEnvelope(answer(s.soap('NoSuchRQ', { kind: 'binarySecurityToken', token: 'nope' })).body);
    expect(unknown.ok && unknown.envelope.fault?.faultcodeLocal).toBe('Client.InvalidAction');
  });

  it('places the StackTrace in detail its own way, still read as the document\'s (fault-texts)', () => {
    for (const [stackTracePlacement, shape] of [['plain', /<detail><StackTrace>/], ['namespaced', /<detail><ns1:StackTrace xmlns:ns1="urn:x">/], ['nested', /<detail><Error><StackTrace>/]] as const) {
      const s = sim(profileWith({ stackTracePlacement, invalidTokenStackTrace: STACK_TRACES[3] }));
      const bad = answer(s.soap('OTA_PingRQ', { kind: 'binarySecurityToken', token: 'nope' }));
      expect(bad.body).toMatch(shape);
      const fault = parseEnvelope(bad.body);
      expect(fault.ok && fault.envelope.fault?.stackTrace).toBe(STACK_TRACES[3]);
    }
  });

  it('echoes the request\'s own BinarySecurityToken in a credentials refusal, and refuses a full pool with its own code, declared for the harness (other-fault-codes)', () => {
    const p = profileWith({ authFaultEchoesToken: true, poolFullFaultCode: 'Client.TransactionLimitReached', poolSize: 2 });
    const s = sim(p);
    const echoed = parseEnvelope(answer(s.soap('TokenCreateRQ', { kind: 'binarySecurityToken', token: 'not-a-token' }, tokenCreateRQBody())).body);
    expect(echoed).toMatchObject({ ok: true, envelope: { security: { kind: 'binarySecurityToken', token: 'not-a-token' }, fault: { faultcodeLocal: 'Client.AuthenticationFailed' } } });
    // Without a token in the request, nothing to echo; without the profile, no echo.
    expect(parseEnvelope(answer(s.soap('TokenCreateRQ', s.credentials('wrong'), tokenCreateRQBody())).body)).toMatchObject({ ok: true, envelope: { security: { kind: 'none' } } });
    expect(answer(sim(DEFAULT_PROFILE).soap('TokenCreateRQ', { kind: 'binarySecurityToken', token: 'not-a-token' }, tokenCreateRQBody())).body).not.toContain('not-a-token');
    for (let i = 0; i < 2; i++) expect(answer(s.soap('SessionCreateRQ', s.credentials(), sessionCreateRQBody())).status).toBe(200);
    const full = parseEnvelope(answer(s.soap('SessionCreateRQ', s.credentials(), sessionCreateRQBody())).body);
    expect(full.ok && full.envelope.fault?.faultcodeLocal).toBe('Client.TransactionLimitReached');
    // The harness reads it as a full pool through the codes the target config declares (not by the public StackTrace marker).
    expect(profileFaultCodes(p).poolFull).toEqual(['Client.TransactionLimitReached']);
    expect(profileFaultCodes(DEFAULT_PROFILE).poolFull).toBeUndefined();
    const envelope = full.ok ? full.envelope : undefined;
    expect(classifySoap({ status: 500, envelope }, withFaultCodes(profileFaultCodes(p))).kind).toBe('pool-full');
    expect(classifySoap({ status: 500, envelope }).kind).not.toBe('pool-full');
  });

  it('takes sessionless tokens on OTA_HotelAvailLLSRQ and does not offer BargainFinderMaxRQ when so profiled (api-token-kinds)', () => {
    const s = sim(profileWith({ sessionlessAction: 'OTA_HotelAvailLLSRQ' }));
    const token = /<wsse:BinarySecurityToken[^>]*>([^<]+)</.exec(answer(s.soap('TokenCreateRQ', s.credentials(), tokenCreateRQBody())).body)?.[1] ?? '';
    expect(parseEnvelope(answer(s.soap('OTA_HotelAvailLLSRQ', { kind: 'binarySecurityToken', token })).body)).toMatchObject({ ok: true, envelope: { action: 'OTA_HotelAvailLLSRS' } });
    expect(parseEnvelope(answer(s.soap('BargainFinderMaxRQ', { kind: 'binarySecurityToken', token })).body)).toMatchObject({ ok: true, envelope: { fault: { faultcodeLocal: 'Client.InvalidEbXmlMessage' } } });
  });

  it('answers business calls with a payload of its own shape when so profiled, which the response schema does not know (business-payloads)', () => {
    const s = sim(profileWith({ businessBody: 'other' }));
    const token = /<wsse:BinarySecurityToken[^>]*>([^<]+)</.exec(answer(s.soap('TokenCreateRQ', s.credentials(), tokenCreateRQBody())).body)?.[1] ?? '';
    const body = answer(s.soap('BargainFinderMaxRQ', { kind: 'binarySecurityToken', token })).body;
    expect(parseEnvelope(body)).toMatchObject({ ok: true, envelope: { action: 'BargainFinderMaxRS' } });
    expect(body).toContain('xmlns="http://services.example.net/payloads/v7"');
    expect(answer(sim(DEFAULT_PROFILE).soap('BargainFinderMaxRQ', { kind: 'binarySecurityToken', token: 'x' })).body).not.toContain('payloads/v7');
  });

  it('answers garbage with a plain 400 or 500 when so profiled (malformed-request-answers)', () => {
    for (const [garbageAnswer, status] of [['http-400', 400], ['http-500', 500]] as const) {
      const garbage = answer(sim(profileWith({ garbageAnswer })).core.handle({ env: 'cert', method: 'POST', path: SOAP_PATH, query: '', headers: {}, body: 'not xml' }));
      expect([garbage.status, garbage.headers['content-type'], parseEnvelope(garbage.body).ok]).toEqual([status, 'text/plain;charset=UTF-8', false]);
    }
  });

  it('throttles every tenth request before the service sees it, with a 429 and Retry-After or a 503 page (throttling)', () => {
    for (const throttle of ['429', '503'] as const) {
      const s = sim(profileWith({ throttle }));
      const statuses = Array.from({ length: 20 }, () => answer(s.core.handle({ env: 'cert', method: 'POST', path: SOAP_PATH, query: '', headers: {}, body: 'not xml' })));
      const throttled = statuses.filter((a) => a.status === 429 || a.status === 503);
      expect(throttled).toHaveLength(2);
      expect(throttled.every((a) => a.status === Number(throttle))).toBe(true);
      if (throttle === '429') expect(throttled[0]?.headers['retry-after']).toBe('0');
      else expect(throttled[0]?.body).toContain('503 Service Temporarily Unavailable');
      // Not processed: the service's event log holds the other 18 only.
      expect(s.core.events.lastSeq).toBe(18);
    }
  });

  it('answers every tenth request with a gateway\'s 502 or 504 page before the service sees it (gateway-errors)', () => {
    for (const gatewayErrors of ['502', '504'] as const) {
      const s = sim(profileWith({ gatewayErrors }));
      const statuses = Array.from({ length: 20 }, () => answer(s.core.handle({ env: 'cert', method: 'POST', path: SOAP_PATH, query: '', headers: {}, body: 'not xml' })));
      const pages = statuses.filter((a) => a.status === Number(gatewayErrors));
      expect(pages).toHaveLength(2);
      expect([pages[0]?.headers['content-type'], pages[0]?.body.includes(gatewayErrors === '502' ? '502 Bad Gateway' : '504 Gateway Time-out')]).toEqual(['text/html', true]);
      // Not processed: the service's event log holds the other 18 only.
      expect(s.core.events.lastSeq).toBe(18);
    }
  });

  it('every generated profile is conforming data: known values only, a pool of at least 2, a timeout of at least 5 minutes', () => {
    fc.assert(fc.property(conformingProfile(), (p) => {
      expect(Object.keys(p).sort()).toEqual(Object.keys(DEFAULT_PROFILE).sort());
      expect(p.poolSize).toBeGreaterThanOrEqual(2);
      expect(p.sessionTimeoutSeconds).toBeGreaterThanOrEqual(300);
    }), { seed: 1, numRuns: 50 });
  });

  it('every service-side latitude of the catalog is varied by a test above', () => {
    // The titles above name each latitude they vary; a new latitude needs a knob and a test.
    const varied = ['token-format', 'token-extra-fields', 'json-content-type-parameters', 'extra-response-headers', 'error-description-wording', 'other-token-errors', 'content-type-leniency',
      'api-refusal-shape', 'soap-prefixes', 'soap-header-details', 'soap-response-bodies', 'fault-texts', 'other-fault-codes', 'fault-status', 'api-token-kinds', 'malformed-request-answers',
      'timing', 'session-timeout-per-account', 'pool-size', 'business-payloads', 'throttling', 'gateway-errors'];
    expect(latitudes.filter((l) => l.side !== 'client').map((l) => l.id).sort()).toEqual(varied.sort());
  });
});
