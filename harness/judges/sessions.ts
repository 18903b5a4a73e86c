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

/** The SESS-06 clauses. */
export type Sess06Clause = 'SESS-06.end-of-work' | 'SESS-06.shutdown' | 'SESS-06.after-failure';

/**
 * A session the client opened, as SESS-06 reads it: whether it sent SessionCloseRQ for it, whether the service ended
 * it (refused its token, or it expired: the session is over, and SESS-07 forbids sending its token again), and whether
 * a call inside it failed (a fault other than the refusal of the token, or no answer).
 */
export interface SessionSeen {
  readonly closed: boolean;
  readonly ended: boolean;
  readonly failedCall?: boolean;
}

const isOpen = (s: SessionSeen) => !s.closed && !s.ended;

/**
 * SESS-06: every session the client opened is closed (or ended by the service) — at the end of its work, at shutdown,
 * and, for `SESS-06.after-failure`, every session in which a call failed (the others are not that clause's).
 */
export function sess06Problem(clause: Sess06Clause, sessions: readonly SessionSeen[]): Problem | undefined {
  if (clause === 'SESS-06.after-failure') {
    const failed = sessions.filter((s) => s.failedCall);
    const open = failed.filter(isOpen).length;
    if (open === 0) return undefined;
    return problem(clause, `the client left ${open} of ${failed.length} session(s) open after a call inside it failed`, 'a SessionCloseRQ after the failed call', `${open} never closed`);
  }
  const open = sessions.filter(isOpen).length;
  if (open === 0) return undefined;
  const when = clause === 'SESS-06.shutdown' ? 'at shutdown' : 'at the end of its work';
  return problem(clause, `the client left ${open} of ${sessions.length} session(s) open ${when}`, 'a SessionCloseRQ for every session', `${open} never closed`);
}

/**
 * SESS-07.no-reuse: after Client.InvalidSecurityToken for a session token, the client never sends that token again.
 * `resent` names the requests (their eb:Action, or path) that carried it after the refusal.
 */
export function sess07Problem(resent: readonly string[]): Problem | undefined {
  if (resent.length === 0) return undefined;
  return problem('SESS-07.no-reuse', 'the client sent the token again after Client.InvalidSecurityToken', 'no request with that token', resent.join(', '));
}
