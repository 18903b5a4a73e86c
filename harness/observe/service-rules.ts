/**
 * The service rules that recorded answers show: the token answers (REST-03, REST-05), token errors (ERR-03), SOAP
 * answers (SOAP-02, STOK-01, STOK-02) and invalid-token faults (ERR-04, ERR-05). Only answers to what the client
 * happened to send are judged; the service suite (`run`) exercises every clause on purpose.
 */
import { secretForms } from '../report/index.ts';
import { isJsonContentType, rest03Problems, rest05Problems } from '../judges/index.ts';
import { NS, type Verdict } from '../soap/index.ts';
import { pipelined, VALIDATIONS_IN_FLIGHT } from './pipelined.ts';
import type { SoapMessage, Traffic } from './traffic.ts';
import { broken, brokenBy, held, notSeen, type ClauseVerdict } from './verdict.ts';

/** Validates a SOAP answer against the harness's response schema. */
/** Validates an answer against a top-level schema: `response-business` for business answers (their body is free). */
export type ResponseValidator = (xml: string, schema: 'response' | 'response-business') => Promise<Verdict>;

/** The service rules this module judges, in catalog order. */
export const OBSERVABLE_SERVICE_RULES = ['REST-03', 'REST-05', 'SOAP-02', 'STOK-01', 'STOK-02', 'ERR-03', 'ERR-04', 'ERR-05'] as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function parsedJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function rest03and05(t: Traffic): ClauseVerdict[] {
  const ok = t.tokenRequests.filter((r) => r.x.response && r.x.response.status >= 200 && r.x.response.status < 300);
  const clauses = ['REST-03.json-object', 'REST-03.access-token', 'REST-03.token-type', 'REST-03.expires-in', 'REST-05.status-200', 'REST-05.json-content-type'];
  if (ok.length === 0) return clauses.map((c) => notSeen(c, 'no successful token answer seen'));
  const seen = plural(ok.length, 'successful token answer');
  const out = new Map<string, ClauseVerdict>();
  // The judges of the suites (harness/judges), on every successful answer; the first problem of each clause counts.
  for (const r of ok) {
    for (const p of [...rest03Problems(r.x.response!, 'the token answer'), ...rest05Problems(r.x.response!, 'the token answer')]) {
      if (!out.has(p.clause)) out.set(p.clause, brokenBy(p, r.x));
    }
  }
  return clauses.map((c) => out.get(c) ?? held(c, seen));
}

function err03(t: Traffic): ClauseVerdict[] {
  const errors = t.tokenRequests.filter((r) => r.x.response && r.x.response.status >= 400 && r.x.response.status < 500);
  if (errors.length === 0) return ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret'].map((c) => notSeen(c, 'no token error seen (a wrong password shows one)'));
  const invalidClient = errors.filter((r) => r.answer === 'invalid_client');
  const notJson = errors.find((r) => !isJsonContentType(r.x.response!.headers['content-type']) || parsedJson(r.x.response!.body) === undefined);
  const not401 = invalidClient.find((r) => r.x.response!.status !== 401);
  // The secret the request carried (decoded from its credentials), in any encoding.
  const echo = errors.find((r) => r.decoded.ok && r.decoded.password.length >= 4 && secretForms(r.decoded.password).some((f) => r.x.response!.body.includes(f)));
  return [
    invalidClient.length === 0 ? notSeen('ERR-03.status-401', 'no invalid_client answer seen')
      : not401 ? broken('ERR-03.status-401', 'an invalid_client answer does not have status 401', { expected: 401, actual: not401.x.response!.status, x: not401.x })
      : held('ERR-03.status-401', plural(invalidClient.length, 'invalid_client answer')),
    notJson ? broken('ERR-03.json-body', 'a token error has no JSON body', { expected: 'a JSON object, with a JSON content type (RFC 6749 §5.2)', actual: notJson.x.response!.headers['content-type'] ?? '(no content type)', x: notJson.x })
      : held('ERR-03.json-body', plural(errors.length, 'token error')),
    echo ? broken('ERR-03.no-secret', 'a token error echoes the client secret', { expected: 'no trace of the secret', actual: 'the secret, in the body' })
      : held('ERR-03.no-secret', plural(errors.length, 'token error')),
  ];
}

type AnswerKind = 'token-create' | 'session-create' | 'session-close' | 'call' | 'fault';

function answerKind(m: SoapMessage): AnswerKind {
  if (m.response?.fault) return 'fault';
  switch (m.action) {
    case 'TokenCreateRQ': return 'token-create';
    case 'SessionCreateRQ': return 'session-create';
    case 'SessionCloseRQ': return 'session-close';
    default: return 'call';
  }
}

async function soap02(t: Traffic, validate: ResponseValidator | undefined): Promise<ClauseVerdict[]> {
  const kinds: AnswerKind[] = ['token-create', 'session-create', 'session-close', 'call', 'fault'];
  const named: Partial<Record<AnswerKind, string>> = { 'token-create': 'TokenCreateRS', 'session-create': 'SessionCreateRS' };
  const found = new Map<AnswerKind, ClauseVerdict>();
  const count = new Map<AnswerKind, number>();
  const judged = (m: SoapMessage) => Boolean(m.request && m.x.response && m.request.messageHeader?.messageData?.messageId);
  // The answers are validated several at once, ahead of the loop; an answer whose kind already failed when its turn to
  // be sent came is not (the loop, which looks at it later, does not need it either).
  const validation = (m: SoapMessage): Promise<Verdict | undefined> => {
    const kind = answerKind(m);
    return validate && judged(m) && m.response && !found.has(kind) ? validate(m.x.response!.body, kind === 'call' ? 'response-business' : 'response') : Promise.resolve(undefined);
  };
  for await (const [m, schemaVerdict] of pipelined(t.soap, VALIDATIONS_IN_FLIGHT, validation)) {
    if (!m.request || !m.x.response || !m.request.messageHeader?.messageData?.messageId) continue;
    const kind = answerKind(m);
    const clause = `SOAP-02.${kind}`;
    count.set(kind, (count.get(kind) ?? 0) + 1);
    if (found.has(kind)) continue;
    const what = `the answer to ${m.action ?? 'a request'}`;
    const h = m.response?.messageHeader;
    const req = m.request.messageHeader;
    let verdict: ClauseVerdict | undefined;
    if (!m.response) verdict = broken(clause, `${what} is not a SOAP envelope`, { expected: 'a SOAP 1.1 envelope', actual: `${m.x.response.status}`, x: m.x });
    else if (schemaVerdict && !schemaVerdict.valid) {
      verdict = broken(clause, `${what} does not validate against the response schema`, { expected: `a valid envelope (fixtures/xsd/${kind === 'call' ? 'response-business' : 'response'}.xsd)`, actual: 'schema-invalid', x: m.x });
    }
    else if (!h) verdict = broken(clause, `${what} has no eb:MessageHeader`, { x: m.x });
    else if (named[kind] && h.action !== named[kind]) verdict = broken(clause, `eb:Action of ${what} is not ${named[kind]}`, { expected: named[kind], actual: h.action ?? '(none)', x: m.x });
    else if (!h.action) verdict = broken(clause, `${what} carries no eb:Action`, { expected: 'a response action', actual: '(none)', x: m.x });
    else if (h.conversationId !== req.conversationId) verdict = broken(clause, `eb:ConversationId of ${what} is not the request's, echoed`, { expected: req.conversationId, actual: h.conversationId ?? '(none)', x: m.x });
    else if (h.messageData?.refToMessageId !== req.messageData?.messageId) verdict = broken(clause, `eb:RefToMessageId of ${what} is not the request's MessageId`, { expected: req.messageData?.messageId, actual: h.messageData?.refToMessageId ?? '(none)', x: m.x });
    if (verdict) found.set(kind, verdict);
  }
  return kinds.map((k) => found.get(k) ?? ((count.get(k) ?? 0) > 0
    ? held(`SOAP-02.${k}`, `${plural(count.get(k)!, 'answer')}${validate ? '' : ' (schema not validated: no JDK)'}`)
    : notSeen(`SOAP-02.${k}`, `no such answer seen (${k === 'fault' ? 'a SOAP fault' : k.replace('-', ' ')})`)));
}

function stok(t: Traffic): ClauseVerdict[] {
  const judge = (action: 'TokenCreateRQ' | 'SessionCreateRQ', clauses: readonly string[]): ClauseVerdict[] => {
    const ok = t.soap.filter((m) => m.action === action && m.answer?.kind === 'success' && m.response);
    if (ok.length === 0) return clauses.map((c) => notSeen(c, `no successful ${action} seen`));
    const seen = plural(ok.length, `answer to ${action}`);
    return clauses.map((c): ClauseVerdict => {
      for (const m of ok) {
        const h = m.response!.messageHeader;
        const req = m.request?.messageHeader;
        if (c.endsWith('.action') && h?.action !== action.replace(/RQ$/, 'RS')) return broken(c, `${action} is not answered with ${action.replace(/RQ$/, 'RS')}`, { expected: action.replace(/RQ$/, 'RS'), actual: h?.action ?? '(none)', x: m.x });
        if (c.endsWith('.token') && !m.tokenIssued) return broken(c, `wsse:BinarySecurityToken of the answer to ${action} holds no token`, { expected: 'a token', actual: '(none)', x: m.x });
        if (c.endsWith('.conversation-id') && h?.conversationId !== req?.conversationId) return broken(c, `the answer to ${action} does not echo the ConversationId`, { expected: req?.conversationId, actual: h?.conversationId ?? '(none)', x: m.x });
        if (c.endsWith('.ref-to-message-id') && h?.messageData?.refToMessageId !== req?.messageData?.messageId) return broken(c, `RefToMessageId of the answer to ${action} is not the request's MessageId`, { expected: req?.messageData?.messageId, actual: h?.messageData?.refToMessageId ?? '(none)', x: m.x });
      }
      if (c === 'STOK-01.sessionless') return notSeen(c, 'whether a session was allocated is not in the traffic (the service suite checks it on the simulator)');
      return held(c, seen);
    });
  };
  return [
    ...judge('TokenCreateRQ', ['STOK-01.action', 'STOK-01.token', 'STOK-01.sessionless', 'STOK-01.conversation-id', 'STOK-01.ref-to-message-id']),
    ...judge('SessionCreateRQ', ['STOK-02.action', 'STOK-02.token', 'STOK-02.conversation-id']),
  ];
}

function err04and05(t: Traffic): ClauseVerdict[] {
  // Faults for a token sent in wsse:BinarySecurityToken (a token sent elsewhere is not the service's to quote).
  const refused = t.soap.filter((m) => m.tokenUsed && m.answer?.kind === 'refused' && m.answer.why === 'invalid-token' && t.useOf.get(m.x)?.refused);
  // When each token's first SessionCloseRQ was answered.
  const closedAt = new Map<string, number>();
  for (const m of t.soap) if (m.action === 'SessionCloseRQ' && m.tokenUsed !== undefined) closedAt.set(m.tokenUsed, Math.min(closedAt.get(m.tokenUsed) ?? Infinity, m.x.endedAt));
  const closedBefore = (m: SoapMessage) => (closedAt.get(m.tokenUsed!) ?? Infinity) <= m.x.startedAt;
  const clauses = new Map(refused.map((m) => [m, closedBefore(m) ? 'ERR-04.closed-session' : t.ctx.expired.has(m.tokenUsed!) ? 'ERR-04.expired-session' : 'ERR-04.unknown-token']));
  const clauseOf = (m: SoapMessage) => clauses.get(m);
  const out: ClauseVerdict[] = [];
  for (const clause of ['ERR-04.unknown-token', 'ERR-04.closed-session', 'ERR-04.expired-session']) {
    const list = refused.filter((m) => clauseOf(m) === clause);
    if (list.length === 0) {
      out.push(notSeen(clause, 'no such Client.InvalidSecurityToken fault seen'));
      continue;
    }
    const bad = list.find((m) => {
      const f = m.response!.fault!;
      return f.faultcodeLocal !== 'Client.InvalidSecurityToken' || f.faultcodeNamespace !== NS.soapEnv || !/invalid|expired/i.test(f.faultstring ?? '')
        || !(f.faultstring ?? '').includes(m.tokenUsed!) || !/invalid[\s_.-]*security[\s_.-]*token/i.test(f.stackTrace ?? '');
    });
    out.push(bad
      ? broken(clause, 'the fault for an invalid token is not Client.InvalidSecurityToken (namespace-prefixed) saying the token is invalid or expired, quoting it, with a StackTrace', {
          expected: 'soap-env:Client.InvalidSecurityToken, "Invalid or Expired binary security token: <token>", StackTrace …USG_INVALID_SECURITY_TOKEN',
          actual: `${bad.response!.fault!.faultcode}: ${(bad.response!.fault!.faultstring ?? '').replace(bad.tokenUsed!, '<token>')}`,
          x: bad.x,
        })
      : held(clause, plural(list.length, 'fault')));
  }
  const faults = t.soap.filter((m) => m.response?.fault && m.x.response);
  const statuses = [...new Set(faults.map((m) => m.x.response!.status))];
  out.push(statuses.length === 0
    ? notSeen('ERR-05.fault-status', 'no SOAP fault seen')
    : { clause: 'ERR-05.fault-status', status: 'info', observed: `HTTP ${statuses.join(', ')} (${plural(faults.length, 'fault')})`, publiclySeen: 'HTTP 500', matchesPublic: statuses.every((s) => s === 500) });
  return out;
}

/** The clauses of the service rules the answers show (see {@link OBSERVABLE_SERVICE_RULES}). */
export async function judgeServiceRules(t: Traffic, validate?: ResponseValidator): Promise<ClauseVerdict[]> {
  const restish = rest03and05(t);
  return [...restish, ...(await soap02(t, validate)), ...stok(t), ...err03(t), ...err04and05(t)];
}
