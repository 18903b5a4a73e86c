import { attributeValue, childElement, NS, type ParsedEnvelope } from '../soap/index.ts';
import { problem, type Problem } from './problem.ts';

/**
 * SESS-05.header on a client's SessionCloseRQ: eb:ConversationId, eb:CPAId (its value is SOAP-05's: one deviation,
 * one rule) and the session token in wsse:BinarySecurityToken. `sessionToken` says whether the token it carries is the
 * session's: `true`, `false` (another one, `carried` naming it), or `undefined` when that cannot be known.
 */
export function sess05HeaderProblem(envelope: ParsedEnvelope, sessionToken: { readonly is: boolean | undefined; readonly carried?: string }): Problem | undefined {
  const h = envelope.messageHeader;
  if (!h?.conversationId) return problem('SESS-05.header', 'SessionCloseRQ carries no eb:ConversationId', 'the session\'s ConversationId', '(none)');
  if (!h.cpaId) return problem('SESS-05.header', 'SessionCloseRQ carries no eb:CPAId', 'an eb:CPAId (the caller\'s PCC: SOAP-05 judges the value)', '(none)');
  if (envelope.security.kind !== 'binarySecurityToken' || sessionToken.is === false) {
    return problem('SESS-05.header', 'SessionCloseRQ does not carry the session token in wsse:BinarySecurityToken', 'the session token', sessionToken.carried ?? envelope.security.kind);
  }
  return undefined;
}

/** SESS-05.body on a client's SessionCloseRQ: a SessionCloseRQ element with POS/Source@PseudoCityCode, TimeStamp and Version. */
export function sess05BodyProblem(envelope: ParsedEnvelope): Problem | undefined {
  const root = envelope.body.root;
  if (root?.localName !== 'SessionCloseRQ') return problem('SESS-05.body', 'the body of SessionCloseRQ is not a SessionCloseRQ element', 'SessionCloseRQ', root?.localName ?? '(none)');
  const source = childElement(childElement(root, NS.ota, 'POS'), NS.ota, 'Source');
  if (!source || !attributeValue(source, 'PseudoCityCode')) return problem('SESS-05.body', 'SessionCloseRQ has no POS/Source with a PseudoCityCode', 'POS/Source@PseudoCityCode', source ? 'Source without PseudoCityCode' : 'no POS/Source');
  if (!attributeValue(root, 'TimeStamp')) return problem('SESS-05.body', 'SessionCloseRQ has no TimeStamp attribute', 'TimeStamp', '(absent)');
  if (!attributeValue(root, 'Version')) return problem('SESS-05.body', 'SessionCloseRQ has no Version attribute', 'Version', '(absent)');
  return undefined;
}
