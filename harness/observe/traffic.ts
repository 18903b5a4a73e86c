/**
 * Facts read once from recorded traffic: token requests and the tokens they issued, API calls and the tokens they
 * carried, SOAP requests and answers parsed, and every answer classified (harness/classify). Pure: no I/O.
 */
import { classifyRest, classifySoap, type RestAnswer, type SoapAnswer } from '../classify/index.ts';
import { decodeAuthorization, type DecodedCredentials } from '../credentials/index.ts';
import type { ParsedEnvelope } from '../soap/index.ts';
import { envelopesOf, type AnswerEnvelope } from './envelopes.ts';
import { TOKEN_PATH, type Environment, type TokenKind } from '../catalog/index.ts';
import type { JudgeContext, KnownAccount, ObservedExchange } from './exchange.ts';
import { TOKEN_CREATING } from '../judges/index.ts';

/** A request to the REST token endpoint (also a wrong path such as `/v2/auth/token/`). */
export interface TokenRequest {
  readonly x: ObservedExchange;
  readonly authorization: string | undefined;
  readonly decoded: DecodedCredentials;
  /** The known account whose password the credentials carry. */
  readonly account: KnownAccount | undefined;
  /** `issued` (a token came back), `invalid_client`, or anything else. */
  readonly answer: 'issued' | 'invalid_client' | 'other';
  readonly token?: string;
  readonly expiresIn?: number;
}

/** A call of a published REST API. */
export interface ApiCall {
  readonly x: ObservedExchange;
  readonly authorization: string | undefined;
  /** The token after the `Bearer` scheme, however it was spaced. */
  readonly token: string | undefined;
  readonly answer: RestAnswer | undefined;
}

/** A SOAP request and its answer. */
export interface SoapMessage {
  readonly x: ObservedExchange;
  readonly request: ParsedEnvelope | undefined;
  readonly requestError?: string;
  /** The answer's envelope (without its body's element tree, which no rule reads). */
  readonly response: AnswerEnvelope | undefined;
  readonly answer: SoapAnswer | undefined;
  readonly action: string | undefined;
  /** The token in the request's wsse:BinarySecurityToken. */
  readonly tokenUsed: string | undefined;
  /** The token the answer issued (TokenCreateRS / SessionCreateRS). */
  readonly tokenIssued: string | undefined;
  /** The account whose password the UsernameToken carries. */
  readonly account: KnownAccount | undefined;
}

/** A token the service issued during the observation. */
export interface IssuedToken {
  readonly value: string;
  readonly kind: TokenKind;
  readonly env: Environment | undefined;
  readonly via: 'rest' | 'soap';
  /** When the answer carrying it ended, ms since the epoch. */
  readonly issuedAt: number;
  readonly expiresIn: number | undefined;
  readonly account: KnownAccount | undefined;
  /** The exchange that obtained it. */
  readonly seq: number;
}

/** A use of a token: a REST call or a SOAP request carrying it. */
export interface TokenUse {
  readonly x: ObservedExchange;
  readonly token: string;
  /**
   * The answer refused the token, sent where it belongs: a REST 401 to `Authorization: Bearer <token>`, or a SOAP
   * `Client.InvalidSecurityToken` for the token in wsse:BinarySecurityToken. A refusal of a token sent elsewhere refuses the request's form
   * (API-03, SOAP-04), not the token.
   */
  readonly refused: boolean;
  /** The answer was a refusal, whatever the form of the request: the client learnt its token no longer works. */
  readonly rejected: boolean;
}

export { TOKEN_CREATING };

const isTokenPath = (path: string) => path.replace(/\/+$/, '').endsWith(TOKEN_PATH);
/**
 * A token request is one at the token path, or one the client meant as one wherever it sent it (REST-01 judges the
 * path): Basic credentials, or a grant_type in its body.
 */
const isTokenRequest = (x: ObservedExchange) => isTokenPath(x.request.path)
  || /^basic\b/i.test(x.request.headers.authorization ?? '') || /(^|&)grant_type=/.test(x.request.body) || /"grant_type"/.test(x.request.body);

function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function bst(envelope: Pick<ParsedEnvelope, 'security'> | undefined): string | undefined {
  const s = envelope?.security;
  if (s?.kind === 'binarySecurityToken') return s.token;
  if (s?.kind === 'both') return s.binarySecurityToken.token;
  return undefined;
}

/** Which client sent a token request: its environment and its credentials. */
export const clientKey = (r: TokenRequest): string => `${r.x.env}|${r.authorization}`;

/** The token of `Authorization: Bearer <token>`, however the scheme was spelled or spaced. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^\s*bearer\s*(\S+)\s*$/i.exec(authorization ?? '');
  return m?.[1];
}

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
        const t = this.#tokenRequest(x);
        tokenRequests.push(t);
        if (t.token) this.#issuedSoFar.add(t.token);
        if (t.token) issued.set(t.token, { value: t.token, kind: 'sessionless', env: x.env, via: 'rest', issuedAt: x.endedAt, expiresIn: t.expiresIn, account: t.account, seq: x.seq });
      } else if (x.protocol === 'rest') {
        const authorization = x.request.headers.authorization;
        const token = bearerToken(authorization);
        const answer = x.response ? classifyRest(x.response.status) : undefined;
        apiCalls.push({ x, authorization, token, answer });
        // A 401 to a malformed header (`Bearer<token>`) refuses the header, not the token (API-03's to judge).
        if (token) uses.push({ x, token, refused: answer?.kind === 'refused' && /^Bearer \S+$/.test(authorization ?? ''), rejected: answer?.kind === 'refused' });
      } else {
        const m = this.#soapMessage(x);
        soap.push(m);
        if (m.tokenIssued) this.#issuedSoFar.add(m.tokenIssued);
        if (m.tokenIssued && m.action && TOKEN_CREATING.has(m.action)) {
          issued.set(m.tokenIssued, {
            value: m.tokenIssued, kind: m.action === 'SessionCreateRQ' ? 'session' : 'sessionless', env: x.env, via: 'soap', issuedAt: x.endedAt,
            expiresIn: undefined, account: m.account, seq: x.seq,
          });
        }
        if (m.tokenUsed) {
          const rejected = m.answer?.kind === 'refused';
          // Only Client.InvalidSecurityToken (or its StackTrace marker) ends the token: a caller not authorized for an
          // action, or refused credentials, leaves its token and session as they were (SESS-06 wants it closed then).
          const invalid = m.answer?.kind === 'refused' && m.answer.why === 'invalid-token';
          uses.push({ x, token: m.tokenUsed, refused: invalid && bst(m.request) === m.tokenUsed, rejected });
        }
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
    if (password === undefined) return undefined;
    const inEnv = env ? (this.ctx.accounts[env] ?? []) : [];
    const all = Object.values(this.ctx.accounts).flatMap((a) => a ?? []);
    return inEnv.find((a) => a.password === password) ?? all.find((a) => a.password === password);
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

  #tokenRequest(x: ObservedExchange): TokenRequest {
    const authorization = x.request.headers.authorization;
    const decoded = decodeAuthorization(authorization);
    const account = this.accountByPassword(x.env, decoded.ok ? decoded.password : undefined);
    const body = x.response ? jsonObject(x.response.body) : undefined;
    const ok = x.response !== undefined && x.response.status >= 200 && x.response.status < 300;
    const token = ok && typeof body?.access_token === 'string' && body.access_token !== '' ? body.access_token : undefined;
    const expiresIn = typeof body?.expires_in === 'number' ? body.expires_in : undefined;
    const answer = token ? 'issued' : body?.error === 'invalid_client' ? 'invalid_client' : 'other';
    return { x, authorization, decoded, account, answer, ...(token !== undefined && { token }), ...(expiresIn !== undefined && { expiresIn }) };
  }

  /** A token sent where a password belongs (a UsernameToken of a later call): still a use of that token. */
  #tokenAsPassword(password: string | undefined): string | undefined {
    return password !== undefined && this.#issuedSoFar.has(password) ? password : undefined;
  }

  readonly #issuedSoFar = new Set<string>();

  #soapMessage(x: ObservedExchange): SoapMessage {
    const { request: req, response: res } = envelopesOf(x);
    const request = req.ok ? req.envelope : undefined;
    const response = res?.ok ? res.envelope : undefined;
    const answer = x.response ? classifySoap({ status: x.response.status, envelope: response, parseError: res && !res.ok ? res.message : undefined }, this.ctx.faultCodes) : undefined;
    const action = request?.action;
    const tokenIssued = answer?.kind === 'success' ? bst(response) : undefined;
    const s = request?.security;
    const password = s?.kind === 'usernameToken' ? s.password : s?.kind === 'both' ? s.usernameToken.password : undefined;
    return {
      x, request, ...(req.ok ? {} : { requestError: req.message }), response, answer, action, tokenUsed: action && TOKEN_CREATING.has(action) ? undefined : (bst(request) ?? this.#tokenAsPassword(password)),
      tokenIssued, account: this.accountByPassword(x.env, password),
    };
  }
}
