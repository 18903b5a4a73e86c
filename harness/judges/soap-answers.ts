import { NS, type ParsedEnvelope, type Verdict } from '../soap/index.ts';
import { problem, type Problem } from './problem.ts';

/** A SOAP answer as the judges read it: a parsed envelope (its body's element tree is not read). */
export type SoapAnswerEnvelope = Omit<ParsedEnvelope, 'body'>;

/** What the request an answer answers carried: its eb:ConversationId and eb:MessageId (`undefined`: none). */
export interface SentIds {
  readonly conversationId: string | undefined;
  readonly messageId: string | undefined;
}

/** What SOAP-02 asks of an answer, by the kind of request it answers (the clause it belongs to). */
export type AnswerKind = 'token-create' | 'session-create' | 'session-close' | 'call' | 'fault';

/** The kind of an answer: a fault whatever it answers, else by the eb:Action of the request. */
export function answerKind(answer: Pick<ParsedEnvelope, 'fault'> | undefined, requestAction: string | undefined): AnswerKind {
  if (answer?.fault) return 'fault';
  switch (requestAction) {
    case 'TokenCreateRQ': return 'token-create';
    case 'SessionCreateRQ': return 'session-create';
    case 'SessionCloseRQ': return 'session-close';
    default: return 'call';
  }
}

/**
 * The schema an answer validates against: the envelope and header only (`response-business`) wherever the body is
 * free — a business answer's (outside the document, latitude business-payloads) and the answers of the auth
 * operations without a fault (latitude soap-response-bodies: the bodies of TokenCreateRS and SessionCreateRS are not
 * shown, the answer to SessionCloseRQ "Not shown beyond the invalidation of the token": any element, in any namespace,
 * or none). A fault's body is the document's (Errors › SOAP): `response`.
 */
export function answerSchema(kind: AnswerKind): 'response' | 'response-business' {
  return kind === 'fault' ? 'response' : 'response-business';
}

/** The response actions the document names; the others (close, calls, faults) are free (latitude). */
const NAMED_ACTIONS: Partial<Record<AnswerKind, string>> = { 'token-create': 'TokenCreateRS', 'session-create': 'SessionCreateRS' };

/** One SOAP answer as SOAP-02 reads it. */
export interface SoapAnswerSeen {
  /** The request it answers, as the messages name it (e.g. `TokenCreateRQ`). */
  readonly what: string;
  readonly kind: AnswerKind;
  readonly status: number;
  /** `undefined`: the answer is not a SOAP envelope (`parseError` says why, when known). */
  readonly envelope: SoapAnswerEnvelope | undefined;
  readonly parseError?: string | undefined;
  /** The schema validator's verdict on the answer; `undefined`: not validated. */
  readonly schema?: Verdict | undefined;
  /** An excerpt of the answer, shown where a problem has nothing shorter to show. */
  readonly excerpt?: string | undefined;
}

/**
 * SOAP-02.<kind> on one answer: a SOAP envelope that validates against the response schema (the envelope and header
 * only where the body is free: {@link answerSchema}); its eb:MessageHeader carries an eb:Action (the one the document
 * names, where it names one), echoes the request's ConversationId (when it sent one), and, answering TokenCreateRQ,
 * its RefToMessageId is the request's MessageId. The first problem.
 */
export function soap02Problem(a: SoapAnswerSeen, sent: SentIds): Problem | undefined {
  const clause = `SOAP-02.${a.kind}`;
  const what = `the answer to ${a.what}`;
  if (!a.envelope) return problem(clause, `${what} is not a SOAP envelope`, 'a SOAP 1.1 envelope', `${a.status} ${a.parseError ?? ''}`.trim());
  const schemaProblem = soap02SchemaProblem(a);
  if (schemaProblem) return schemaProblem;
  const h = a.envelope.messageHeader;
  if (!h) return problem(clause, `${what} has no eb:MessageHeader`, 'an eb:MessageHeader', a.excerpt ?? '(none)');
  const named = NAMED_ACTIONS[a.kind];
  if (named && h.action !== named) return problem(clause, `eb:Action of ${what} is not ${named}`, named, h.action ?? '(none)');
  if (!h.action) return problem(clause, `${what} carries no eb:Action`, 'a response action', '(none)');
  // "echoed": a request that carried no ConversationId has none to echo (its absence is SOAP-01's).
  if (sent.conversationId !== undefined && h.conversationId !== sent.conversationId) return problem(clause, `eb:ConversationId of ${what} is not the request's, echoed`, sent.conversationId, h.conversationId ?? '(none)');
  // RefToMessageId is stated of TokenCreateRS alone ("eb:RefToMessageId refers to the request MessageId"); the other
  // answers' header is not shown beyond the action and the echoed ConversationId (latitude soap-header-details).
  if (a.kind === 'token-create' && h.messageData?.refToMessageId !== sent.messageId) return problem(clause, `eb:RefToMessageId of ${what} is not the request's MessageId`, sent.messageId ?? '(none)', h.messageData?.refToMessageId ?? '(none)');
  return undefined;
}

/** SOAP-02.<kind> on an answer's schema verdict alone (part of {@link soap02Problem}, which checks the envelope first). */
export function soap02SchemaProblem(a: Pick<SoapAnswerSeen, 'what' | 'kind' | 'schema' | 'excerpt'>): Problem | undefined {
  if (!a.schema || a.schema.valid) return undefined;
  const schema = answerSchema(a.kind);
  const shown = (text: string) => (a.excerpt === undefined ? text : `${text}\n${a.excerpt}`);
  return problem(`SOAP-02.${a.kind}`, `the answer to ${a.what} does not validate against the response schema`,
    `a valid envelope (fixtures/xsd/${schema}.xsd${a.kind === 'call' ? ': the envelope and header; the business body is free' : a.kind === 'session-close' ? ': the envelope and header; the body is free' : ''})`,
    shown(`${a.schema.code}: ${a.schema.errors.slice(0, 2).join('; ')}`));
}

/**
 * The token in an answer's wsse:BinarySecurityToken, if any. `sent`: the tokens the request itself carried; one of
 * them found in the answer is the request's token echoed back (the public service echoes a bad token in the fault's
 * header), not one the answer issued, and is ignored. Every BinarySecurityToken of every Security block is read, so a
 * token issued beside an echoed one, or in a second Security block, is still found.
 */
export function issuedToken(answer: Pick<ParsedEnvelope, 'security' | 'binarySecurityTokens'> | undefined, sent: readonly string[] = []): string | undefined {
  const s = answer?.security;
  const first = s?.kind === 'binarySecurityToken' ? s.token : s?.kind === 'both' ? s.binarySecurityToken.token : undefined;
  const echoed = new Set(sent.map((t) => t.trim()));
  return [...(first === undefined ? [] : [first]), ...(answer?.binarySecurityTokens ?? [])].find((t) => t !== '' && !echoed.has(t));
}

/** The clauses of STOK-01 and STOK-02 judged on an answer (STOK-01.sessionless is not in the answer). */
export const STOK_CLAUSES = {
  TokenCreateRQ: ['STOK-01.action', 'STOK-01.token', 'STOK-01.conversation-id', 'STOK-01.ref-to-message-id'],
  SessionCreateRQ: ['STOK-02.action', 'STOK-02.token', 'STOK-02.conversation-id'],
} as const;

/**
 * STOK-01 (TokenCreateRQ) or STOK-02 (SessionCreateRQ) on a successful answer: the response action TokenCreateRS or
 * SessionCreateRS, a token in wsse:BinarySecurityToken, eb:ConversationId echoed and (STOK-01) eb:RefToMessageId the
 * request's MessageId. Every problem, in clause order.
 */
export function stokProblems(action: 'TokenCreateRQ' | 'SessionCreateRQ', answer: SoapAnswerEnvelope, sent: SentIds): Problem[] {
  const rule = action === 'TokenCreateRQ' ? 'STOK-01' : 'STOK-02';
  const rs = action.replace(/RQ$/, 'RS');
  const h = answer.messageHeader;
  const out: Problem[] = [];
  if (h?.action !== rs) out.push(problem(`${rule}.action`, `${action} is not answered with ${rs}`, rs, h?.action ?? '(none)'));
  if (!issuedToken(answer)) out.push(problem(`${rule}.token`, `wsse:BinarySecurityToken of the answer to ${action} holds no token`, 'a non-empty BinarySecurityToken', '(none)'));
  if (sent.conversationId !== undefined && h?.conversationId !== sent.conversationId) out.push(problem(`${rule}.conversation-id`, `the answer to ${action} does not echo the ConversationId`, sent.conversationId, h?.conversationId ?? '(none)'));
  if (rule === 'STOK-01' && h?.messageData?.refToMessageId !== sent.messageId) {
    out.push(problem('STOK-01.ref-to-message-id', `RefToMessageId of the answer to ${action} is not the request's MessageId`, sent.messageId ?? '(none)', h?.messageData?.refToMessageId ?? '(none)'));
  }
  return out;
}

/** What an answer that is not a fault shows in a problem: its status and eb:Action, or why it is not an envelope. */
export interface SoapAnswerStatus {
  readonly status: number;
  readonly envelope: SoapAnswerEnvelope | undefined;
  readonly parseError?: string | undefined;
}

/**
 * A faultstring stating that the token is invalid or expired, in the document's words or others' ("not valid", "no
 * longer valid", "timed out").
 */
const SAYS_INVALID_OR_EXPIRED = /invalid|expired|\bnot\s+(?:be\s+)?valid\b|\bno\s+longer\s+valid\b|\btimed[\s-]*out\b/i;

/**
 * A StackTrace naming the invalid-security-token session error: `USG_INVALID_SECURITY_TOKEN`, `InvalidSecurityToken`,
 * "invalid security token", and the same with "binary" before "security token" ("invalid binary security token"); or,
 * in the service's own words (latitude fault-texts), a security token said to be invalid, not valid or expired ("the
 * security token is invalid", "binary security token is not valid", "SecurityTokenExpired").
 */
const NAMES_INVALID_SECURITY_TOKEN = /invalid[\s_.-]*(?:binary[\s_.-]*)?security[\s_.-]*token/i;
const SECURITY_TOKEN_NOT_VALID = /security[\s_.-]*token[\s_.-]*(?:(?:is|was|has[\s_.-]*been|has|had)[\s_.-]*)?(?:invalid|not[\s_.-]*valid|expired)/i;

/** Whether a faultstring says the token is invalid or expired (ERR-04's test; the learned profile reads texts with it too). */
export function saysInvalidOrExpired(faultstring: string): boolean {
  return SAYS_INVALID_OR_EXPIRED.test(faultstring);
}

/** Whether a StackTrace text names the invalid-security-token session error (ERR-04's test). */
export function namesInvalidSecurityToken(stackTrace: string): boolean {
  return NAMES_INVALID_SECURITY_TOKEN.test(stackTrace) || SECURITY_TOKEN_NOT_VALID.test(stackTrace);
}

/**
 * ERR-04 on the answer to a request carrying an invalid `token` (unknown, of a closed or of an expired session: the
 * side knows which, and names the `clause`): a SOAP fault with faultcode `Client.InvalidSecurityToken`, its prefix bound
 * to the SOAP envelope namespace, a faultstring saying the token is invalid or expired and quoting it, and a
 * detail/StackTrace naming the invalid-security-token session error. `what` names the request. The first problem.
 */
export function err04Problem(clause: string, a: SoapAnswerStatus, token: string, what: string): Problem | undefined {
  const fault = a.envelope?.fault;
  if (!fault) {
    return problem(clause, `${what} was not refused with a SOAP fault`, 'a fault Client.InvalidSecurityToken',
      a.envelope ? `${a.status} ${a.envelope.action ?? ''} (no fault)` : `${a.status} ${a.parseError ?? ''}`);
  }
  if (fault.faultcodeLocal !== 'Client.InvalidSecurityToken') return problem(clause, `unexpected faultcode for ${what}`, 'Client.InvalidSecurityToken', fault.faultcodeLocal);
  if (fault.faultcodeNamespace !== NS.soapEnv) {
    return problem(clause, `the faultcode for ${what} is not namespace-prefixed`, `a prefix bound to ${NS.soapEnv} (e.g. soap-env:Client.InvalidSecurityToken)`, fault.faultcode);
  }
  const text = fault.faultstring ?? '';
  if (!saysInvalidOrExpired(text)) return problem(clause, `the faultstring for ${what} does not say the token is invalid or expired`, 'Invalid or Expired binary security token: <token>', text);
  if (token !== '' && !text.includes(token)) return problem(clause, `the faultstring for ${what} does not quote the token`, 'the token, quoted', text);
  if (!namesInvalidSecurityToken(fault.stackTrace ?? '')) {
    return problem(clause, `the fault for ${what} has no StackTrace naming the invalid-security-token session error`, '…SessionException: errors.session.USG_INVALID_SECURITY_TOKEN', fault.stackTrace ?? '(none)');
  }
  return undefined;
}

/** ERR-05 (recorded, not judged): the HTTP statuses of SOAP faults, against the publicly seen 500. */
export function err05Observation(statuses: readonly number[]): { readonly observed: string; readonly publiclySeen: string; readonly matchesPublic: boolean } {
  const distinct = [...new Set(statuses)];
  return { observed: `HTTP ${distinct.join(', ')}`, publiclySeen: 'HTTP 500', matchesPublic: distinct.every((s) => s === 500) };
}
