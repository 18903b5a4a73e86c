import { CheckFailure, expectEqual, expectThat, excerpt, validateEnvelope, type SoapExchange } from '../../../harness/checks/index.ts';
import { NS, type Verdict } from '../../../harness/soap/index.ts';

/** What SOAP-02 asks of an answer, by the kind of request it answers (the clause it belongs to). */
export type AnswerKind = 'token-create' | 'session-create' | 'session-close' | 'call' | 'fault';

export function answerKind(x: SoapExchange): AnswerKind {
  if (x.envelope?.fault) return 'fault';
  switch (x.request.action) {
    case 'TokenCreateRQ': return 'token-create';
    case 'SessionCreateRQ': return 'session-create';
    case 'SessionCloseRQ': return 'session-close';
    default: return 'call';
  }
}

/** The schema an answer validates against: a business answer's body is outside the document (latitude business-payloads). */
export function schemaFor(x: SoapExchange): 'response' | 'response-business' {
  return answerKind(x) === 'call' ? 'response-business' : 'response';
}

/** The response actions the document names; the others (close, calls, faults) are free (latitude). */
const NAMED_ACTIONS: Partial<Record<AnswerKind, string>> = { 'token-create': 'TokenCreateRS', 'session-create': 'SessionCreateRS' };

/**
 * SOAP-02 for one exchange: the answer is a SOAP envelope that validates against the harness's response schema (for
 * a business call, the envelope and header only: its body is outside the document); its
 * MessageHeader carries an action (the one the document names, where it names one), echoes the request's
 * ConversationId, and its RefToMessageId is the request's MessageId.
 */
export async function expectSoapResponse(x: SoapExchange, what: string, validated?: Promise<Verdict>): Promise<AnswerKind> {
  if (!x.envelope) {
    throw new CheckFailure(`the answer to ${what} is not a SOAP envelope`, { expected: 'a SOAP 1.1 envelope', actual: `${x.response.status} ${x.parseError ?? ''}` });
  }
  const kind = answerKind(x);
  const schema = schemaFor(x);
  const verdict = await (validated ?? validateEnvelope(x.response.body, schema));
  if (!verdict.valid) {
    throw new CheckFailure(`the answer to ${what} does not validate against the response schema`, {
      expected: `a valid envelope (fixtures/xsd/${schema}.xsd${kind === 'call' ? ': the envelope and header; the business body is free' : ''})`,
      actual: `${verdict.code}: ${verdict.errors.slice(0, 2).join('; ')}\n${excerpt(x)}`,
    });
  }
  const h = x.envelope.messageHeader;
  expectThat(h !== undefined, `the answer to ${what} has no eb:MessageHeader`, { actual: excerpt(x) });
  const named = NAMED_ACTIONS[kind];
  if (named) expectEqual(`eb:Action of the answer to ${what}`, h?.action, named);
  else expectThat(typeof h?.action === 'string' && h.action.trim() !== '', `the answer to ${what} carries no eb:Action`, { expected: 'a response action', actual: h?.action });
  expectEqual(`eb:ConversationId of the answer to ${what} (the request's, echoed)`, h?.conversationId, x.request.conversationId);
  expectEqual(`eb:RefToMessageId of the answer to ${what} (the request's MessageId)`, h?.messageData?.refToMessageId, x.request.messageId);
  return kind;
}

/** ERR-04: a fault with faultcode `Client.InvalidSecurityToken` (namespace-prefixed), quoting the token, with a StackTrace. */
export function expectInvalidSecurityToken(x: SoapExchange, token: string, what: string): void {
  const fault = x.envelope?.fault;
  if (!fault) {
    throw new CheckFailure(`${what} was not refused with a SOAP fault`, { expected: 'a fault Client.InvalidSecurityToken', actual: x.envelope ? `${x.response.status} ${x.envelope.action ?? ''} (no fault)` : `${x.response.status} ${x.parseError ?? ''}` });
  }
  expectEqual(`faultcode for ${what}`, fault.faultcodeLocal, 'Client.InvalidSecurityToken');
  expectThat(fault.faultcodeNamespace === NS.soapEnv, `the faultcode for ${what} is not namespace-prefixed`, {
    expected: `a prefix bound to ${NS.soapEnv} (e.g. soap-env:Client.InvalidSecurityToken)`,
    actual: fault.faultcode,
  });
  const text = fault.faultstring ?? '';
  expectThat(/invalid|expired/i.test(text), `the faultstring for ${what} does not say the token is invalid or expired`, { expected: 'Invalid or Expired binary security token: <token>', actual: text });
  expectThat(token === '' || text.includes(token), `the faultstring for ${what} does not quote the token`, { expected: 'the token, quoted', actual: text.replace(token, '<token>') });
  expectThat(/invalid[\s_.-]*security[\s_.-]*token/i.test(fault.stackTrace ?? ''), `the fault for ${what} has no StackTrace naming the invalid-security-token session error`, {
    expected: '…SessionException: errors.session.USG_INVALID_SECURITY_TOKEN',
    actual: fault.stackTrace,
  });
}
