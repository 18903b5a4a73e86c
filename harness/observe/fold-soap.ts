/**
 * The rules judged on each SOAP exchange, as the traffic comes (client-rules.ts and service-rules.ts read the same
 * from the whole traffic): the client's SOAP-01, SOAP-03, SOAP-04, SOAP-05.cpaid, and the service's SOAP-02, STOK-01,
 * STOK-02, ERR-04, ERR-05. Each keeps its first failure and counts; the schema verdicts come in order through
 * {@link InOrderValidations}.
 */
import {
  answerKind, answerSchema, err04Problem, err05Observation, plural, soap01HeaderProblems, soap01SchemaProblem, soap01SchemaVerdict, soap02Problem, soap02SchemaProblem, soap03ManifestProblem,
  soap03UsernameTokenProblem, soap04ActionProblem, soap04TokenProblem, soap05CpaIdProblem, STOK_CLAUSES, stokProblems, TOKEN_CREATING, type AnswerKind, type Problem,
} from '../judges/index.ts';
import { ACCOUNT_HINT } from './client-rules.ts';
import type { Verdict } from '../soap/index.ts';
import { keptForEvidence, type JudgeContext, type KnownAccount, type ObservedExchange } from './exchange.ts';
import type { SoapMessage } from './exchange-facts.ts';
import { InOrderValidations } from './validations.ts';
import { transportAnswer } from '../targets/throttle.ts';
import { held, notSeen, type ClauseVerdict } from './verdict.ts';

type Fail = (p: Problem, xs?: ObservedExchange | readonly ObservedExchange[]) => ClauseVerdict;

const KINDS: readonly AnswerKind[] = ['token-create', 'session-create', 'session-close', 'call', 'fault'];

export class SoapFold {
  readonly #ctx: JudgeContext;
  readonly #fail: Fail;
  readonly validations = new InOrderValidations();
  readonly #first = new Map<string, ClauseVerdict>();
  #sent = 0;
  #creating = 0;
  #creatingKnown = false;
  #later = 0;
  #cpaidJudged = 0;
  #requests = 0;
  #schema: ClauseVerdict | undefined;
  // SOAP-02, STOK, ERR-04, ERR-05
  readonly #kindFound = new Map<AnswerKind, ClauseVerdict>();
  readonly #kindCount = new Map<AnswerKind, number>();
  readonly #stokCount = new Map<string, number>();
  readonly #err04Count = new Map<string, number>();
  #faults = 0;
  readonly #faultStatuses = new Set<number>();

  constructor(ctx: JudgeContext, fail: Fail) {
    this.#ctx = ctx;
    this.#fail = fail;
  }

  #firstOf(p: Problem, x: ObservedExchange): void {
    if (!this.#first.has(p.clause)) this.#first.set(p.clause, this.#fail(p, x));
  }

  /**
   * A SOAP exchange. `caller`: the account whose PCC (or declared iPCC) its eb:CPAId must carry (that of its
   * credentials or token), when known; `refusedToken`: the token it carried in wsse:BinarySecurityToken was refused as invalid; `closedBefore`:
   * that token's session was closed (SessionCloseRQ answered) before the request started.
   */
  add(m: SoapMessage, caller: KnownAccount | undefined, refusedToken: boolean, closedBefore: boolean): void {
    this.#sent++;
    // SOAP-01: the judges of the client suite (harness/judges), on every request; the schema in order.
    for (const p of soap01HeaderProblems({ body: m.x.request.body, envelope: m.request, ...(m.requestError !== undefined && { error: m.requestError }) })) this.#firstOf(p, m.x);
    if (!this.#schema) {
      // What waits for the verdict is the exchange without its parsed envelopes (they go as soon as it is read).
      const x = keptForEvidence(m.x);
      const action = m.action;
      this.validations.push((v) => (this.#schema ? undefined : soap01SchemaVerdict(x.request.body, action, (xml, schema) => v.validate(xml, schema))), (verdict) => {
        if (this.#schema || !verdict) return;
        const p = soap01SchemaProblem(verdict, action);
        if (p) this.#schema = this.#fail(p, x);
      });
    }
    if (m.request) {
      this.#requests++;
      if (TOKEN_CREATING.has(m.action ?? '')) {
        this.#creating++;
        if (m.account) this.#creatingKnown = true;
        const u = soap03UsernameTokenProblem(m.request, m.account);
        if (u) this.#firstOf(u, m.x);
        const man = soap03ManifestProblem(m.request);
        if (man) this.#firstOf(man, m.x);
      } else {
        this.#later++;
        const b = soap04TokenProblem(m.request);
        if (b) this.#firstOf(b, m.x);
        const a = soap04ActionProblem([m.request]);
        if (a) this.#firstOf(a.problem, m.x);
      }
      if (caller !== undefined) {
        this.#cpaidJudged++;
        const p = soap05CpaIdProblem(m.request, caller.pcc, caller.groupAlternatives);
        if (p) this.#firstOf(p, m.x);
      }
    }
    this.#answer(m, refusedToken, closedBefore);
  }

  #answer(m: SoapMessage, refusedToken: boolean, closedBefore: boolean): void {
    // An answer whose body the recording did not keep is not judged (a HAR without content.text), and neither is a
    // throttle or a gateway's error (the transport's, not the service's answer).
    const res = m.x.response?.bodyMissing || (m.x.response && transportAnswer(m.x.request, m.x.response, this.#ctx.faultCodes)) ? undefined : m.x.response;
    // SOAP-02: the judge of the suites (harness/judges), each answer's kind in order, the schema validated ahead.
    if (m.request && res && m.request.messageHeader?.messageData?.messageId) {
      const kind = answerKind(m.response, m.action);
      const req = m.request.messageHeader;
      const what = m.action ?? 'a request';
      // The judge of the suites (harness/judges) on all but the schema now; the schema's verdict, in turn.
      const unvalidated = soap02Problem({ what, kind, status: res.status, envelope: m.response }, { conversationId: req.conversationId, messageId: req.messageData?.messageId });
      const envelope = m.response !== undefined;
      const x = keptForEvidence(m.x);
      const judge = (schema: Verdict | undefined) => {
        this.#kindCount.set(kind, (this.#kindCount.get(kind) ?? 0) + 1);
        if (this.#kindFound.has(kind)) return;
        const p = (envelope ? soap02SchemaProblem({ what, kind, schema }) : undefined) ?? unvalidated;
        if (p) this.#kindFound.set(kind, this.#fail(p, x));
      };
      this.validations.push((v) => (envelope && !this.#kindFound.has(kind) ? v.validate(x.response!.body, answerSchema(kind)) : undefined), judge);
    }
    // STOK-01, STOK-02 on every successful answer.
    if ((m.action === 'TokenCreateRQ' || m.action === 'SessionCreateRQ') && m.answer?.kind === 'success' && m.response) {
      this.#stokCount.set(m.action, (this.#stokCount.get(m.action) ?? 0) + 1);
      const req = m.request?.messageHeader;
      for (const p of stokProblems(m.action, m.response, { conversationId: req?.conversationId, messageId: req?.messageData?.messageId })) this.#firstOf(p, m.x);
    }
    // ERR-04 on faults for a token sent in wsse:BinarySecurityToken.
    if (m.tokenUsed && m.answer?.kind === 'refused' && m.answer.why === 'invalid-token' && refusedToken && res) {
      // Expired by then (a token refused before its expiry was injected is refused for another reason).
      const expired = (this.#ctx.expired.get(m.tokenUsed) ?? Infinity) <= m.x.endedAt;
      const clause = closedBefore ? 'ERR-04.closed-session' : expired ? 'ERR-04.expired-session' : 'ERR-04.unknown-token';
      this.#err04Count.set(clause, (this.#err04Count.get(clause) ?? 0) + 1);
      if (!this.#first.has(clause)) {
        const p = err04Problem(clause, { status: res.status, envelope: m.response }, m.tokenUsed, `${m.action ?? 'a request'} with a refused token`);
        if (p) this.#first.set(clause, this.#fail({ ...p, actual: p.actual.replaceAll(m.tokenUsed, '<token>') }, m.x));
      }
    }
    if (m.response?.fault && res) {
      this.#faults++;
      this.#faultStatuses.add(res.status);
    }
  }

  /** SOAP-01, SOAP-03, SOAP-04, SOAP-05.cpaid (the conversation is the sessions'), once the validations are in. */
  client(validated: boolean, accountsKnown: boolean): { soap01: ClauseVerdict[]; soap03: ClauseVerdict[]; soap04: ClauseVerdict[]; cpaid: ClauseVerdict } {
    const f = (c: string, otherwise: ClauseVerdict) => this.#first.get(c) ?? otherwise;
    let soap01: ClauseVerdict[];
    if (this.#sent === 0) {
      const none = 'no SOAP request seen: let the application make a SOAP call';
      soap01 = ['SOAP-01.message-header', 'SOAP-01.security-header', 'SOAP-01.schema'].map((c) => notSeen(c, none));
    } else {
      const seen = `${plural(this.#sent, 'SOAP request')}`;
      const schema = !validated ? notSeen('SOAP-01.schema', 'no schema validator could start (neither libxml2-wasm in this process nor a JDK 17 for the JVM helper)') : this.#schema ?? held('SOAP-01.schema', seen);
      soap01 = [f('SOAP-01.message-header', held('SOAP-01.message-header', seen)), f('SOAP-01.security-header', held('SOAP-01.security-header', seen)), schema];
    }
    let soap03: ClauseVerdict[];
    if (this.#creating === 0) {
      const none = 'no TokenCreateRQ or SessionCreateRQ seen: let the application obtain a SOAP token or open a session';
      soap03 = [notSeen('SOAP-03.username-token', none), notSeen('SOAP-03.manifest', none)];
    } else {
      const seen = `${plural(this.#creating, 'token-creating request')}`;
      const identity = this.#creatingKnown ? ' (Username and Organization compared with the account)' : '';
      soap03 = [f('SOAP-03.username-token', held('SOAP-03.username-token', `${seen}${identity}`)), f('SOAP-03.manifest', held('SOAP-03.manifest', seen))];
    }
    let soap04: ClauseVerdict[];
    if (this.#later === 0) {
      const none = 'no SOAP call after token creation seen: let the application call a SOAP API with its token';
      soap04 = [notSeen('SOAP-04.binary-security-token', none), notSeen('SOAP-04.action-code', none)];
    } else {
      const seen = `${plural(this.#later, 'SOAP call')}`;
      soap04 = [f('SOAP-04.binary-security-token', held('SOAP-04.binary-security-token', seen)), f('SOAP-04.action-code', held('SOAP-04.action-code', seen))];
    }
    const cpaid = this.#requests === 0 ? notSeen('SOAP-05.cpaid', 'no SOAP request seen: let the application make a SOAP call')
      : this.#first.get('SOAP-05.cpaid') ?? (this.#cpaidJudged > 0 ? held('SOAP-05.cpaid', `${plural(this.#cpaidJudged, 'SOAP request')} with the account's PCC`)
      : notSeen('SOAP-05.cpaid', accountsKnown ? 'the SOAP requests carry credentials or tokens of no account the harness knows' : `the caller's PCC is not known: ${ACCOUNT_HINT}`));
    return { soap01, soap03, soap04, cpaid };
  }

  /** SOAP-02, STOK-01, STOK-02, then (after ERR-03, the token requests') ERR-04 and ERR-05. */
  service(validated: boolean): { soap02: ClauseVerdict[]; stok: ClauseVerdict[]; err0405: ClauseVerdict[] } {
    const soap02 = KINDS.map((k) => this.#kindFound.get(k) ?? ((this.#kindCount.get(k) ?? 0) > 0
      ? held(`SOAP-02.${k}`, `${plural(this.#kindCount.get(k)!, 'answer')}${validated ? '' : ' (schema not validated: no validator)'}`)
      : notSeen(`SOAP-02.${k}`, `no such answer seen (${k === 'fault' ? 'a SOAP fault' : k.replace('-', ' ')})`)));
    const judge = (action: 'TokenCreateRQ' | 'SessionCreateRQ', clauses: readonly string[]): ClauseVerdict[] => {
      const n = this.#stokCount.get(action) ?? 0;
      if (n === 0) return clauses.map((c) => notSeen(c, `no successful ${action} seen`));
      const seen = plural(n, `answer to ${action}`);
      return clauses.map((c): ClauseVerdict => this.#first.get(c)
        ?? (c === 'STOK-01.sessionless' ? notSeen(c, 'whether a session was allocated is not in the traffic (the service suite checks it on the simulator)') : held(c, seen)));
    };
    const [action, token, ...rest] = STOK_CLAUSES.TokenCreateRQ;
    const stok = [...judge('TokenCreateRQ', [action, token, 'STOK-01.sessionless', ...rest]), ...judge('SessionCreateRQ', STOK_CLAUSES.SessionCreateRQ)];
    const err0405: ClauseVerdict[] = ['ERR-04.unknown-token', 'ERR-04.closed-session', 'ERR-04.expired-session'].map((clause) => {
      const n = this.#err04Count.get(clause) ?? 0;
      return n === 0 ? notSeen(clause, 'no such Client.InvalidSecurityToken fault seen') : this.#first.get(clause) ?? held(clause, plural(n, 'fault'));
    });
    if (this.#faults === 0) err0405.push(notSeen('ERR-05.fault-status', 'no SOAP fault seen'));
    else {
      const info = err05Observation([...this.#faultStatuses]);
      err0405.push({ clause: 'ERR-05.fault-status', status: 'info', ...info, observed: `${info.observed} (${plural(this.#faults, 'fault')})` });
    }
    return { soap02, stok, err0405 };
  }
}

/** The account whose PCC (or declared iPCC) a SOAP request must carry in eb:CPAId (client-rules.ts `expectedPcc`), given the account of its token. */
export function expectedPcc(m: SoapMessage, tokenAccount: () => KnownAccount | undefined): KnownAccount | undefined {
  return TOKEN_CREATING.has(m.action ?? '') ? m.account : tokenAccount();
}
