import { plural, problem, type Problem } from './problem.ts';

/**
 * API-04, API-05 and LIFE-03: when a client asks for a new sessionless token. Each side gathers the facts its way —
 * the client suites from the simulator's event log of a driven client (ordered, on the simulator's clock), `observe`
 * and `judge` from recorded traffic (with its timing latitudes) — and these functions decide.
 */

/**
 * The latitude `renew-ahead` (harness/catalog/latitudes.ts): a client may renew its token within the last tenth of
 * its lifetime or its last 300 s, whichever is longer. The time from which it may, in ms on the clock of `issuedAt`.
 */
export function renewableFrom(issuedAt: number, expiresInSeconds: number): number {
  const lifetimeMs = expiresInSeconds * 1000;
  return issuedAt + lifetimeMs - Math.max(lifetimeMs / 10, 300_000);
}

/** A token the client held, as API-04 reads it (times in ms, on one clock). */
export interface HeldToken {
  /** Where it was obtained, for messages (`#12`, say). */
  readonly obtainedAt: string;
  readonly issuedAt: number;
  /** Its lifetime in seconds, when known. */
  readonly expiresIn: number | undefined;
  /** When it stopped being usable for the client: refused, or made to expire (undefined: neither was seen). */
  readonly endedAt?: number | undefined;
  /** The calls made with it so far. */
  readonly uses: number;
}

/** A token request, with the newest token the client held when it sent it (none: its first, or after a failure). */
export interface ReuseRequest {
  /** For messages. */
  readonly at: string;
  readonly sentAt: number;
  readonly held: HeldToken | undefined;
}

/**
 * Until when a held token was surely usable for the client: until it was refused or made to expire, or became
 * renewable (the latitude above). A token whose answer gave no lifetime may have expired at any time: never surely.
 */
export function usableUntil(token: HeldToken): number {
  if (token.expiresIn === undefined) return -Infinity;
  return Math.min(renewableFrom(token.issuedAt, token.expiresIn), token.endedAt ?? Infinity);
}

/**
 * API-04.reuse on one token request: "The same token is reused for all calls until it expires". A request sent while
 * the client held a token still usable (not refused, not expired, not yet renewable) breaks it.
 */
export function api04Problem(request: ReuseRequest): Problem | undefined {
  const held = request.held;
  if (!held || usableUntil(held) <= request.sentAt) return undefined;
  return problem('API-04.reuse', 'the client requested a new token while its token was valid',
    'no token request while the token is valid (not refused, not expired)',
    `token request ${request.at} after ${plural(held.uses, 'call')} with a token obtained at ${held.obtainedAt}, still valid`);
}

/**
 * API-05.single-flight: concurrent calls of a client that holds no token cause one token request. `requests` is how
 * many token requests the burst caused, `how` says how they were counted (`in flight at once`, say).
 */
export function api05Problem(requests: number, how: string): Problem | undefined {
  if (requests <= 1) return undefined;
  return problem('API-05.single-flight', 'concurrent calls of a client with no token caused more than one token request', 'one token request', `${requests} token requests ${how}`);
}

/** The LIFE-03 clauses. */
export type Life03Clause = 'LIFE-03.after-expiry' | 'LIFE-03.after-refusal';

/** A sessionless token the service refused (expired, or invalid). */
export interface RefusedToken {
  /** The first refused use, for messages. */
  readonly first: string;
  /** The requests that sent the token again after the refusal had been answered (for messages). */
  readonly resent: readonly string[];
}

/**
 * LIFE-03 ("when a token expires or is rejected as invalid, obtain a new one"): no refused token is sent again, and —
 * where the client was asked for a call after the refusal (a driven client; traffic does not show what a client was
 * asked) — it obtained a new token and the call was answered (`recovered`; undefined when not known).
 */
export function life03Problem(clause: Life03Clause, refused: readonly RefusedToken[], recovered?: boolean): Problem | undefined {
  const resent = refused.find((r) => r.resent.length > 0);
  if (resent) {
    return problem(clause, 'the client sent the refused token again', 'no request with the refused token after the refusal',
      `${plural(resent.resent.length, 'more use')} of the refused token, each after the refusal at ${resent.first} was answered`);
  }
  if (recovered === false) {
    const what = clause === 'LIFE-03.after-expiry' ? 'expired' : 'was refused';
    return problem(clause, `the client did not obtain a new token and go on after its token ${what}`,
      'a new token, and the next call answered with it', 'no new token, or the next call not answered');
  }
  return undefined;
}
