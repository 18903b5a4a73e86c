/**
 * The service rules that recorded answers show: the token answers (REST-03, REST-05), token errors (ERR-03), SOAP
 * answers (SOAP-02, STOK-01, STOK-02) and invalid-token faults (ERR-04, ERR-05). Only answers to what the client
 * happened to send are judged; the service suite (`run`) exercises every clause on purpose.
 */
import { throttleOf, transportAnswer } from '../targets/throttle.ts';
import {
  answerKind, answerSchema, err03Problems, err04Problem, err05Observation, isInvalidClient, rest03Problems, rest05Problems, soap02Problem, STOK_CLAUSES,
  stokProblems, plural, type AnswerKind,
} from '../judges/index.ts';
import type { Verdict } from '../soap/index.ts';
import { pipelined, VALIDATIONS_IN_FLIGHT } from './pipelined.ts';
import type { SoapMessage, Traffic } from './traffic.ts';
import { tokenInPlace } from './exchange-facts.ts';
import { brokenBy, held, notSeen, type ClauseVerdict } from './verdict.ts';

/** Validates a SOAP answer against the harness's response schema. */
/** Validates an answer against a top-level schema: `response-business` for business answers (their body is free). */
export type ResponseValidator = (xml: string, schema: 'response' | 'response-business') => Promise<Verdict>;

/** The service rules this module judges, in catalog order. */
export const OBSERVABLE_SERVICE_RULES = ['REST-03', 'REST-05', 'SOAP-02', 'STOK-01', 'STOK-02', 'ERR-03', 'ERR-04', 'ERR-05'] as const;

function rest03and05(t: Traffic): ClauseVerdict[] {
  const ok = t.tokenRequests.filter((r) => r.x.response && !r.x.response.bodyMissing && r.x.response.status >= 200 && r.x.response.status < 300);
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
  const clauses = ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret'];
  // A throttle (429, 503) is no answer to the request: never judged as a token error.
  const errors = t.tokenRequests.filter((r) => r.x.response && !r.x.response.bodyMissing && r.x.response.status >= 400 && r.x.response.status < 500 && throttleOf(r.x.request, r.x.response) === undefined);
  if (errors.length === 0) return clauses.map((c) => notSeen(c, 'no token error seen (a wrong password shows one)'));
  const out = new Map<string, ClauseVerdict>();
  // The judge of the suites (harness/judges) on every token error, with the secret its request carried; the first
  // problem of each clause counts.
  for (const r of errors) {
    for (const p of err03Problems(r.x.response!, r.decoded.ok ? [r.decoded.password] : [], 'a token error')) {
      if (!out.has(p.clause)) out.set(p.clause, brokenBy(p, r.x));
    }
  }
  const invalidClient = errors.filter((r) => isInvalidClient(r.x.response!)).length;
  const seen = plural(errors.length, 'token error');
  return [
    out.get('ERR-03.status-401') ?? (invalidClient === 0 ? notSeen('ERR-03.status-401', 'no invalid_client answer seen') : held('ERR-03.status-401', plural(invalidClient, 'invalid_client answer'))),
    out.get('ERR-03.json-body') ?? held('ERR-03.json-body', seen),
    out.get('ERR-03.no-secret') ?? held('ERR-03.no-secret', seen),
  ];
}

const kindOf = (m: SoapMessage): AnswerKind => answerKind(m.response, m.action);

async function soap02(t: Traffic, validate: ResponseValidator | undefined): Promise<ClauseVerdict[]> {
  const kinds: AnswerKind[] = ['token-create', 'session-create', 'session-close', 'call', 'fault'];
  const found = new Map<AnswerKind, ClauseVerdict>();
  const count = new Map<AnswerKind, number>();
  // Not an answer whose body the recording did not keep, nor a throttle or a gateway's error (the transport's).
  const judged = (m: SoapMessage) => Boolean(m.request && m.x.response && !m.x.response.bodyMissing && !transportAnswer(m.x.request, m.x.response, t.ctx.faultCodes) && m.request.messageHeader?.messageData?.messageId);
  // The answers are validated several at once, ahead of the loop; an answer whose kind already failed when its turn to
  // be sent came is not (the loop, which looks at it later, does not need it either).
  const validation = (m: SoapMessage): Promise<Verdict | undefined> => {
    const kind = kindOf(m);
    return validate && judged(m) && m.response && !found.has(kind) ? validate(m.x.response!.body, answerSchema(kind)) : Promise.resolve(undefined);
  };
  for await (const [m, schemaVerdict] of pipelined(t.soap, VALIDATIONS_IN_FLIGHT, validation)) {
    if (!judged(m) || !m.request?.messageHeader || !m.x.response) continue;
    const kind = kindOf(m);
    count.set(kind, (count.get(kind) ?? 0) + 1);
    if (found.has(kind)) continue;
    // The judge of the suites (harness/judges).
    const req = m.request.messageHeader;
    const p = soap02Problem(
      { what: m.action ?? 'a request', kind, status: m.x.response.status, envelope: m.response, schema: schemaVerdict },
      { conversationId: req.conversationId, messageId: req.messageData?.messageId },
    );
    if (p) found.set(kind, brokenBy(p, m.x));
  }
  return kinds.map((k) => found.get(k) ?? ((count.get(k) ?? 0) > 0
    ? held(`SOAP-02.${k}`, `${plural(count.get(k)!, 'answer')}${validate ? '' : ' (schema not validated: no validator)'}`)
    : notSeen(`SOAP-02.${k}`, `no such answer seen (${k === 'fault' ? 'a SOAP fault' : k.replace('-', ' ')})`)));
}

function stok(t: Traffic): ClauseVerdict[] {
  const judge = (action: 'TokenCreateRQ' | 'SessionCreateRQ', clauses: readonly string[]): ClauseVerdict[] => {
    const ok = t.soap.filter((m) => m.action === action && m.answer?.kind === 'success' && m.response);
    if (ok.length === 0) return clauses.map((c) => notSeen(c, `no successful ${action} seen`));
    const seen = plural(ok.length, `answer to ${action}`);
    // The judge of the suites (harness/judges) on every successful answer; the first problem of each clause counts.
    const out = new Map<string, ClauseVerdict>();
    for (const m of ok) {
      const req = m.request?.messageHeader;
      for (const p of stokProblems(action, m.response!, { conversationId: req?.conversationId, messageId: req?.messageData?.messageId })) {
        if (!out.has(p.clause)) out.set(p.clause, brokenBy(p, m.x));
      }
    }
    return clauses.map((c): ClauseVerdict => out.get(c)
      ?? (c === 'STOK-01.sessionless' ? notSeen(c, 'whether a session was allocated is not in the traffic (the service suite checks it on the simulator)') : held(c, seen)));
  };
  const [action, token, ...rest] = STOK_CLAUSES.TokenCreateRQ;
  return [
    ...judge('TokenCreateRQ', [action, token, 'STOK-01.sessionless', ...rest]),
    ...judge('SessionCreateRQ', STOK_CLAUSES.SessionCreateRQ),
  ];
}

function err04and05(t: Traffic): ClauseVerdict[] {
  // Faults for a token sent in wsse:BinarySecurityToken (a token sent elsewhere is not the service's to quote).
  const refused = t.soap.filter((m) => m.tokenUsed && m.answer?.kind === 'refused' && m.answer.why === 'invalid-token' && t.useOf.get(m.x)?.refused);
  // The messages whose token's session an earlier SessionCloseRQ (in the traffic's order: by start, then seq) had
  // closed, its answer in before the message started. An earlier one only: a SessionCloseRQ refused for its own token
  // is not a request "of a closed session", however fast it was answered (within the millisecond it started in, it
  // had counted as closed before itself: the verdict then hung on the service's speed). The running judge's way.
  const closedAt = new Map<string, number>();
  const closed = new Set<SoapMessage>();
  for (const m of t.soap) {
    if (m.tokenUsed === undefined) continue;
    if ((closedAt.get(m.tokenUsed) ?? Infinity) <= m.x.startedAt) closed.add(m);
    if (m.action === 'SessionCloseRQ' && tokenInPlace(m)) closedAt.set(m.tokenUsed, Math.min(closedAt.get(m.tokenUsed) ?? Infinity, m.x.endedAt));
  }
  const closedBefore = (m: SoapMessage) => closed.has(m);
  // Expired by the time of the refusal: the expiry map holds every injected expiry of the traffic, later ones too.
  const expiredBy = (m: SoapMessage) => (t.ctx.expired.get(m.tokenUsed!) ?? Infinity) <= m.x.endedAt;
  const clauseOf = (m: SoapMessage) => (closedBefore(m) ? 'ERR-04.closed-session' : expiredBy(m) ? 'ERR-04.expired-session' : 'ERR-04.unknown-token');
  const out: ClauseVerdict[] = [];
  for (const clause of ['ERR-04.unknown-token', 'ERR-04.closed-session', 'ERR-04.expired-session']) {
    const list = refused.filter((m) => clauseOf(m) === clause);
    if (list.length === 0) {
      out.push(notSeen(clause, 'no such Client.InvalidSecurityToken fault seen'));
      continue;
    }
    // The judge of the suites (harness/judges) on every such fault; the first problem counts.
    let verdict: ClauseVerdict | undefined;
    for (const m of list) {
      const p = err04Problem(clause, { status: m.x.response!.status, envelope: m.response }, m.tokenUsed!, `${m.action ?? 'a request'} with a refused token`);
      if (p) {
        verdict = brokenBy({ ...p, actual: p.actual.replaceAll(m.tokenUsed!, '<token>') }, m.x);
        break;
      }
    }
    out.push(verdict ?? held(clause, plural(list.length, 'fault')));
  }
  const faults = t.soap.filter((m) => m.response?.fault && m.x.response);
  const info = err05Observation(faults.map((m) => m.x.response!.status));
  out.push(faults.length === 0
    ? notSeen('ERR-05.fault-status', 'no SOAP fault seen')
    : { clause: 'ERR-05.fault-status', status: 'info', ...info, observed: `${info.observed} (${plural(faults.length, 'fault')})` });
  return out;
}

/** The clauses of the service rules the answers show (see {@link OBSERVABLE_SERVICE_RULES}). */
export async function judgeServiceRules(t: Traffic, validate?: ResponseValidator): Promise<ClauseVerdict[]> {
  const restish = rest03and05(t);
  return [...restish, ...(await soap02(t, validate)), ...stok(t), ...err03(t), ...err04and05(t)];
}
