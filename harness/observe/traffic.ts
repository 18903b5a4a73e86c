/**
 * Facts read once from recorded traffic: token requests and the tokens they issued, API calls and the tokens they
 * carried, SOAP requests and answers parsed, and every answer classified (harness/classify). Pure: no I/O.
 */
import type { Environment } from '../catalog/index.ts';
import type { JudgeContext, KnownAccount, ObservedExchange } from './exchange.ts';
import { TOKEN_CREATING } from '../judges/index.ts';
import {
  accountByPassword, clientKey, isTokenRequest, readApiCall, readSoapMessage, readTokenRequest, soapUse,
  type ApiCall, type IssuedToken, type SoapMessage, type TokenRequest, type TokenUse,
} from './exchange-facts.ts';

export { bearerToken, clientKey } from './exchange-facts.ts';
export type { ApiCall, IssuedToken, SoapMessage, TokenRequest, TokenUse } from './exchange-facts.ts';
export { TOKEN_CREATING };

const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** The index of the first item of `list` (ordered by `time`) whose time is at least `from`. */
export function firstFrom<T>(list: readonly T[], from: number, time: (item: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time(list[mid] as T) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Everything the judge reads, derived once from the exchanges, with the indexes the rules look things up in (by
 * token, by exchange, by environment): a rule never scans the whole traffic once per item of it, so that judging N
 * exchanges takes time linear in N (`traffic.test.ts` counts the reads).
 */
export class Traffic {
  /** The exchanges in the order the requests started. */
  readonly exchanges: readonly ObservedExchange[];
  readonly tokenRequests: readonly TokenRequest[];
  readonly apiCalls: readonly ApiCall[];
  readonly soap: readonly SoapMessage[];
  /** Tokens by value. */
  readonly issued: ReadonlyMap<string, IssuedToken>;
  readonly uses: readonly TokenUse[];
  readonly ctx: JudgeContext;
  /** The uses of each token, in the order the requests started. */
  readonly usesByToken: ReadonlyMap<string, readonly TokenUse[]>;
  /** The use an exchange made of a token (an exchange carries one token at most). */
  readonly useOf: ReadonlyMap<ObservedExchange, TokenUse>;
  /** The SOAP message of an exchange. */
  readonly soapOf: ReadonlyMap<ObservedExchange, SoapMessage>;
  /** The SOAP messages that carried each token, in the order the requests started. */
  readonly soapByToken: ReadonlyMap<string, readonly SoapMessage[]>;
  /** The exchanges by `seq`. */
  readonly bySeq: ReadonlyMap<number, ObservedExchange>;
  /** The exchanges that obtained a token: a token request answered with one, a TokenCreateRQ or SessionCreateRQ that issued one. */
  readonly obtaining: ReadonlySet<ObservedExchange>;
  /** Per environment (`undefined`: not told), its token uses, in the order the requests started. */
  readonly usesIn: ReadonlyMap<Environment | undefined, readonly TokenUse[]>;
  /** Per environment, the exchanges that obtained a token, and those that obtained or used one. */
  readonly obtainingIn: ReadonlyMap<Environment | undefined, readonly ObservedExchange[]>;
  readonly tokenExchangesIn: ReadonlyMap<Environment | undefined, readonly ObservedExchange[]>;
  /** The token requests of each client (`<env>|<authorization>`), in the order the requests started. */
  readonly tokenRequestsByClient: ReadonlyMap<string, readonly TokenRequest[]>;

  constructor(exchanges: readonly ObservedExchange[], ctx: JudgeContext) {
    this.ctx = ctx;
    this.exchanges = [...exchanges].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);
    const tokenRequests: TokenRequest[] = [];
    const apiCalls: ApiCall[] = [];
    const soap: SoapMessage[] = [];
    const issued = new Map<string, IssuedToken>();
    const uses: TokenUse[] = [];
    for (const x of this.exchanges) {
      if (x.protocol === 'rest' && isTokenRequest(x)) {
        const t = readTokenRequest(x, ctx);
        tokenRequests.push(t);
        if (t.token) this.#issuedSoFar.add(t.token);
        if (t.token) issued.set(t.token, { value: t.token, kind: 'sessionless', env: x.env, via: 'rest', issuedAt: x.endedAt, expiresIn: t.expiresIn, account: t.account, seq: x.seq });
      } else if (x.protocol === 'rest') {
        const { call, use } = readApiCall(x);
        apiCalls.push(call);
        if (use) uses.push(use);
      } else {
        const m = readSoapMessage(x, ctx, (value) => this.#issuedSoFar.has(value));
        soap.push(m);
        if (m.tokenIssued) this.#issuedSoFar.add(m.tokenIssued);
        if (m.tokenIssued && m.action && TOKEN_CREATING.has(m.action)) {
          issued.set(m.tokenIssued, {
            value: m.tokenIssued, kind: m.action === 'SessionCreateRQ' ? 'session' : 'sessionless', env: x.env, via: 'soap', issuedAt: x.endedAt,
            expiresIn: undefined, account: m.account, seq: x.seq,
          });
        }
        const use = soapUse(m);
        if (use) uses.push(use);
      }
    }
    this.tokenRequests = tokenRequests;
    this.apiCalls = apiCalls;
    this.soap = soap;
    this.issued = issued;
    this.uses = uses;

    const usesByToken = new Map<string, TokenUse[]>();
    const useOf = new Map<ObservedExchange, TokenUse>();
    const usesIn = new Map<Environment | undefined, TokenUse[]>();
    for (const u of uses) {
      push(usesByToken, u.token, u);
      useOf.set(u.x, u);
      push(usesIn, u.x.env, u);
    }
    const soapOf = new Map<ObservedExchange, SoapMessage>();
    const soapByToken = new Map<string, SoapMessage[]>();
    const obtaining = new Set<ObservedExchange>();
    for (const m of soap) {
      soapOf.set(m.x, m);
      if (m.tokenUsed !== undefined) push(soapByToken, m.tokenUsed, m);
      if (m.tokenIssued && TOKEN_CREATING.has(m.action ?? '')) obtaining.add(m.x);
    }
    const tokenRequestsByClient = new Map<string, TokenRequest[]>();
    for (const r of tokenRequests) {
      if (r.token) obtaining.add(r.x);
      push(tokenRequestsByClient, clientKey(r), r);
    }
    const bySeq = new Map<number, ObservedExchange>();
    const obtainingIn = new Map<Environment | undefined, ObservedExchange[]>();
    const tokenExchangesIn = new Map<Environment | undefined, ObservedExchange[]>();
    for (const x of this.exchanges) {
      if (!bySeq.has(x.seq)) bySeq.set(x.seq, x);
      if (obtaining.has(x)) push(obtainingIn, x.env, x);
      if (obtaining.has(x) || useOf.has(x)) push(tokenExchangesIn, x.env, x);
    }
    this.obtainingIn = obtainingIn;
    this.tokenExchangesIn = tokenExchangesIn;
    this.usesByToken = usesByToken;
    this.useOf = useOf;
    this.usesIn = usesIn;
    this.soapOf = soapOf;
    this.soapByToken = soapByToken;
    this.obtaining = obtaining;
    this.tokenRequestsByClient = tokenRequestsByClient;
    this.bySeq = bySeq;
  }

  /** The known account with this password: in `env` first, then in any environment. */
  accountByPassword(env: Environment | undefined, password: string | undefined): KnownAccount | undefined {
    return accountByPassword(this.ctx, env, password);
  }

  /** Whether any account is known (the identity rules need one). */
  get accountsKnown(): boolean {
    return Object.values(this.ctx.accounts).some((a) => (a?.length ?? 0) > 0);
  }

  /** The account a token was obtained with; for a token obtained before the traffic, the only account of the environment. */
  accountOfToken(token: string | undefined, env: Environment | undefined): KnownAccount | undefined {
    const t = token ? this.issued.get(token) : undefined;
    // A token seen issued belongs to the account of its credentials (unknown when they name no known account).
    if (t) return t.account;
    const inEnv = env ? (this.ctx.accounts[env] ?? []) : [];
    return inEnv.length === 1 ? inEnv[0] : undefined;
  }

  /** The end of the observation: the last moment anything was seen. */
  get endedAt(): number {
    return this.exchanges.reduce((m, x) => Math.max(m, x.endedAt), 0);
  }

  readonly #issuedSoFar = new Set<string>();
}
