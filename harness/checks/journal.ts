import type { HttpResponse, Target } from '../targets/index.ts';
import type { SoapExchange } from './soap-exchange.ts';

/** A token request the harness sent and what came back. */
export interface TokenExchange {
  /** `valid`: the account's correctly built credentials, the form content type and `grant_type=client_credentials`. */
  readonly request: { readonly valid: boolean; readonly form: boolean; readonly what: string };
  readonly response: HttpResponse;
}

/**
 * The SOAP exchanges of the harness's own well-formed requests in the current test file, so that a rule that holds
 * for every answer (SOAP-02) is checked on every exchange the file made, not on a sample. Reset when a file's target
 * is created; bounded.
 */
const MAX = 5_000;
let exchanges: SoapExchange[] = [];
let tokenExchanges: TokenExchange[] = [];
let freshRefusals: FreshRefusal[] = [];

/**
 * A REST token the REST probe refused right after the token endpoint gave it (a check's control): evidence against
 * API-01 ("accepts Authorization: Bearer <access_token> with a valid token") wherever the check that met it was going,
 * unless the endpoint had given that token before (LIFE-02's: an expired token handed out again).
 */
export interface FreshRefusal {
  readonly token: string;
  /** What was refused, for the failure's message: the environment, the probe and the check's purpose. */
  readonly what: string;
  readonly response: HttpResponse;
}

/** When each journalled exchange was answered, in seconds on the target's clock (see {@link journalTime}). */
let times = new WeakMap<object, number>();

export function journalSoap(x: SoapExchange, at: number): void {
  if (exchanges.length < MAX) exchanges.push(x);
  times.set(x, at);
}

/** The target's time now, in seconds: the real time plus how far the simulator's clock was moved. */
export function targetSeconds(target: Pick<Target, 'control'>): number {
  return Date.now() / 1000 + (target.control?.advancedSeconds ?? 0);
}

/** When a journalled exchange was answered, in seconds on the target's clock (real time plus the clock's moves). */
export function journalTime(x: SoapExchange | TokenExchange): number | undefined {
  return times.get(x);
}

export function soapJournal(): readonly SoapExchange[] {
  return exchanges;
}

export function journalToken(x: TokenExchange, at: number): void {
  if (tokenExchanges.length < MAX) tokenExchanges.push(x);
  times.set(x, at);
}

export function tokenJournal(): readonly TokenExchange[] {
  return tokenExchanges;
}

export function journalFreshRefusal(x: FreshRefusal): void {
  if (freshRefusals.length < MAX) freshRefusals.push(x);
}

export function freshRefusalJournal(): readonly FreshRefusal[] {
  return freshRefusals;
}

export function resetJournal(): void {
  exchanges = [];
  tokenExchanges = [];
  freshRefusals = [];
  times = new WeakMap();
}
