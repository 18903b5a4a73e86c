/**
 * The running judge: the client rules and the service rules the answers show, judged as the traffic comes, in the
 * order the batch judge reads it (by start, then `seq`: see start-order.ts), to the same verdicts as
 * `judgeTraffic` (judge.ts) on the whole traffic. What it keeps is what a verdict still needs: the tokens and
 * sessions in use (token-book.ts, bounded), each rule's first failure, counts and bounded evidence (fold-*.ts); the
 * exchanges themselves are dropped once read, so that an observation of any length is judged in bounded memory, and
 * its end is followed by its report in a time that does not grow with it.
 */
import type { EnvelopeValidator } from '../soap/index.ts';
import type { RuleId } from '../catalog/index.ts';
import { TOKEN_CREATING, type Problem } from '../judges/index.ts';
import { NEEDS_REST_TOKEN } from './client-rules.ts';
import { keptForEvidence, type JudgeContext, type ObservedExchange } from './exchange.ts';
import { isTokenRequest, readApiCall, readSoapMessage, readTokenRequest, soapUse, tokenInPlace, type IssuedToken, type SoapMessage, type TokenUse } from './exchange-facts.ts';
import { ApiCallFold } from './fold-api-calls.ts';
import { RefusalFold } from './fold-refusals.ts';
import { SessionFold } from './fold-sessions.ts';
import { expectedPcc, SoapFold } from './fold-soap.ts';
import { TokenRequestFold } from './fold-token-requests.ts';
import { OBSERVED_RULES, type Judgement } from './judge.ts';
import { TokenBook, type TokenRecord } from './token-book.ts';
import { brokenBy, type ClauseVerdict } from './verdict.ts';

export interface RunningJudgeOptions {
  /** Called with each exchange a verdict shows as evidence, before it is formatted (the observation registers its secrets). */
  readonly cite?: ((x: ObservedExchange) => void) | undefined;
  /** How many tokens the judge keeps (token-book.ts `TOKENS_KEPT`). */
  readonly tokensKept?: number | undefined;
  /** How many refusals it keeps whole (fold-refusals.ts `REFUSALS_KEPT`). */
  readonly refusalsKept?: number | undefined;
}

/** What the running judge holds, counted (tests show it does not grow with conforming traffic). */
export interface RetainedState {
  /** Tokens and sessions kept (token-book.ts). */
  readonly tokens: number;
  /** The clients' newest tokens and token requests in flight (API-04, API-05). */
  readonly clients: number;
  /** Refusals kept, and the uses after them (LIFE-03, SESS-07). */
  readonly refusals: number;
  /** SESS-08's spans that may still overlap a session, and runs of pool-full refusals. */
  readonly sessions: number;
  /** Envelopes waiting for their schema verdict. */
  readonly validationsWaiting: number;
  /** Tokens forgotten (folded into the rules' state). */
  readonly tokensForgotten: number;
}

export class RunningJudge {
  readonly #ctx: JudgeContext;
  readonly #cite: ((x: ObservedExchange) => void) | undefined;
  readonly #book: TokenBook;
  readonly #requests: TokenRequestFold;
  readonly #api: ApiCallFold;
  readonly #refusals: RefusalFold;
  readonly #sessions: SessionFold;
  readonly #soap: SoapFold;
  #exchanges = 0;
  #soapSeen = false;

  constructor(ctx: JudgeContext, options: RunningJudgeOptions = {}) {
    this.#ctx = ctx;
    this.#cite = options.cite;
    const fail = (p: Problem, xs?: ObservedExchange | readonly ObservedExchange[]): ClauseVerdict => {
      const list = xs === undefined ? [] : Array.isArray(xs) ? (xs as readonly ObservedExchange[]) : [xs as ObservedExchange];
      for (const x of list.slice(0, 3)) this.#cite?.(x);
      return brokenBy(p, xs);
    };
    this.#requests = new TokenRequestFold(fail);
    this.#api = new ApiCallFold(ctx, fail);
    this.#refusals = new RefusalFold(ctx, fail, options.refusalsKept);
    this.#sessions = new SessionFold(ctx, fail);
    this.#soap = new SoapFold(ctx, fail);
    this.#book = new TokenBook({
      kept: options.tokensKept,
      stillOpen: (r) => this.#sessions.stillOpen(r),
      onEvict: (r) => this.#sessions.evicted(r, () => this.#book.records()),
    });
  }

  /** Exchanges read so far. */
  get count(): number {
    return this.#exchanges;
  }

  /** Whether a SOAP exchange was read (the schema validator is needed). */
  get soapSeen(): boolean {
    return this.#soapSeen;
  }

  /**
   * Validates the envelopes with `validator` from now on (those read before first); `undefined`: none will come, the
   * schema clauses say so (without either, the envelopes wait for {@link finish}).
   */
  attachValidator(validator: EnvelopeValidator | undefined): void {
    this.#soap.validations.attach(validator);
  }

  retained(): RetainedState {
    return {
      tokens: this.#book.size, clients: this.#api.size, refusals: this.#refusals.size, sessions: this.#sessions.size, validationsWaiting: this.#soap.validations.waiting,
      tokensForgotten: this.#book.evicted,
    };
  }

  /** Reads the next exchange: each must come after the one before by start, then `seq`. */
  add(x: ObservedExchange): void {
    this.#exchanges++;
    this.#sessions.watermark = x.startedAt;
    this.#sessions.observedUntil = Math.max(this.#sessions.observedUntil, x.startedAt);
    if (x.protocol === 'rest' && isTokenRequest(x)) {
      const r = readTokenRequest(x, this.#ctx);
      this.#requests.add(r);
      let record: TokenRecord | undefined;
      let issued: IssuedToken | undefined;
      if (r.token) {
        issued = { value: r.token, kind: 'sessionless', env: x.env, via: 'rest', issuedAt: x.endedAt, expiresIn: r.expiresIn, account: r.account, seq: x.seq };
        record = this.#book.issue(issued);
        record.issuedSeen = true;
      }
      this.#api.tokenRequest(r, record, issued);
      if (r.token) this.#refusals.obtained(x);
      return;
    }
    if (x.protocol === 'rest') {
      const { call, use } = readApiCall(x);
      this.#api.call(call);
      if (use) this.#use(use, undefined);
      return;
    }
    this.#soapSeen = true;
    const m = readSoapMessage(x, this.#ctx, (value) => this.#book.get(value)?.issuedSeen === true);
    const use = soapUse(m);
    const record = m.tokenUsed !== undefined ? this.#book.get(m.tokenUsed) : undefined;
    const issuedBefore = record?.issued;
    const caller = expectedPcc(m, () => {
      if (issuedBefore) return issuedBefore.account;
      const inEnv = m.x.env ? (this.#ctx.accounts[m.x.env] ?? []) : [];
      return inEnv.length === 1 ? inEnv[0] : undefined;
    });
    const closedBefore = record !== undefined && record.closeAnsweredAt <= x.startedAt;
    this.#sessions.request(m, issuedBefore);
    this.#soap.add(m, caller, use?.refused === true, closedBefore);
    if (m.tokenIssued) this.#book.at(m.tokenIssued).issuedSeen = true;
    if (m.tokenIssued && m.action && TOKEN_CREATING.has(m.action)) {
      const session = m.action === 'SessionCreateRQ';
      const issued: IssuedToken = { value: m.tokenIssued, kind: session ? 'session' : 'sessionless', env: x.env, via: 'soap', issuedAt: x.endedAt, expiresIn: undefined, account: m.account, seq: x.seq };
      this.#book.issue(issued, session ? {
        create: keptForEvidence(x), closedAt: undefined, failedAnswered: undefined, failedUnanswered: undefined, conversations: [m.request?.messageHeader?.conversationId], inSession: 0, firstCalls: [], lastCallAt: undefined,
      } : undefined);
      this.#refusals.obtained(x);
    }
    if (use) this.#use(use, m);
  }

  #use(u: TokenUse, m: SoapMessage | undefined): void {
    const r = this.#book.at(u.token);
    this.#book.touch(r);
    r.uses++;
    if (u.rejected) {
      r.minRejectedEnd = Math.min(r.minRejectedEnd, u.x.endedAt);
      r.firstRejectedEnd ??= u.x.endedAt;
    }
    if (u.x.protocol === 'rest') {
      if (r.lastRestEnd !== undefined && u.x.startedAt < r.lastRestEnd) r.restOverlap = true;
      r.lastRestEnd = u.x.endedAt;
    }
    if (m) {
      if (m.action === 'SessionCloseRQ' && tokenInPlace(m)) r.closeAnsweredAt = Math.min(r.closeAnsweredAt, u.x.endedAt);
      this.#sessions.call(m, r);
    }
    this.#api.use(u, r.issued, m?.action);
    this.#refusals.used(u, r.issued, m ? (m.action ?? u.x.request.path) : u.x.request.path);
  }

  /**
   * The verdicts so far: every clause of every selected rule, as `judgeTraffic` gives them on the traffic read.
   * `validator`: attached now if none was (the envelopes read so far are validated first).
   */
  async finish(options: { readonly wholeRun?: boolean; readonly validator?: EnvelopeValidator | undefined; readonly only?: readonly RuleId[] | undefined } = {}): Promise<Judgement> {
    if (options.validator) this.attachValidator(options.validator);
    const validated = this.#soap.validations.attached;
    await this.#soap.validations.drain();
    const ctx: JudgeContext = options.wholeRun === undefined ? this.#ctx : { ...this.#ctx, wholeRun: options.wholeRun };
    const accountsKnown = Object.values(ctx.accounts).some((a) => (a?.length ?? 0) > 0);
    const { life03, sess07 } = this.#refusals.verdicts();
    const soap = this.#soap.client(validated, accountsKnown);
    const s = this.#sessions.verdicts([...this.#book.records()], ctx.wholeRun);
    const client = this.#requests.prerequisites([
      ...this.#requests.cred(accountsKnown),
      ...this.#requests.rest01(),
      ...this.#api.api03(),
      this.#api.api04(),
      this.#api.api05(),
      ...life03,
      ...soap.soap01,
      ...soap.soap03,
      ...soap.soap04,
      soap.cpaid, s.conversation,
      ...s.sess05,
      ...s.sess06,
      sess07,
      ...s.sess08,
      ...this.#api.env02(),
      ...this.#requests.err06(),
    ], NEEDS_REST_TOKEN);
    const service = this.#soap.service(validated);
    const all = [...client, ...this.#requests.rest03and05(), ...service.soap02, ...service.stok, ...this.#requests.err03(), ...service.err0405];
    const selection = options.only ? OBSERVED_RULES.filter((id) => options.only!.includes(id)) : OBSERVED_RULES;
    const ruleOf = (clause: string) => clause.slice(0, clause.indexOf('.'));
    return { verdicts: all.filter((c) => selection.includes(ruleOf(c.clause) as RuleId)), selection };
  }
}
