/**
 * LIFE-03 and SESS-07 on a refused token sent again (issue: "undecided is never pass"). A sequential client (one
 * request at a time, nothing else in flight) that sends a refused token again fails, on one resend; a concurrent
 * client whose later uses fall short of the judge's thresholds leaves the clause unchecked (`partial`), not `pass`.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_CODES } from '../classify/index.ts';
import { buildRequest, makeRequestHeader, otaPingRQBody } from '../soap/index.ts';
import { judgeClientRules } from './client-rules.ts';
import { judgeServiceRules } from './service-rules.ts';
import { RunningJudge } from './running-judge.ts';
import type { JudgeContext, ObservedExchange } from './exchange.ts';
import { Traffic } from './traffic.ts';
import type { ClauseVerdict } from './verdict.ts';

const CONTEXT: JudgeContext = { accounts: {}, faultCodes: DEFAULT_FAULT_CODES, wholeRun: true, expired: new Map(), source: 'har' };
const BASE = 'https://api.cert.example';
const SOAP = 'https://ws.cert.example/websvc';
const T0 = Date.parse('2026-11-26T10:00:00Z');

/** One exchange at `at` ms after T0, taking `ms`. */
function exchange(seq: number, at: number, ms: number, request: ObservedExchange['request'], response: ObservedExchange['response'], protocol: 'rest' | 'soap' = 'rest'): ObservedExchange {
  return { seq, env: 'cert', protocol, startedAt: T0 + at, endedAt: T0 + at + ms, request, response };
}

const tokenRequest = (seq: number, at: number, token: string) => exchange(seq, at, 5,
  { method: 'POST', url: `${BASE}/v2/auth/token`, path: '/v2/auth/token', headers: { authorization: 'Basic Zm9vOmJhcg==', 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' },
  { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 604800 }) });

const apiCall = (seq: number, at: number, token: string, status: number, ms = 5) => exchange(seq, at, ms,
  { method: 'GET', url: `${BASE}/v1/lists/supported/shop/themes`, path: '/v1/lists/supported/shop/themes', headers: { authorization: `Bearer ${token}` }, body: '' },
  { status, headers: { 'content-type': 'application/json' }, body: status === 200 ? '{"Themes":[]}' : '{"errorCode":"ERR.2SG.SEC.INVALID_CREDENTIALS"}' });

const FAULT = (token: string) => '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><soap-env:Fault>'
  + `<faultcode>soap-env:Client.InvalidSecurityToken</faultcode><faultstring>Invalid or Expired binary security token: ${token}</faultstring>`
  + '<detail><StackTrace>com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN</StackTrace></detail></soap-env:Fault></soap-env:Body></soap-env:Envelope>';

const soapCall = (seq: number, at: number, token: string) => exchange(seq, at, 5,
  {
    method: 'POST', url: SOAP, path: '/websvc', headers: { 'content-type': 'text/xml; charset=utf-8' },
    body: buildRequest({
      header: makeRequestHeader({ action: 'OTA_PingRQ', cpaId: 'Z2NL', conversationId: 'c-1@client', messageId: `m-${seq}@client`, now: new Date(T0 + at) }),
      security: { kind: 'binarySecurityToken', token },
      body: otaPingRQBody(),
    }),
  },
  { status: 500, headers: { 'content-type': 'text/xml;charset=UTF-8' }, body: FAULT(token) }, 'soap');

async function verdict(exchanges: ObservedExchange[], clause: string): Promise<ClauseVerdict | undefined> {
  return (await judgeClientRules(new Traffic(exchanges, CONTEXT))).find((v) => v.clause === clause);
}

describe('a refused token sent again (LIFE-03, SESS-07 from traffic)', () => {
  it('fails LIFE-03 on a sequential client that sends a refused REST token twice more, saying so', async () => {
    const x = [tokenRequest(1, 0, 'tok-A'), apiCall(2, 10, 'tok-A', 401), apiCall(3, 20, 'tok-A', 401), apiCall(4, 30, 'tok-A', 401)];
    const v = await verdict(x, 'LIFE-03.after-refusal');
    expect(v).toMatchObject({ status: 'fail', message: 'the client sent the refused token again' });
    expect(v?.status === 'fail' && v.actual).toBe('2 more uses of the refused token, each after the refusal at #2 GET /v1/lists/supported/shop/themes was answered');
  });

  it('fails SESS-07 on one resend of a session token after Client.InvalidSecurityToken, one request at a time', async () => {
    const v = await verdict([soapCall(1, 0, 'Shared/IDL:sess-1'), soapCall(2, 10, 'Shared/IDL:sess-1')], 'SESS-07.no-reuse');
    expect(v).toMatchObject({ status: 'fail', message: 'the client sent the token again after Client.InvalidSecurityToken' });
    expect(v?.status === 'fail' && v.actual).toBe('1 more use of the refused token, each after the refusal was answered: OTA_PingRQ');
  });

  it('leaves the clause unchecked, not passed, when a concurrent client\'s later use falls short of the thresholds', async () => {
    // Two calls in flight at once (a concurrent client), later the refusal with nothing in flight, one more use of the
    // refused token, and a new token that works.
    const x = [tokenRequest(1, 0, 'tok-A'), apiCall(2, 10, 'tok-A', 200, 10), apiCall(3, 12, 'tok-A', 200, 10), apiCall(4, 30, 'tok-A', 401), apiCall(5, 40, 'tok-A', 401), tokenRequest(6, 50, 'tok-B'), apiCall(7, 60, 'tok-B', 200)];
    const v = await verdict(x, 'LIFE-03.after-refusal');
    expect(v?.status).toBe('undecided');
    expect(v?.status === 'undecided' && v.reason).toMatch(/^1 more use of the refused token after the refusal at #4 .*no call in flight when it came, but the client's calls overlapping elsewhere.*short of a chain of 3/);
  });

  it('counts a later use that a call in flight at the refusal explains as no resend', async () => {
    // #3 was in flight when #2's refusal came: the one use after it may be a call that read the token before.
    const x = [tokenRequest(1, 0, 'tok-A'), apiCall(2, 10, 'tok-A', 401, 20), apiCall(3, 12, 'tok-A', 401, 20), apiCall(4, 40, 'tok-A', 401), tokenRequest(5, 50, 'tok-B'), apiCall(6, 60, 'tok-B', 200)];
    expect(await verdict(x, 'LIFE-03.after-refusal')).toMatchObject({ status: 'pass' });
  });

  it('passes a client that obtains a new token and never sends the refused one again', async () => {
    const x = [tokenRequest(1, 0, 'tok-A'), apiCall(2, 10, 'tok-A', 401), tokenRequest(3, 20, 'tok-B'), apiCall(4, 30, 'tok-B', 200)];
    expect(await verdict(x, 'LIFE-03.after-refusal')).toMatchObject({ status: 'pass' });
  });
});

describe('a throttled answer in recorded traffic (a gateway\'s 429 or 503)', () => {
  const tokenAnswer = (seq: number, at: number, status: number, body: string, type: string) => exchange(seq, at, 5,
    { method: 'POST', url: `${BASE}/v2/auth/token`, path: '/v2/auth/token', headers: { authorization: 'Basic Zm9vOmJhcg==' }, body: 'grant_type=client_credentials' },
    { status, headers: { 'content-type': type }, body });

  it('is never judged as a token error (ERR-03): only the service\'s own answers are', async () => {
    const x = [
      tokenAnswer(1, 0, 429, '<html><body>Too Many Requests</body></html>', 'text/html'),
      tokenAnswer(2, 10, 401, '{"error":"invalid_client","error_description":"Wrong clientID or clientSecret"}', 'application/json'),
    ];
    const verdicts = await judgeServiceRules(new Traffic(x, CONTEXT));
    expect(verdicts.find((v) => v.clause === 'ERR-03.json-body')).toMatchObject({ status: 'pass', seen: expect.stringMatching(/^1 token error/) });
    // The same 429 judged as an answer would have no JSON body.
    const alone = await judgeServiceRules(new Traffic([tokenAnswer(1, 0, 429, '<html/>', 'text/html')], CONTEXT));
    expect(alone.find((v) => v.clause === 'ERR-03.json-body')?.status).toBe('not-applicable');
  });
});

describe('a throttle or a gateway\'s error answered to an observed SOAP request', () => {
  const page = (status: number) => ({ status, headers: { 'content-type': 'text/html' }, body: `<html><body><h1>${status}</h1></body></html>` });
  const answered = (seq: number, response: ObservedExchange['response']) => ({ ...soapCall(seq, seq * 10, 'Shared/IDL:sess-1'), response });

  it('is never judged as the service\'s answer (SOAP-02), by either judge: 429, 503, 502, 504', async () => {
    for (const status of [429, 503, 502, 504]) {
      const verdicts = await judgeServiceRules(new Traffic([answered(1, page(status))], CONTEXT));
      expect(verdicts.find((v) => v.clause === 'SOAP-02.call')?.status, String(status)).toBe('not-applicable');
      const running = new RunningJudge(CONTEXT);
      running.add(answered(1, page(status)));
      const report = await running.finish({ validator: undefined, only: ['SOAP-02'] });
      expect(report.verdicts.find((v) => v.clause === 'SOAP-02.call')?.status, `${status}, running`).toBe('not-applicable');
    }
    // A 500 page is the service's answer (or its gateway's in place of one), judged.
    const judged = await judgeServiceRules(new Traffic([answered(1, page(500))], CONTEXT));
    expect(judged.find((v) => v.clause === 'SOAP-02.call')?.status).toBe('fail');
  });
});
