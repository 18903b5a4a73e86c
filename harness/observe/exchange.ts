/**
 * Recorded traffic: what the observing proxy saw, or what a HAR file holds, in one shape the judge reads.
 * An exchange holds raw credentials and tokens: it never leaves the process unredacted.
 */
import type { FaultCodes } from '../classify/index.ts';
import type { Environment } from '../catalog/index.ts';
import type { Account } from '../targets/index.ts';

export interface ObservedRequest {
  readonly method: string;
  /** The URL as the client sent it (for the proxy: the proxy's URL). */
  readonly url: string;
  /** The path without the query. */
  readonly path: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface ObservedResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The recording did not keep the body (a HAR entry without `response.content.text`): `body` is empty for want of
   * it, not because the service sent none. The service rules do not judge such an answer.
   */
  readonly bodyMissing?: true;
}

/** One request of the client and the answer it got (none when the upstream did not answer). */
export interface ObservedExchange {
  /** Order of the requests, from 1. */
  readonly seq: number;
  /** The environment the request went to; `undefined` when it cannot be told (a HAR host no config names). */
  readonly env: Environment | undefined;
  readonly protocol: 'rest' | 'soap';
  /** When the request started and when its answer ended, ms since the epoch. */
  readonly startedAt: number;
  readonly endedAt: number;
  /**
   * The earliest the client can have sent the request (the proxy's): when its connection was accepted, or when the
   * previous answer on a kept-alive connection was written. A loaded machine may read a request long after the client
   * sent it; a claim that a request was sent after something else happened uses this, not `startedAt`.
   */
  readonly earliestSend?: number;
  readonly request: ObservedRequest;
  readonly response: ObservedResponse | undefined;
  /** Why there is no response. */
  readonly error?: string;
}

/** An account the judge knows: the identity the client's credentials must carry. */
export interface KnownAccount extends Account {
  /**
   * `false` when no REST domain is configured for the account (the client must then use the default `AA`, CRED-04);
   * `true` when the configured domain is the one expected.
   */
  readonly restDomainDeclared: boolean;
  /** `false` when the target config gives no SOAP domain for the account: its Domain is then not judged (SOAP-03). */
  readonly soapDomainDeclared?: boolean;
  /** The account's session pool, when known (SESS-08). */
  readonly poolSize?: number;
}

/** What the judge needs besides the traffic. */
export interface JudgeContext {
  /** Accounts per environment (the main account first); empty when nothing was declared. */
  readonly accounts: Readonly<Partial<Record<Environment, readonly KnownAccount[]>>>;
  /** The session pool the client is configured with, when declared. */
  readonly sessionPoolSize?: number | undefined;
  readonly faultCodes: FaultCodes;
  /**
   * The traffic covers the application's whole run, up to its exit: sessions still open at the end were never closed
   * (SESS-06). True when `observe` ran the application itself.
   */
  readonly wholeRun: boolean;
  /** Tokens the observer made expire or dropped (`--inject expire-tokens-after`, `close-sessions`), with when, ms since the epoch. */
  readonly expired: ReadonlyMap<string, number>;
  /** Where the traffic comes from, for the hints of `not-applicable` verdicts. */
  readonly source: 'observe-sim' | 'observe-live' | 'har';
}

/**
 * The observer's clock: ms since the epoch, to a fraction of a millisecond (the proxy's times, and when the injector
 * made a token expire). A connection accepted while a refusal was being answered, in the same millisecond, is then not
 * taken for one opened after the answer: on a millisecond clock the two tie, and a tie reads as "sent after".
 */
export const observedNow = (): number => performance.timeOrigin + performance.now();

/** The earliest the client can have sent `x`: what "sent after" claims are judged on (a HAR file has `startedAt` only). */
export const sentFrom = (x: ObservedExchange): number => x.earliestSend ?? x.startedAt;

/**
 * `x` as a verdict keeps it for evidence: the same request and answer (their bodies in the spool for SOAP), without
 * what was derived from it while it was read (its parsed envelopes, which go with `x`).
 */
export function keptForEvidence(x: ObservedExchange): ObservedExchange {
  return {
    seq: x.seq, env: x.env, protocol: x.protocol, startedAt: x.startedAt, endedAt: x.endedAt, ...(x.earliestSend !== undefined && { earliestSend: x.earliestSend }),
    request: x.request, response: x.response, ...(x.error !== undefined && { error: x.error }),
  };
}
