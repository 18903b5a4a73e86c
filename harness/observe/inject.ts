/**
 * Fault injection on the simulator upstream of `observe`: the simulator refuses tokens, drops sessions or fills the
 * pool at chosen moments, so that one ordinary workload exercises the client rules about recovery (LIFE-03, SESS-06,
 * SESS-07, SESS-08). Each acts through the simulator's own state (a revoked token is refused the way an expired one
 * is), never by rewriting what the client sent.
 */
import { UsageError } from '../cli/usage-error.ts';
import { SOAP_PATH, type SimCore } from '../sim/index.ts';
import { parseEnvelope } from '../soap/index.ts';
import { envelopesOf } from './envelopes.ts';
import { observedNow, type ObservedExchange } from './exchange.ts';
import type { PendingRequest, ProxyHooks } from './proxy.ts';
import { bearerToken, TOKEN_CREATING } from './traffic.ts';

export type Injection =
  /** Sessionless tokens (REST and TokenCreateRQ) expire this many seconds after they were issued. */
  | { readonly kind: 'expire-tokens-after'; readonly seconds: number }
  /** The first API call made with a sessionless token is refused (its token revoked), once. */
  | { readonly kind: 'unauthorized-once' }
  /** The service drops every session after the first call in it: the next request with its token gets Client.InvalidSecurityToken. */
  | { readonly kind: 'close-sessions' }
  /** The first `requests` SessionCreateRQ find the account's pool full; then it has room again. */
  | { readonly kind: 'pool-full'; readonly requests: number }
  /**
   * The first REST API call with the first REST token the service issued is forwarded only once another call with
   * that token has arrived (or after {@link OVERLAP_HOLD_MS}): concurrent first calls overlap however the machine
   * schedules them (API-05).
   */
  | { readonly kind: 'overlap-first-calls' };

/** The longest `overlap-first-calls` holds a first call waiting for a second one. */
export const OVERLAP_HOLD_MS = 2_000;

export const INJECTIONS_HELP = `  expire-tokens-after=<s>   sessionless tokens expire <s> seconds after they were issued (LIFE-03, API-04)
  unauthorized-once         the first API call with a sessionless token is refused once (LIFE-03)
  close-sessions            the service drops each session after its first call (SESS-07, SESS-06, ERR-04)
  pool-full[=<n>]           the first <n> SessionCreateRQ find the session pool full (default 3) (SESS-08)
  overlap-first-calls       the first API call with the first token waits (at most 2 s) for a second call with it:
                            concurrent first calls overlap however the machine schedules them (API-05)`;

/** Reads `--inject` values. @throws {UsageError} naming the value and the injections there are. */
export function parseInjections(values: readonly string[]): Injection[] {
  return values.flatMap((v) => v.split(',')).filter(Boolean).map((value): Injection => {
    const [name, arg] = value.split('=', 2) as [string, string | undefined];
    const seconds = (fallback?: number): number => {
      if (arg === undefined && fallback !== undefined) return fallback;
      const n = Number(arg);
      if (arg === undefined || !Number.isFinite(n) || n < 0) throw new UsageError(`--inject ${name} takes a number of seconds: ${name}=<s>, not "${value}".`);
      return n;
    };
    switch (name) {
      case 'expire-tokens-after': return { kind: 'expire-tokens-after', seconds: seconds() };
      case 'unauthorized-once': return { kind: 'unauthorized-once' };
      case 'close-sessions': return { kind: 'close-sessions' };
      case 'overlap-first-calls': return { kind: 'overlap-first-calls' };
      case 'pool-full': {
        const n = arg === undefined ? 3 : Number(arg);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--inject pool-full takes a number of requests: pool-full=<n> (at least 1), not "${value}".`);
        return { kind: 'pool-full', requests: n };
      }
      default:
        throw new UsageError(`"${value}" is not an injection. --inject takes expire-tokens-after=<s>, unauthorized-once, close-sessions, pool-full[=<n>] or overlap-first-calls (see "tds-conformance observe --help").`);
    }
  });
}

interface Known {
  readonly kind: 'sessionless' | 'session';
  readonly issuedAt: number;
  calls: number;
}

/** Applies injections to a simulator as the proxy forwards requests to it. */
export class Injector implements ProxyHooks {
  /** Tokens the injections made expire or dropped, with the time (for the judge: `JudgeContext.expired`). */
  readonly expired = new Map<string, number>();
  readonly #core: SimCore;
  readonly #injections: readonly Injection[];
  readonly #tokens = new Map<string, Known>();
  #unauthorizedDone = false;
  #poolFilled = false;
  /** The sessions that fill the pool, and how many SessionCreateRQ it has refused so far. */
  #fillers: string[] = [];
  #poolRefusals = 0;
  /** `overlap-first-calls`: the first REST token issued (the one whose first call it holds), and that call's release. */
  #firstRestToken: string | undefined;
  #held: (() => void) | undefined;

  readonly #now: () => number;

  /** `now`: the clock tokens age by (ms since the epoch; default `Date.now`). */
  constructor(core: SimCore, injections: readonly Injection[], now: () => number = Date.now) {
    this.#core = core;
    this.#injections = injections;
    this.#now = now;
  }

  #has<K extends Injection['kind']>(kind: K): Extract<Injection, { kind: K }> | undefined {
    return this.#injections.find((i): i is Extract<Injection, { kind: K }> => i.kind === kind);
  }

  before(req: PendingRequest): void | Promise<void> {
    if (this.#injections.length === 0) return;
    const envelope = req.protocol === 'soap' ? (req.envelope ?? parseEnvelope(req.body)) : undefined;
    const parsed = envelope?.ok ? envelope.envelope : undefined;
    const action = parsed?.action;
    if (action === 'SessionCreateRQ') this.#fillPool(req);
    const token = req.protocol === 'rest' ? bearerToken(req.headers.authorization)
      : parsed?.security.kind === 'binarySecurityToken' && !TOKEN_CREATING.has(action ?? '') ? parsed.security.token : undefined;
    const known = token ? this.#tokens.get(token) : undefined;
    if (!token || !known) return;
    const now = this.#now();
    const expire = this.#has('expire-tokens-after');
    if (expire && known.kind === 'sessionless' && !this.expired.has(token) && now >= known.issuedAt + expire.seconds * 1000) {
      this.#core.revokeToken(token);
      this.expired.set(token, observedNow());
    }
    if (this.#has('unauthorized-once') && !this.#unauthorizedDone && known.kind === 'sessionless') {
      this.#unauthorizedDone = true;
      this.#core.revokeToken(token);
    }
    if (this.#has('close-sessions') && known.kind === 'session' && known.calls >= 1 && !this.expired.has(token)) {
      this.#core.revokeToken(token);
      this.expired.set(token, observedNow());
    }
    known.calls++;
    if (this.#has('overlap-first-calls') && req.protocol === 'rest' && token === this.#firstRestToken) return this.#overlap(known.calls === 1);
  }

  /** Holds the first call with the first token until the next call with it arrives (which releases it), at most OVERLAP_HOLD_MS. */
  #overlap(first: boolean): Promise<void> | undefined {
    if (!first) {
      this.#held?.();
      return undefined;
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#held?.(), OVERLAP_HOLD_MS);
      this.#held = () => {
        clearTimeout(timer);
        this.#held = undefined;
        resolve();
      };
    });
  }

  after(x: ObservedExchange): void {
    // The body of a SOAP answer may be in the proxy's spool: read only when needed.
    const body = () => x.response?.body ?? '';
    const full = this.#has('pool-full');
    if (full && this.#fillers.length > 0 && /ReachedTALimit/.test(body()) && ++this.#poolRefusals >= full.requests) this.#releasePool();
    if (x.protocol === 'rest') {
      const token = /"access_token"\s*:\s*"([^"]+)"/.exec(body())?.[1];
      if (token && x.response && x.response.status < 300) {
        this.#tokens.set(token, { kind: 'sessionless', issuedAt: this.#now(), calls: 0 });
        this.#firstRestToken ??= token;
      }
      return;
    }
    const { request, response: answer } = envelopesOf(x);
    const action = request.ok ? request.envelope.action : undefined;
    // A session closed is done with: its token is no longer followed (what an observation holds does not grow with its sessions).
    if (action === 'SessionCloseRQ' && request.ok && request.envelope.security.kind === 'binarySecurityToken') this.#tokens.delete(request.envelope.security.token);
    if (!action || !TOKEN_CREATING.has(action)) return;
    const s = answer?.ok && !answer.envelope.fault ? answer.envelope.security : undefined;
    if (s?.kind === 'binarySecurityToken') this.#tokens.set(s.token, { kind: action === 'SessionCreateRQ' ? 'session' : 'sessionless', issuedAt: this.#now(), calls: 0 });
  }

  /** Fills the pool of the account in the request by replaying its SessionCreateRQ into the simulator, once. */
  #fillPool(req: PendingRequest): void {
    if (!this.#has('pool-full') || this.#poolFilled) return;
    this.#poolFilled = true;
    for (let i = 0; i < 500; i++) {
      const answer = this.#core.handle({ env: req.env, method: 'POST', path: SOAP_PATH, query: '', headers: req.headers, body: req.body });
      const parsed = answer.kind === 'response' ? parseEnvelope(answer.body) : undefined;
      const envelope = parsed?.ok ? parsed.envelope : undefined;
      if (!envelope || envelope.fault || envelope.security.kind !== 'binarySecurityToken') break;
      this.#fillers.push(envelope.security.token);
    }
  }

  #releasePool(): void {
    for (const t of this.#fillers) this.#core.revokeToken(t);
    this.#fillers = [];
  }

  /** Frees what the injections hold in the simulator. */
  close(): void {
    this.#held?.();
    this.#releasePool();
  }
}
