import { describe, expect, it } from 'vitest';
import { NS, parseEnvelope, type ParsedEnvelope } from '../soap/index.ts';
import { answerKind, answerSchema, err03Problems, err04Problem, err05Observation, isInvalidClient, issuedToken, soap02Problem, stokProblems, type SoapAnswerSeen } from './index.ts';

const TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/ACPCRTC!ICESMSLB\\/CRT.LB!-1';
const STACK = 'com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN';

interface Built {
  readonly action?: string | null;
  readonly conversationId?: string | null;
  readonly refTo?: string | null;
  readonly token?: string | null;
  readonly header?: boolean;
  readonly fault?: { readonly code?: string; readonly string?: string; readonly stack?: string | null; readonly prefix?: string };
  /** The prefix bound to the SOAP envelope namespace (default `soap-env`); `''`: the envelope's default namespace. */
  readonly envPrefix?: string;
}

/** A hand-built answer envelope: by default TokenCreateRS to conversation c-1, message m-1, with a token. */
function answer(o: Built = {}): ParsedEnvelope {
  const el = (name: string, value: string | null | undefined, fallback: string) => (value === null ? '' : `<eb:${name}>${value ?? fallback}</eb:${name}>`);
  const header = o.header === false ? '' : `<eb:MessageHeader xmlns:eb="${NS.eb}" eb:version="1.0">${el('ConversationId', o.conversationId, 'c-1')}${el('Action', o.action, 'TokenCreateRS')}`
    + `<eb:MessageData><eb:MessageId>r-1</eb:MessageId>${el('RefToMessageId', o.refTo, 'm-1')}</eb:MessageData></eb:MessageHeader>`;
  const token = o.token === null ? '' : `<wsse:Security xmlns:wsse="${NS.wsse}"><wsse:BinarySecurityToken>${o.token ?? 'T1RLAQ-token'}</wsse:BinarySecurityToken></wsse:Security>`;
  const f = o.fault;
  const env = o.envPrefix ?? 'soap-env';
  const q = (name: string) => (env === '' ? name : `${env}:${name}`);
  // In a default-namespace envelope the Fault's children stay unqualified (SOAP 1.1), and the faultcode, which must be
  // namespace-prefixed, binds a prefix of its own to the envelope namespace.
  const unqualified = env === '' ? ' xmlns=""' : '';
  const codeDecl = f?.prefix === 'other' ? ' xmlns:x="urn:other"' : env === '' && f?.prefix !== 'none' ? ` xmlns:sv="${NS.soapEnv}"` : '';
  const codePrefix = f?.prefix === 'none' ? '' : f?.prefix === 'other' ? 'x:' : env === '' ? 'sv:' : `${env}:`;
  const body = f
    ? `<${q('Fault')}><faultcode${unqualified}${codeDecl}>${codePrefix}${f.code ?? 'Client.InvalidSecurityToken'}</faultcode>`
      + `<faultstring${unqualified}>${f.string ?? `Invalid or Expired binary security token: ${TOKEN}`}</faultstring>${f.stack === null ? '' : `<detail${unqualified}><StackTrace>${f.stack ?? STACK}</StackTrace></detail>`}</${q('Fault')}>`
    : '<TokenCreateRS xmlns="http://webservices.sabre.com" version="1.0.0"><Success/></TokenCreateRS>';
  const decl = env === '' ? `xmlns="${NS.soapEnv}"` : `xmlns:${env}="${NS.soapEnv}"`;
  const parsed = parseEnvelope(`<${q('Envelope')} ${decl}><${q('Header')}>${header}${token}</${q('Header')}><${q('Body')}>${body}</${q('Body')}></${q('Envelope')}>`);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.envelope;
}

const sent = { conversationId: 'c-1', messageId: 'm-1' };
const seen = (envelope: ParsedEnvelope | undefined, more: Partial<SoapAnswerSeen> = {}): SoapAnswerSeen => ({ what: 'TokenCreateRQ', kind: answerKind(envelope, 'TokenCreateRQ'), status: 200, envelope, ...more });

describe('SOAP-02 judge (the service suite and observe)', () => {
  it('sorts answers into the clauses and their schemas', () => {
    expect(answerKind(answer(), 'TokenCreateRQ')).toBe('token-create');
    expect(answerKind(answer({ fault: {} }), 'TokenCreateRQ')).toBe('fault');
    expect(answerKind(undefined, 'SessionCreateRQ')).toBe('session-create');
    expect(answerKind(undefined, 'SessionCloseRQ')).toBe('session-close');
    expect(answerKind(undefined, 'OTA_PingRQ')).toBe('call');
    expect(answerSchema('call')).toBe('response-business');
    expect(answerSchema('fault')).toBe('response');
    // The answer to SessionCloseRQ: not shown beyond the invalidation of the token, its body free (even empty).
    expect(answerSchema('session-close')).toBe('response-business');
    // The bodies of TokenCreateRS and SessionCreateRS are not shown either (latitude soap-response-bodies).
    expect(answerSchema('token-create')).toBe('response-business');
    expect(answerSchema('session-create')).toBe('response-business');
  });

  it('finds nothing in an answer with the named action, the ConversationId echoed and RefToMessageId the MessageId', () => {
    expect(soap02Problem(seen(answer(), { schema: { valid: true } }), sent)).toBeUndefined();
    // A call's and a fault's action are free.
    expect(soap02Problem({ ...seen(answer({ action: 'OTA_PingRS' })), kind: 'call' }, sent)).toBeUndefined();
    expect(soap02Problem(seen(answer({ action: 'ErrorRS', fault: {} })), sent)).toBeUndefined();
  });

  it('asks RefToMessageId of TokenCreateRS alone, and an echo only of a ConversationId the request carried', () => {
    for (const kind of ['session-create', 'session-close', 'call', 'fault'] as const) {
      expect({ kind, problem: soap02Problem({ ...seen(answer({ action: kind === 'session-create' ? 'SessionCreateRS' : 'X', refTo: null, ...(kind === 'fault' && { fault: {} }) })), kind }, sent) }).toEqual({ kind, problem: undefined });
    }
    expect(soap02Problem(seen(answer({ conversationId: 'made-up' })), { conversationId: undefined, messageId: 'm-1' })).toBeUndefined();
  });

  it('names the clause of the answer\'s kind and the first thing wrong', () => {
    expect(soap02Problem(seen(undefined, { status: 502, parseError: 'not-an-envelope: html' }), sent)).toMatchObject({ clause: 'SOAP-02.token-create', message: 'the answer to TokenCreateRQ is not a SOAP envelope', actual: '502 not-an-envelope: html' });
    expect(soap02Problem({ ...seen(answer({ action: 'OTA_PingRS' })), kind: 'call', schema: { valid: false, code: 'schema-invalid', errors: ['[error] bad'] } }, sent))
      .toMatchObject({ clause: 'SOAP-02.call', expected: 'a valid envelope (fixtures/xsd/response-business.xsd: the envelope and header; the business body is free)', actual: 'schema-invalid: [error] bad' });
    expect(soap02Problem(seen(answer({ header: false }), { excerpt: '<soap-env:Envelope…' }), sent)).toMatchObject({ message: 'the answer to TokenCreateRQ has no eb:MessageHeader', actual: '<soap-env:Envelope…' });
    expect(soap02Problem(seen(answer({ action: 'SessionCreateRS' })), sent)).toMatchObject({ clause: 'SOAP-02.token-create', expected: 'TokenCreateRS', actual: 'SessionCreateRS' });
    expect(soap02Problem(seen(answer({ action: null, fault: {} })), sent)).toMatchObject({ clause: 'SOAP-02.fault', message: 'the answer to TokenCreateRQ carries no eb:Action' });
    expect(soap02Problem(seen(answer({ conversationId: 'c-2' })), sent)).toMatchObject({ expected: 'c-1', actual: 'c-2' });
    expect(soap02Problem(seen(answer({ refTo: null })), sent)).toMatchObject({ message: 'eb:RefToMessageId of the answer to TokenCreateRQ is not the request\'s MessageId', expected: 'm-1', actual: '(none)' });
  });
});

describe('STOK-01 and STOK-02 judges (the service suite and observe)', () => {
  it('find nothing in TokenCreateRS and SessionCreateRS with a token, echoing the request', () => {
    expect(stokProblems('TokenCreateRQ', answer(), sent)).toEqual([]);
    // STOK-02 does not ask for RefToMessageId.
    expect(stokProblems('SessionCreateRQ', answer({ action: 'SessionCreateRS', refTo: null }), sent)).toEqual([]);
  });

  it('do not count a token the request itself carried, echoed back, as one the answer issued (STOK-03)', () => {
    const echoed = answer({ action: 'ErrorRS', token: 'not-a-token', fault: { code: 'Client.AuthenticationFailed', string: 'Authentication failed', stack: null } });
    expect(issuedToken(echoed)).toBe('not-a-token');
    expect(issuedToken(echoed, ['not-a-token'])).toBeUndefined();
    expect(issuedToken(echoed, [' not-a-token '])).toBeUndefined();
    // A token the request did not send is still one the answer carries.
    expect(issuedToken(answer({ token: 'T1RLAQ-issued' }), ['not-a-token'])).toBe('T1RLAQ-issued');
  });

  it('find a token issued beside the echoed one, in the same Security block or another (STOK-03)', () => {
    const wsse = (...tokens: string[]) => `<wsse:Security xmlns:wsse="${NS.wsse}">${tokens.map((t) => `<wsse:BinarySecurityToken>${t}</wsse:BinarySecurityToken>`).join('')}</wsse:Security>`;
    const fault = '<soap-env:Fault><faultcode>soap-env:Client.AuthenticationFailed</faultcode><faultstring>Authentication failed</faultstring></soap-env:Fault>';
    const parsed = (headers: string) => {
      const p = parseEnvelope(`<soap-env:Envelope xmlns:soap-env="${NS.soapEnv}"><soap-env:Header>${headers}</soap-env:Header><soap-env:Body>${fault}</soap-env:Body></soap-env:Envelope>`);
      if (!p.ok) throw new Error(p.message);
      return p.envelope;
    };
    expect(issuedToken(parsed(wsse('not-a-token', 'T1RLAQ-issued')), ['not-a-token'])).toBe('T1RLAQ-issued');
    expect(issuedToken(parsed(wsse('not-a-token') + wsse('T1RLAQ-issued')), ['not-a-token'])).toBe('T1RLAQ-issued');
    expect(issuedToken(parsed(wsse('not-a-token', ' ') + wsse('not-a-token')), ['not-a-token'])).toBeUndefined();
  });

  it('name every clause broken, in clause order', () => {
    expect(stokProblems('TokenCreateRQ', answer({ action: 'TokenCreateRQ', token: null, conversationId: 'other', refTo: 'm-2' }), sent).map((p) => [p.clause, p.actual])).toEqual([
      ['STOK-01.action', 'TokenCreateRQ'],
      ['STOK-01.token', '(none)'],
      ['STOK-01.conversation-id', 'other'],
      ['STOK-01.ref-to-message-id', 'm-2'],
    ]);
    expect(stokProblems('SessionCreateRQ', answer({ action: 'SessionCreateRS', token: '' }), sent).map((p) => p.clause)).toEqual(['STOK-02.token']);
    // A request that carried no ConversationId has none to echo: one the answer carries of its own is no deviation.
    expect(stokProblems('SessionCreateRQ', answer(), { ...sent, conversationId: undefined }).map((p) => p.clause)).toEqual(['STOK-02.action']);
  });
});

describe('ERR-04 judge (the service suite and observe)', () => {
  const fault = (f: Built['fault'] = {}, envPrefix?: string) => ({ status: 500, envelope: answer({ action: 'ErrorRS', fault: f, ...(envPrefix !== undefined && { envPrefix }) }) });

  it('finds nothing in the document\'s Client.InvalidSecurityToken fault, whatever the prefix of the SOAP namespace', () => {
    // '': the envelope namespace as the default one, the faultcode with a prefix of its own (it must have one).
    for (const envPrefix of ['soap-env', 'SOAP-ENV', 'soapenv', 'soap', 's', 'S', 'env', '']) {
      const a = fault({}, envPrefix);
      expect(a.envelope.fault?.faultcode, envPrefix).toBe(`${envPrefix || 'sv'}:Client.InvalidSecurityToken`);
      expect(err04Problem('ERR-04.unknown-token', a, TOKEN, 'SessionCloseRQ'), envPrefix).toBeUndefined();
      // The same fault with the faultcode unprefixed is still caught, whatever the envelope's prefix.
      expect(err04Problem('ERR-04.unknown-token', fault({ prefix: 'none' }, envPrefix), TOKEN, 'SessionCloseRQ')?.message, envPrefix).toBe('the faultcode for SessionCloseRQ is not namespace-prefixed');
    }
  });

  it('names the side\'s clause: no fault, another faultcode, an unprefixed one, a faultstring not saying or quoting, no StackTrace', () => {
    const p = (a: ReturnType<typeof fault>) => err04Problem('ERR-04.closed-session', a, TOKEN, 'SessionCloseRQ');
    expect(p({ status: 200, envelope: answer({ action: 'SessionCloseRS' }) })).toMatchObject({ clause: 'ERR-04.closed-session', message: 'SessionCloseRQ was not refused with a SOAP fault', actual: '200 SessionCloseRS (no fault)' });
    expect(p(fault({ code: 'Client.AuthenticationFailed' }))).toMatchObject({ expected: 'Client.InvalidSecurityToken', actual: 'Client.AuthenticationFailed' });
    expect(p(fault({ prefix: 'none' }))?.message).toBe('the faultcode for SessionCloseRQ is not namespace-prefixed');
    expect(p(fault({ prefix: 'other' }))?.message).toBe('the faultcode for SessionCloseRQ is not namespace-prefixed');
    expect(p(fault({ string: `Bad token ${TOKEN}` }))?.message).toBe('the faultstring for SessionCloseRQ does not say the token is invalid or expired');
    expect(p(fault({ string: 'Invalid or Expired binary security token' }))?.message).toBe('the faultstring for SessionCloseRQ does not quote the token');
    expect(p(fault({ stack: null }))).toMatchObject({ message: 'the fault for SessionCloseRQ has no StackTrace naming the invalid-security-token session error', actual: '(none)' });
  });

  it('accepts other words for invalid or expired, and a StackTrace naming an invalid binary security token', () => {
    const p = (f: Built['fault']) => err04Problem('ERR-04.unknown-token', fault(f), TOKEN, 'SessionCloseRQ');
    for (const string of [`Security token ${TOKEN} is not valid or has timed out`, `Token ${TOKEN} is no longer valid`, `Session of ${TOKEN} timed out`, `The token ${TOKEN} has expired`]) {
      expect(p({ string }), string).toBeUndefined();
    }
    for (const stack of ['com.example.SessionException: invalid binary security token', 'SessionError: InvalidBinarySecurityToken', 'errors.session.USG_INVALID_BINARY_SECURITY_TOKEN', 'Invalid security token',
      // In the service's own words (latitude fault-texts): the token said to be invalid, not valid or expired.
      'com.example.SessionException: the security token is invalid', 'SessionException: binary security token is not valid', 'errors.session.SECURITY_TOKEN_EXPIRED']) {
      expect(p({ stack }), stack).toBeUndefined();
    }
    // Still caught: a faultstring saying nothing of validity, a StackTrace naming another error.
    expect(p({ string: `Token ${TOKEN} was refused` })?.message).toBe('the faultstring for SessionCloseRQ does not say the token is invalid or expired');
    expect(p({ stack: 'errors.session.USG_AUTHENTICATION_FAILED' })?.message).toBe('the fault for SessionCloseRQ has no StackTrace naming the invalid-security-token session error');
    expect(p({ stack: 'invalid binary data in security token' })?.message).toBe('the fault for SessionCloseRQ has no StackTrace naming the invalid-security-token session error');
  });

  it('reads a namespace-qualified StackTrace and one nested deeper in detail', () => {
    const withDetail = (detail: string) => {
      const parsed = parseEnvelope(`<soap-env:Envelope xmlns:soap-env="${NS.soapEnv}"><soap-env:Body><soap-env:Fault><faultcode>soap-env:Client.InvalidSecurityToken</faultcode>`
        + `<faultstring>Invalid or Expired binary security token: ${TOKEN}</faultstring><detail>${detail}</detail></soap-env:Fault></soap-env:Body></soap-env:Envelope>`);
      if (!parsed.ok) throw new Error(parsed.message);
      return err04Problem('ERR-04.unknown-token', { status: 500, envelope: parsed.envelope }, TOKEN, 'SessionCloseRQ');
    };
    expect(withDetail(`<ns1:StackTrace xmlns:ns1="${NS.sws}">${STACK}</ns1:StackTrace>`)).toBeUndefined();
    expect(withDetail(`<Error xmlns="urn:e"><StackTrace>${STACK}</StackTrace></Error>`)).toBeUndefined();
    expect(withDetail('<Error>no trace</Error>')?.actual).toBe('(none)');
  });

  it('records the statuses of faults (ERR-05), against the publicly seen 500', () => {
    expect(err05Observation([500, 500])).toEqual({ observed: 'HTTP 500', publiclySeen: 'HTTP 500', matchesPublic: true });
    expect(err05Observation([500, 401])).toMatchObject({ observed: 'HTTP 500, 401', matchesPublic: false });
  });
});

describe('ERR-03 judge (the service suite and observe)', () => {
  const error = (status: number, body: unknown, type = 'application/json') => ({ status, headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const secret = 'pä:ss/wörd+';

  it('finds nothing in a JSON invalid_client answer with status 401 that does not echo the secret', () => {
    const ok = error(401, { error: 'invalid_client', error_description: 'wrong client ID or client secret' }, 'application/json;charset=UTF-8');
    expect(isInvalidClient(ok)).toBe(true);
    expect(err03Problems(ok, [secret])).toEqual([]);
    // Another error may have another 4xx.
    expect(err03Problems(error(400, { error: 'unsupported_grant_type' }), [secret])).toEqual([]);
  });

  it('names an invalid_client without 401, a body that is not a JSON object with a JSON type, and the secret in any encoding', () => {
    expect(err03Problems(error(400, { error: 'invalid_client' }), [])).toEqual([
      { clause: 'ERR-03.status-401', message: 'the token error, an invalid_client answer, does not have status 401', expected: '401', actual: '400' },
    ]);
    expect(err03Problems(error(401, 'invalid_client', 'text/plain'), []).map((p) => [p.clause, p.actual])).toEqual([['ERR-03.json-body', 'text/plain: invalid_client']]);
    expect(err03Problems(error(400, ['invalid_client']), []).map((p) => p.clause)).toEqual(['ERR-03.json-body']);
    for (const echoed of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('base64')]) {
      expect(err03Problems(error(401, { error: 'invalid_client', error_description: `bad secret ${echoed}` }), [secret]).map((p) => p.clause)).toEqual(['ERR-03.no-secret']);
    }
    // A secret shorter than the redaction minimum is not looked for (it would be found anywhere).
    expect(err03Problems(error(401, { error: 'invalid_client' }), ['in'])).toEqual([]);
  });
});
