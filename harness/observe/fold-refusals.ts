/**
 * LIFE-03 and SESS-07 as the traffic comes: refused tokens are not sent again. Per refused token, what its verdict
 * needs (client-rules.ts `refusals` reads the same from the whole traffic): the first refused use, the uses of the
 * token sent after its answer (compact: times and names; the exchanges of the first few, for evidence), the calls in
 * flight when it came (from the last {@link IN_FLIGHT_LOOKBACK} calls of its environment), the renewal and whether
 * the client went on. What grows: one entry per refused token, and one per resend of a refused token (a deviation).
 */
import { life03Problem, plural, sess07Problem, type Life03Clause } from '../judges/index.ts';
import type { Environment } from '../catalog/index.ts';
import { at, IN_FLIGHT_LOOKBACK, RESEND_AFTER_MOVING_ON, RESEND_CHAIN, sentAfterAnswer, shortOfThreshold } from './client-rules.ts';
import { keptForEvidence, sentFrom, type JudgeContext, type ObservedExchange } from './exchange.ts';
import type { IssuedToken, TokenUse } from './exchange-facts.ts';
import { held, notSeen, undecided, type ClauseVerdict } from './verdict.ts';
import type { Problem } from '../judges/index.ts';

/** A use sent after the refusal was answered, as kept. */
interface LaterUse {
  readonly seq: number;
  readonly sentFrom: number;
  readonly endedAt: number;
  /** What SESS-07 names it by: its eb:Action, or its path. */
  readonly label: string;
}

interface Refusal {
  readonly token: string;
  readonly kind: 'sessionless' | 'session';
  readonly first: ObservedExchange;
  readonly env: Environment | undefined;
  readonly lifetimeEnd: number;
  readonly later: LaterUse[];
  /** The exchanges of the first later uses and of the first of each chain (evidence), by seq. */
  readonly kept: Map<number, ObservedExchange>;
  /** The chain from the refusal's answer, and from the first use of another token after the renewal, as they come. */
  chainKnown: number;
  chainKept: number;
  afterKnown: number | undefined;
  afterKept: number;
  inFlight: number | undefined;
  renewalEnd: number | undefined;
  wentOn: boolean;
  movedOnEnd: number | undefined;
}

/** A call as {@link inFlightAt} reads it. */
interface RecentCall {
  readonly seq: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly earliestSend: number | undefined;
}

const EVIDENCE_KEPT = 2;

/**
 * Refusals kept whole by default. Beyond, the oldest settled ones (renewed, the client gone on, and so far judged as
 * never sent again) are counted and forgotten: a token sent again after as many other tokens were refused and
 * replaced is then not known as refused (see docs/traffic.md).
 */
export const REFUSALS_KEPT = 256;

type Group = 'LIFE-03.after-expiry' | 'LIFE-03.after-refusal' | 'SESS-07';

/** Calls of `first`'s environment in flight when its answer came, among the last calls before it (client-rules.ts `inFlightAt`). */
function inFlightAt(recent: readonly RecentCall[], first: ObservedExchange): number {
  let n = 0;
  for (let i = recent.length - 1; i >= 0 && i >= recent.length - IN_FLIGHT_LOOKBACK; i--) {
    const c = recent[i] as RecentCall;
    const sentAfter = c.earliestSend !== undefined ? c.earliestSend >= first.endedAt : c.startedAt > first.endedAt;
    if (c.seq !== first.seq && c.endedAt >= first.endedAt && !sentAfter) n++;
  }
  return n;
}

export class RefusalFold {
  readonly #ctx: JudgeContext;
  readonly #fail: (p: Problem, xs?: readonly ObservedExchange[]) => ClauseVerdict;
  readonly #refusals: Refusal[] = [];
  readonly #byToken = new Map<string, Refusal>();
  /** Per environment, its last calls (a ring of {@link IN_FLIGHT_LOOKBACK}), and the refusals waiting for them. */
  readonly #recent = new Map<Environment | undefined, RecentCall[]>();
  /** Refusals whose renewal, going on, calls in flight or moving on is still to come. */
  #open: Refusal[] = [];
  #lastEnd = -Infinity;
  #concurrent = false;
  readonly #kept: number;
  /** Refusals forgotten, per clause: how many, and how many of them the client went on after. */
  readonly #folded = new Map<Group, { n: number; wentOn: number }>();

  constructor(ctx: JudgeContext, fail: (p: Problem, xs?: readonly ObservedExchange[]) => ClauseVerdict, kept = REFUSALS_KEPT) {
    this.#ctx = ctx;
    this.#fail = fail;
    this.#kept = kept;
  }

  /** Refusals kept, and the uses after them kept. */
  get size(): number {
    return this.#refusals.length + this.#refusals.reduce((n, r) => n + r.later.length, 0);
  }

  #expired(r: Refusal): boolean {
    const expiredAt = this.#ctx.expired.get(r.token);
    return (expiredAt !== undefined && expiredAt <= r.first.endedAt) || r.lifetimeEnd <= r.first.startedAt;
  }

  /** Counts and forgets the oldest settled refusals beyond {@link REFUSALS_KEPT}. */
  #bound(): void {
    if (this.#refusals.length <= this.#kept) return;
    // Settled: renewed, the client gone on, and so far judged as a token never sent again.
    const settled = (r: Refusal) => {
      if (r.inFlight === undefined || !r.wentOn || r.movedOnEnd === undefined) return false;
      const j = this.#judged(r);
      return j.resent.length === 0 && j.later === 0;
    };
    let excess = this.#refusals.length - this.#kept;
    const kept: Refusal[] = [];
    for (const r of this.#refusals) {
      if (excess > 0 && settled(r)) {
        excess--;
        const group: Group = r.kind === 'session' ? 'SESS-07' : this.#expired(r) ? 'LIFE-03.after-expiry' : 'LIFE-03.after-refusal';
        const f = this.#folded.get(group) ?? { n: 0, wentOn: 0 };
        f.n++;
        f.wentOn++;
        this.#folded.set(group, f);
        this.#byToken.delete(r.token);
      } else kept.push(r);
    }
    this.#refusals.splice(0, this.#refusals.length, ...kept);
  }

  /** An exchange that obtained a token. */
  obtained(x: ObservedExchange): void {
    this.#settle(x);
    for (const r of this.#open) {
      if (r.env !== x.env || x.startedAt < r.first.endedAt) continue;
      r.renewalEnd ??= x.endedAt;
      r.wentOn = true;
    }
    this.#prune();
  }

  /** A use of a token; `issued`: how that token was issued, when known; `label`: the request's eb:Action or path. */
  used(u: TokenUse, issued: IssuedToken | undefined, label: string): void {
    const x = u.x;
    this.#settle(x);
    if (x.startedAt < this.#lastEnd) this.#concurrent = true;
    this.#lastEnd = Math.max(this.#lastEnd, x.endedAt);
    for (const r of this.#open) {
      if (r.env !== x.env || r.token === u.token) continue;
      if (!r.wentOn && x.startedAt >= r.first.endedAt) r.wentOn = true;
      if (r.renewalEnd !== undefined && r.movedOnEnd === undefined && x.startedAt >= r.renewalEnd) {
        r.movedOnEnd = x.endedAt;
        r.afterKnown = x.endedAt;
      }
    }
    const r = this.#byToken.get(u.token);
    if (r && x.seq !== r.first.seq && sentAfterAnswer(x, r.first)) this.#later(r, x, label);
    if (u.refused && !r) {
      const kind = issued?.kind ?? (x.protocol === 'rest' ? 'sessionless' : 'session');
      const lifetimeEnd = issued?.expiresIn !== undefined ? issued.issuedAt + issued.expiresIn * 1000 : Infinity;
      const made: Refusal = {
        token: u.token, kind, first: keptForEvidence(x), env: x.env, lifetimeEnd, later: [], kept: new Map(), chainKnown: x.endedAt, chainKept: 0, afterKnown: undefined, afterKept: 0,
        inFlight: undefined, renewalEnd: undefined, wentOn: false, movedOnEnd: undefined,
      };
      this.#refusals.push(made);
      this.#byToken.set(u.token, made);
      this.#open.push(made);
    }
    let recent = this.#recent.get(x.env);
    if (!recent) this.#recent.set(x.env, (recent = []));
    recent.push({ seq: x.seq, startedAt: x.startedAt, endedAt: x.endedAt, earliestSend: x.earliestSend });
    if (recent.length > 2 * IN_FLIGHT_LOOKBACK) recent.splice(0, recent.length - IN_FLIGHT_LOOKBACK);
    this.#prune();
  }

  #later(r: Refusal, x: ObservedExchange, label: string): void {
    const sent = sentFrom(x);
    r.later.push({ seq: x.seq, sentFrom: sent, endedAt: x.endedAt, label });
    let keep = r.later.length <= EVIDENCE_KEPT;
    if (sent >= r.chainKnown) {
      r.chainKnown = x.endedAt;
      if (r.chainKept++ < EVIDENCE_KEPT) keep = true;
    }
    if (r.afterKnown !== undefined && sent >= r.afterKnown) {
      r.afterKnown = x.endedAt;
      if (r.afterKept++ < EVIDENCE_KEPT) keep = true;
    }
    if (keep) r.kept.set(x.seq, keptForEvidence(x));
  }

  /** The calls in flight at each refusal whose answer is now past (a use of its environment started after it). */
  #settle(x: ObservedExchange): void {
    for (const r of this.#open) {
      if (r.inFlight === undefined && x.startedAt > r.first.endedAt) r.inFlight = inFlightAt(this.#recent.get(r.env) ?? [], r.first);
    }
  }

  #prune(): void {
    this.#bound();
    if (this.#open.some((r) => r.inFlight !== undefined && r.wentOn && r.movedOnEnd !== undefined)) {
      this.#open = this.#open.filter((r) => !(r.inFlight !== undefined && r.wentOn && r.movedOnEnd !== undefined));
    }
  }

  /** The uses that count as resends (client-rules.ts `resends`), and the later uses no call in flight explains. */
  #judged(r: Refusal): { readonly resent: readonly LaterUse[]; readonly later: number; readonly inFlight: number; readonly expired: boolean } {
    const inFlight = r.later.length > 0 ? (r.inFlight ?? inFlightAt(this.#recent.get(r.env) ?? [], r.first)) : 0;
    const isConcurrent = inFlight > 0 || (r.later.length > 0 && this.#concurrent);
    const expired = this.#expired(r);
    const chainFrom = (from: number): LaterUse[] => {
      const chain: LaterUse[] = [];
      let known = from;
      for (const l of r.later) {
        if (l.sentFrom < known) continue;
        chain.push(l);
        known = l.endedAt;
      }
      return chain;
    };
    let resent: readonly LaterUse[];
    if (!isConcurrent) resent = r.later;
    else if (r.later.length === 0) resent = [];
    else {
      const afterMovingOn = r.movedOnEnd !== undefined ? chainFrom(r.movedOnEnd) : [];
      const chain = chainFrom(r.first.endedAt);
      resent = afterMovingOn.length >= RESEND_AFTER_MOVING_ON ? afterMovingOn : chain.length >= RESEND_CHAIN ? chain : [];
    }
    return { resent, later: isConcurrent ? Math.max(0, r.later.length - inFlight) : r.later.length, inFlight, expired };
  }

  #evidence(r: Refusal, resent: readonly LaterUse[]): ObservedExchange[] {
    return [r.first, ...resent.flatMap((l) => {
      const x = r.kept.get(l.seq);
      return x ? [x] : [];
    })];
  }

  /** LIFE-03's clauses and SESS-07's. */
  verdicts(): { readonly life03: ClauseVerdict[]; readonly sess07: ClauseVerdict } {
    const judged = this.#refusals.map((r) => ({ r, ...this.#judged(r) }));
    type Judged = (typeof judged)[number];
    const short = (list: readonly Judged[]) => {
      const s = list.find((j) => j.later > 0);
      return s && shortOfThreshold({ first: s.r.first, inFlight: s.inFlight, later: { length: s.later } });
    };
    const sim = this.#ctx.source === 'observe-sim';
    const sessionless = judged.filter((j) => j.r.kind === 'sessionless');
    const judge = (clause: Life03Clause, list: readonly Judged[], none: string): ClauseVerdict => {
      const folded = this.#folded.get(clause) ?? { n: 0, wentOn: 0 };
      const p = life03Problem(clause, list.map((j) => ({ first: at(j.r.first), resent: j.resent.map((l) => `#${l.seq}`) })));
      const resent = list.find((j) => j.resent.length > 0);
      if (p) return this.#fail(p, resent && this.#evidence(resent.r, resent.resent));
      const why = short(list);
      if (why) return undecided(clause, why);
      const wentOn = list.filter((j) => j.r.wentOn).length + folded.wentOn;
      if (wentOn === 0) return notSeen(clause, list.length + folded.n === 0 ? none : 'the traffic ends after the refusal: whether the client obtains a new token is not seen');
      return held(clause, `${plural(wentOn, 'refused token')} replaced by a new one and never sent again`);
    };
    const life03 = [
      judge('LIFE-03.after-expiry', sessionless.filter((j) => j.expired), sim
        ? 'no expired token seen: use `--inject expire-tokens-after=<s>` so that the application\'s tokens expire during the workload'
        : 'no expired token seen: record a workload that runs past a token\'s lifetime (or observe it against the simulator with `--inject expire-tokens-after=<s>`)'),
      judge('LIFE-03.after-refusal', sessionless.filter((j) => !j.expired), sim
        ? 'no refused token seen: use `--inject unauthorized-once` so that the service refuses the application\'s token once'
        : 'no refused token seen: observe the application against the simulator with `--inject unauthorized-once`'),
    ];
    const sessions = judged.filter((j) => j.r.kind === 'session');
    let sess07: ClauseVerdict | undefined;
    for (const j of sessions) {
      const p = sess07Problem(j.resent.map((l) => l.label));
      if (p) {
        sess07 = this.#fail(p, this.#evidence(j.r, j.resent));
        break;
      }
    }
    if (!sess07) {
      const why = short(sessions);
      if (why) sess07 = undecided('SESS-07.no-reuse', why);
      else if (sessions.length + (this.#folded.get('SESS-07')?.n ?? 0) === 0) {
        sess07 = notSeen('SESS-07.no-reuse', sim ? 'no Client.InvalidSecurityToken seen for a session token: use `--inject close-sessions` so that the service drops the application\'s sessions'
          : 'no Client.InvalidSecurityToken seen for a session token: observe the application against the simulator with `--inject close-sessions`');
      } else sess07 = held('SESS-07.no-reuse', `${plural(sessions.length + (this.#folded.get('SESS-07')?.n ?? 0), 'refused session token')}, none sent again`);
    }
    return { life03, sess07 };
  }
}
