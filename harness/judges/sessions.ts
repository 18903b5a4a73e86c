import { attributeValue, childElement, type ParsedEnvelope } from '../soap/index.ts';
import { plural, problem, type Problem } from './problem.ts';

/**
 * SESS-05.header on a client's SessionCloseRQ: eb:ConversationId, eb:CPAId (its value is SOAP-05's: one deviation,
 * one rule) and the session token in wsse:BinarySecurityToken. `sessionToken` says whether the token it carries is the
 * session's: `true`, `false` (another one, `carried` naming it), or `undefined` when that cannot be known.
 */
export function sess05HeaderProblem(envelope: ParsedEnvelope, sessionToken: { readonly is: boolean | undefined; readonly carried?: string }): Problem | undefined {
  const h = envelope.messageHeader;
  if (!h?.conversationId) return problem('SESS-05.header', 'SessionCloseRQ carries no eb:ConversationId', 'the session\'s ConversationId', '(none)');
  if (!h.cpaId) return problem('SESS-05.header', 'SessionCloseRQ carries no eb:CPAId', 'an eb:CPAId (the caller\'s PCC: SOAP-05 judges the value)', '(none)');
  if (closeToken(envelope) === undefined || sessionToken.is === false) {
    return problem('SESS-05.header', 'SessionCloseRQ does not carry the session token in a BinarySecurityToken of its header', 'the session token', sessionToken.carried ?? envelope.security.kind);
  }
  return undefined;
}

/**
 * The token a SessionCloseRQ carries in its header: in wsse:BinarySecurityToken, or alone in a BinarySecurityToken of
 * another namespace or place (that place is SOAP-04's to judge, not SESS-05's: one deviation, one rule).
 */
export function closeToken(envelope: Pick<ParsedEnvelope, 'security' | 'misplacedTokens'>): string | undefined {
  const s = envelope.security;
  if (s.kind === 'binarySecurityToken') return s.token;
  return s.kind === 'none' && envelope.misplacedTokens.length === 1 ? envelope.misplacedTokens[0] : undefined;
}

/** SESS-05.body on a client's SessionCloseRQ: a SessionCloseRQ element (in any namespace) with POS/Source@PseudoCityCode, TimeStamp and Version. */
export function sess05BodyProblem(envelope: ParsedEnvelope): Problem | undefined {
  const root = envelope.body.root;
  if (root?.localName !== 'SessionCloseRQ') return problem('SESS-05.body', 'the body of SessionCloseRQ is not a SessionCloseRQ element', 'SessionCloseRQ', root?.localName ?? '(none)');
  // The document gives the element no namespace: POS and Source are read in the SessionCloseRQ element's own.
  const source = childElement(childElement(root, root.namespace, 'POS'), root.namespace, 'Source');
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
  return problem('SESS-07.no-reuse', 'the client sent the token again after Client.InvalidSecurityToken', 'no request with that token',
    `${plural(resent.length, 'more use')} of the refused token, each after the refusal was answered: ${resent.join(', ')}`);
}

/**
 * A session as SESS-08.pool-bound counts it: when it was opened and when it was closed or ended, on any one clock
 * (time, or the order of events). A session with no `ended` stays open to the end.
 */
export interface SessionSpan {
  readonly opened: number;
  readonly ended?: number;
}

/** The most sessions open at once (one ending when another opens at the same moment is not counted twice). */
export function peakOpen(spans: readonly SessionSpan[]): number {
  const steps: [number, number][] = spans.flatMap((s): [number, number][] => [[s.opened, 1], ...(s.ended !== undefined ? [[s.ended, -1] as [number, number]] : [])]);
  let open = 0;
  let peak = 0;
  for (const [, d] of steps.sort((a, b) => a[0] - b[0] || a[1] - b[1])) peak = Math.max(peak, (open += d));
  return peak;
}

/** SESS-08.pool-bound: the sessions of one pool never more than `pool` open at once; `env` names where (CERT, PROD). */
export function sess08PoolProblem(pool: number, spans: readonly SessionSpan[], env?: string): Problem | undefined {
  const peak = peakOpen(spans);
  if (peak <= pool) return undefined;
  return problem('SESS-08.pool-bound', `the client held more than ${pool} sessions open with a pool of ${pool}`, `at most ${pool}`, env ? `${peak} (${env})` : `${peak}`);
}

/** A retry sent sooner than this after the refusal it answers has no back-off. */
export const STORM_GAP_MS = 100;

/**
 * A SessionCreateRQ refused for a full pool (Client.ReachedTALimit), one of the attempts of one opening of a session,
 * in the order sent; `pauseMs`: how long after the previous refusal it was sent, when known (unknown counts as none;
 * negative, sent before the previous one was answered, is no retry of it: concurrent attempts, a run of their own).
 */
export interface PoolFullRefusal {
  readonly pauseMs?: number;
}

/** The longest run of `refused` each sent without a pause (less than STORM_GAP_MS) after the previous refusal. */
export function stormRun<T extends PoolFullRefusal>(refused: readonly T[]): T[] {
  let best: T[] = [];
  let run: T[] = [];
  for (const r of refused) {
    if (run.length > 0 && (r.pauseMs === undefined || (r.pauseMs >= 0 && r.pauseMs < STORM_GAP_MS))) run.push(r);
    else run = [r];
    if (run.length > best.length) best = run;
  }
  return best;
}

/**
 * SESS-08.no-retry-storm: a pool-full refusal is answered with at most one retry without a pause; more than one retry
 * in a row, each sent at once after the previous refusal, is a storm. A retry after a back-off is none.
 */
export function sess08StormProblem(refused: readonly PoolFullRefusal[]): Problem | undefined {
  const run = stormRun(refused);
  if (run.length <= 2) return undefined;
  const timed = run.slice(1).every((r) => r.pauseMs !== undefined);
  return problem('SESS-08.no-retry-storm', 'the client retried SessionCreateRQ in a loop after Client.ReachedTALimit', 'at most one retry without a pause',
    `${run.length} SessionCreateRQ refused for a full pool, one after the other${timed ? ', each sent at once after the previous refusal' : ''}`);
}
