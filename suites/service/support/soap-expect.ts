import { excerpt, failOn, validateEnvelope, type SoapExchange } from '../../../harness/checks/index.ts';
import { answerKind as kindOf, answerSchema, err04Problem, soap02Problem, type AnswerKind } from '../../../harness/judges/index.ts';
import type { Verdict } from '../../../harness/soap/index.ts';

export type { AnswerKind };

/** What SOAP-02 asks of an answer, by the kind of request it answers (the clause it belongs to). */
export function answerKind(x: SoapExchange): AnswerKind {
  return kindOf(x.envelope, x.request.action);
}

/** The schema an answer validates against: a business answer's body is outside the document (latitude business-payloads). */
export function schemaFor(x: SoapExchange): 'response' | 'response-business' {
  return answerSchema(answerKind(x));
}

/**
 * SOAP-02 for one exchange (harness/judges: the same judge as observe's): the answer is a SOAP envelope that validates
 * against the harness's response schema (the envelope and header only where the body is free: a business call's, the
 * auth operations' answers but faults); its MessageHeader carries an action (the one the document names, where it
 * names one), echoes the request's ConversationId, and, answering TokenCreateRQ, its RefToMessageId is the request's
 * MessageId.
 */
export async function expectSoapResponse(x: SoapExchange, what: string, validated?: Promise<Verdict>): Promise<AnswerKind> {
  const kind = answerKind(x);
  const schema = x.envelope ? await (validated ?? validateEnvelope(x.response.body, answerSchema(kind))) : undefined;
  failOn(soap02Problem(
    { what, kind, status: x.response.status, envelope: x.envelope, parseError: x.parseError, schema, excerpt: excerpt(x) },
    { conversationId: x.request.conversationId, messageId: x.request.messageId },
  ));
  return kind;
}

/** ERR-04 (harness/judges: the same judge as observe's): a fault Client.InvalidSecurityToken (namespace-prefixed), quoting the token, with a StackTrace. */
export function expectInvalidSecurityToken(x: SoapExchange, token: string, what: string, clause: string): void {
  failOn(err04Problem(clause, { status: x.response.status, envelope: x.envelope, parseError: x.parseError }, token, what));
}
