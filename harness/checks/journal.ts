import type { HttpResponse } from '../targets/index.ts';
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

export function journalSoap(x: SoapExchange): void {
  if (exchanges.length < MAX) exchanges.push(x);
}

export function soapJournal(): readonly SoapExchange[] {
  return exchanges;
}

export function journalToken(x: TokenExchange): void {
  if (tokenExchanges.length < MAX) tokenExchanges.push(x);
}

export function tokenJournal(): readonly TokenExchange[] {
  return tokenExchanges;
}

export function resetJournal(): void {
  exchanges = [];
  tokenExchanges = [];
}
