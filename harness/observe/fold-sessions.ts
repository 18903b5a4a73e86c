/**
 * The session rules as the traffic comes (client-rules.ts reads the same from the whole traffic): SESS-05 on each
 * SessionCloseRQ, SOAP-05's ConversationId, SESS-06 and SESS-08 per session. A session's facts live with its token
 * (token-book.ts) while it is kept, and are folded here when it is forgotten: counts, the first failure, and for
 * SESS-08 the spans that may still overlap a session to come (an open session holds back the spans after it).
 */
import {
  peakOpen, plural, STORM_GAP_MS, sess05BodyProblem, sess05HeaderProblem, sess06Problem, sess08PoolProblem, sess08StormProblem, soap05ConversationIdsProblem,
  type Problem, type SessionSeen, type SessionSpan,
} from '../judges/index.ts';
import type { Environment } from '../catalog/index.ts';
import { keptForEvidence, type JudgeContext, type KnownAccount, type ObservedExchange } from './exchange.ts';
import type { IssuedToken, SoapMessage } from './exchange-facts.ts';
import { callFailed, conversationsUnchecked, heldUntil, isClose, poolBoundWithOpenSessions } from './client-rules.ts';
import type { TokenRecord } from './token-book.ts';
import { held, notSeen, type ClauseVerdict } from './verdict.ts';

type Fail = (p: Problem, xs?: ObservedExchange | readonly ObservedExchange[]) => ClauseVerdict;

/**
 * SESS-08's spans kept per account at most: a session that stays open while more than as many others of its account
 * open and close holds back their spans (it may still be closed, and overlap them); beyond, the oldest are forgotten,
 * which can only lower the peak counted for that session, never raise it.
 */
export const SPANS_KEPT = 1_024;

interface PoolGroup {
  /** The issue order of its first session (groups are judged in that order), and its pool. */
  first: number;
  pool: number | undefined;
  peak: number;
  /** Spans folded that may still overlap a span to come. */
  spans: SessionSpan[];
  pruneAt: number;
}

interface Storm {
  /** The order of its first refusal (conversations are judged in that order). */
  readonly first: number;
  lastEnd: number;
  run: ObservedExchange[];
  runLength: number;
  best: ObservedExchange[];
  bestLength: number;
}

/** A session's end as SESS-06 and SESS-08 read it: when the service ended it (refused its token, or it expired). */
function endedAt(r: TokenRecord, ctx: JudgeContext): number | undefined {
  const ends = [r.firstRejectedEnd, ctx.expired.get(r.value)].filter((n): n is number => n !== undefined);
  return ends.length ? Math.min(...ends) : undefined;
}

const isSession = (r: TokenRecord): boolean => r.issued?.kind === 'session' && r.session !== undefined;

export class SessionFold {
  readonly #ctx: JudgeContext;
  readonly #fail: Fail;
  // SESS-05
  #closes = 0;
  #closeHeader: ClauseVerdict | undefined;
  #closeBody: ClauseVerdict | undefined;
  // SESS-06, SOAP-05, SESS-08 of the sessions forgotten
  #sessions = 0;
  #failed = 0;
  #conversationSessions = 0;
  #conversation: { order: number; verdict: ClauseVerdict } | undefined;
  readonly #groups = new Map<string, PoolGroup>();
  readonly #storms = new Map<string, Storm>();
  #poolFull = 0;
  /** When the exchange being read started: no session to come opens earlier. */
  watermark = -Infinity;
  /** The start of the latest exchange read: how far the observation went. */
  observedUntil = -Infinity;

  constructor(ctx: JudgeContext, fail: Fail) {
    this.#ctx = ctx;
    this.#fail = fail;
  }

  /** What the fold keeps: SESS-08's spans, and the runs of pool-full refusals. */
  get size(): number {
    let n = this.#storms.size;
    for (const g of this.#groups.values()) n += g.spans.length;
    return n;
  }

  /** A session that a verdict still waits on: neither closed nor ended. */
  stillOpen(r: TokenRecord): boolean {
    return isSession(r) && r.session!.closedAt === undefined && r.firstRejectedEnd === undefined && !this.#ctx.expired.has(r.value);
  }

  /** A SOAP request carrying the token of `r` (a session's). */
  call(m: SoapMessage, r: TokenRecord): void {
    const s = r.session;
    if (!s) return;
    s.inSession++;
    s.lastCallAt = Math.max(s.lastCallAt ?? m.x.startedAt, m.x.startedAt);
    const id = m.request?.messageHeader?.conversationId;
    if (!s.conversations.includes(id)) s.conversations.push(id);
    if (s.firstCalls.length < 2) s.firstCalls.push(keptForEvidence(m.x));
    const close = isClose(m);
    if (close) s.closedAt ??= m.x.startedAt;
    else if (callFailed(m, this.#ctx.faultCodes)) s.failedAnswered ??= keptForEvidence(m.x);
    else if (!m.x.response) s.failedUnanswered ??= keptForEvidence(m.x);
  }

  /** SESS-05 on a SOAP request; `issued`: how the token it carries was issued, when known. */
  request(m: SoapMessage, issued: IssuedToken | undefined): void {
    if (m.request && isClose(m)) {
      this.#closes++;
      if (!this.#closeHeader) {
        const p = sess05HeaderProblem(m.request, { is: issued === undefined ? undefined : issued.kind === 'session', ...(issued && { carried: `a ${issued.kind} token` }) });
        if (p) this.#closeHeader = this.#fail(p, m.x);
      }
      if (!this.#closeBody) {
        const p = sess05BodyProblem(m.request);
        if (p) this.#closeBody = this.#fail(p, m.x);
      }
    }
    // A run of refusals with no storm in it ends when no retry came within STORM_GAP_MS: its conversation is forgotten.
    // (The conversations are in the order of their last refusal; one with a storm is kept.)
    for (const [id, s] of this.#storms) {
      if (s.bestLength > 2) continue;
      if (s.lastEnd + STORM_GAP_MS >= m.x.startedAt) break;
      this.#storms.delete(id);
    }
    if (m.action === 'SessionCreateRQ' && m.answer?.kind === 'pool-full') {
      this.#poolFull++;
      const id = `${m.x.env}|${m.request?.messageHeader?.conversationId ?? `#${m.x.seq}`}`;
      const s = this.#storms.get(id);
      if (!s) {
        const x = keptForEvidence(m.x);
        this.#storms.set(id, { first: this.#poolFull, lastEnd: m.x.endedAt, run: [x], runLength: 1, best: [x], bestLength: 1 });
        return;
      }
      // client-rules.ts: a retry sent less than STORM_GAP_MS after the previous refusal goes on a run (judges/sessions.ts stormRun).
      const pauseMs = m.x.startedAt - s.lastEnd;
      if (pauseMs < STORM_GAP_MS) {
        s.runLength++;
        if (s.run.length < 3) s.run.push(keptForEvidence(m.x));
      } else {
        s.run = [keptForEvidence(m.x)];
        s.runLength = 1;
      }
      if (s.runLength > s.bestLength) {
        s.bestLength = s.runLength;
        s.best = [...s.run];
      }
      s.lastEnd = m.x.endedAt;
      this.#storms.delete(id);
      this.#storms.set(id, s);
    }
  }

  #pool(env: Environment | undefined, account: KnownAccount | undefined): number | undefined {
    return this.#ctx.sessionPoolSize ?? account?.poolSize ?? (env ? this.#ctx.accounts[env]?.[0]?.poolSize : undefined);
  }

  /** What a session adds to SESS-08's group, into `groups` (the fold's, or a copy at the end). */
  #span(r: TokenRecord, groups: Map<string, PoolGroup>, sessions: () => Iterable<TokenRecord>, withOpen = false): void {
    const s = r.session!;
    const ended = endedAt(r, this.#ctx);
    // A session never closed is SESS-06's deviation: counted (until the end of the observation) only in `withOpen`.
    if (s.closedAt === undefined && ended === undefined && !withOpen) return;
    const token = r.issued!;
    const key = `${token.env}|${token.account?.epr ?? '?'}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { first: r.order, pool: this.#pool(token.env, token.account), peak: 0, spans: [], pruneAt: 16 }));
    else if (r.order < g.first) {
      g.first = r.order;
      g.pool = this.#pool(token.env, token.account);
    }
    const span = { opened: token.issuedAt, ended: s.closedAt === undefined && ended === undefined ? heldUntil(s.lastCallAt ?? token.issuedAt, this.observedUntil) : Math.min(s.closedAt ?? Infinity, ended ?? Infinity) };
    // The peak changes only within the new span: the spans that overlap it are all kept (see below).
    g.peak = Math.max(g.peak, peakOpen([...g.spans.filter((o) => (o.ended ?? Infinity) > span.opened && o.opened < span.ended), span]));
    g.spans.push(span);
    if (g.spans.length > g.pruneAt) {
      // A span that ended before every session still to be folded opened can overlap none of them.
      let bound = this.watermark;
      for (const o of sessions()) if (o !== r && isSession(o) && `${o.issued!.env}|${o.issued!.account?.epr ?? '?'}` === key) bound = Math.min(bound, o.issued!.issuedAt);
      g.spans = g.spans.filter((o) => (o.ended ?? Infinity) > bound);
      if (g.spans.length > SPANS_KEPT) g.spans.splice(0, g.spans.length - SPANS_KEPT);
      g.pruneAt = Math.max(16, 2 * g.spans.length);
    }
  }

  /** A session's facts, folded as its token is forgotten. */
  evicted(r: TokenRecord, sessions: () => Iterable<TokenRecord>): void {
    if (!isSession(r)) return;
    const s = r.session!;
    this.#sessions++;
    if (s.failedAnswered ?? s.failedUnanswered) this.#failed++;
    this.#conversationOf(r, (order, verdict) => {
      if (!this.#conversation || order < this.#conversation.order) this.#conversation = { order, verdict };
    });
    if (s.inSession > 0) this.#conversationSessions++;
    this.#span(r, this.#groups, sessions);
  }

  #conversationOf(r: TokenRecord, found: (order: number, verdict: ClauseVerdict) => void): void {
    const s = r.session!;
    if (s.inSession === 0) return;
    // Several ConversationIds in one session are no evidence (latitude conversation-per-workflow): see client-rules.ts.
    if (soap05ConversationIdsProblem(s.conversations)) found(r.order, conversationsUnchecked(`#${s.create.seq}`, new Set(s.conversations).size));
  }

  /** SESS-05, SESS-06, SESS-08, and SOAP-05.conversation-id, over the sessions forgotten and `kept`. */
  verdicts(kept: readonly TokenRecord[], wholeRun: boolean): { sess05: ClauseVerdict[]; sess06: ClauseVerdict[]; sess08: ClauseVerdict[]; conversation: ClauseVerdict } {
    const sessions = kept.filter(isSession).sort((a, b) => a.order - b.order);
    return { sess05: this.#sess05(), sess06: this.#sess06(sessions, wholeRun), sess08: this.#sess08(sessions), conversation: this.#soap05(sessions) };
  }

  #sess05(): ClauseVerdict[] {
    if (this.#closes === 0) {
      const none = 'no SessionCloseRQ seen: let the application open a session and close it';
      return [notSeen('SESS-05.header', none), notSeen('SESS-05.body', none)];
    }
    const seen = `${plural(this.#closes, 'SessionCloseRQ')}`;
    return [this.#closeHeader ?? held('SESS-05.header', seen), this.#closeBody ?? held('SESS-05.body', seen)];
  }

  #soap05(sessions: readonly TokenRecord[]): ClauseVerdict {
    let found = this.#conversation;
    let judged = this.#conversationSessions;
    for (const r of sessions) {
      if (r.session!.inSession > 0) judged++;
      if (found && found.order < r.order) continue;
      this.#conversationOf(r, (order, verdict) => {
        if (!found || order < found.order) found = { order, verdict };
      });
    }
    return found?.verdict ?? (judged > 0
      ? held('SOAP-05.conversation-id', `${plural(judged, 'session')}, each with one ConversationId`)
      : notSeen('SOAP-05.conversation-id', 'no session with a call in it seen: let the application open a session and call an API in it'));
  }

  #sess06(sessions: readonly TokenRecord[], whole: boolean): ClauseVerdict[] {
    const total = this.#sessions + sessions.length;
    if (total === 0) {
      const none = 'no session seen: let the application open a session (SessionCreateRQ)';
      return ['SESS-06.end-of-work', 'SESS-06.shutdown', 'SESS-06.after-failure'].map((c) => notSeen(c, none));
    }
    const isOpen = (r: TokenRecord) => r.session!.closedAt === undefined && endedAt(r, this.#ctx) === undefined;
    const failedCall = (r: TokenRecord) => r.session!.failedAnswered ?? r.session!.failedUnanswered;
    const open = sessions.filter(isOpen);
    const failedKept = sessions.filter((r) => failedCall(r) !== undefined);
    const failed = this.#failed + failedKept.length;
    const notWhole = `${plural(open.length, 'session')} of ${total} still open when the observation ended, which did not cover the application's exit: let observe run the application (\`observe … -- <command>\`) or say --whole-run`;
    // The judge of the client suite (harness/judges) counts: the sessions forgotten were each closed or ended.
    const closedSeen: SessionSeen = { closed: true, ended: false, failedCall: false };
    const closedFailed: SessionSeen = { closed: true, ended: false, failedCall: true };
    const seen: SessionSeen[] = [
      ...sessions.map((r) => ({ closed: r.session!.closedAt !== undefined, ended: endedAt(r, this.#ctx) !== undefined, failedCall: failedCall(r) !== undefined })),
      ...new Array<SessionSeen>(this.#failed).fill(closedFailed),
      ...new Array<SessionSeen>(this.#sessions - this.#failed).fill(closedSeen),
    ];
    const openXs = (list: readonly TokenRecord[]) => list.map((r) => r.session!.create);
    const endOfWorkProblem = sess06Problem('SESS-06.end-of-work', seen);
    const endOfWork = !endOfWorkProblem
      ? held('SESS-06.end-of-work', `${plural(total, 'session')}, each closed (or ended by the service)`)
      : whole ? this.#fail(endOfWorkProblem, openXs(open))
      : notSeen('SESS-06.end-of-work', notWhole);
    const shutdownProblem = sess06Problem('SESS-06.shutdown', seen);
    const shutdown = !whole
      ? notSeen('SESS-06.shutdown', open.length > 0 ? notWhole : 'the observation did not cover the application\'s exit: let observe run the application (`observe … -- <command>`) or say --whole-run')
      : !shutdownProblem ? held('SESS-06.shutdown', 'every session closed by the time the application exited')
      : this.#fail(shutdownProblem, openXs(open));
    const afterFailureProblem = sess06Problem('SESS-06.after-failure', seen);
    const afterFailure = failed === 0
      ? notSeen('SESS-06.after-failure', 'no call inside a session failed: call an API in a session that the account may not use, or one the service faults')
      : !afterFailureProblem ? held('SESS-06.after-failure', `${plural(failed, 'session')} with a failed call, each closed`)
      : whole ? this.#fail(afterFailureProblem, failedKept.filter(isOpen).map((r) => failedCall(r)!))
      : notSeen('SESS-06.after-failure', notWhole);
    return [endOfWork, shutdown, afterFailure];
  }

  #sess08(sessions: readonly TokenRecord[]): ClauseVerdict[] {
    let bound: ClauseVerdict;
    if (this.#sessions + sessions.length === 0) bound = notSeen('SESS-08.pool-bound', 'no session seen: let the application open sessions');
    else {
      const copy = () => {
        const groups = new Map<string, PoolGroup>();
        for (const [k, g] of this.#groups) groups.set(k, { ...g, spans: [...g.spans], pruneAt: Infinity });
        return groups;
      };
      const groups = copy();
      for (const r of sessions) this.#span(r, groups, () => []);
      const withOpen = copy();
      for (const r of sessions) this.#span(r, withOpen, () => [], true);
      bound = notSeen('SESS-08.pool-bound', 'the session pool is not known: declare it with --pool-size <n> (or "sessionPoolSize" in the target config)');
      for (const [key, all] of [...withOpen].sort((a, b) => a[1].first - b[1].first)) {
        if (all.pool === undefined) continue;
        const g = groups.get(key) ?? { ...all, peak: 0 };
        if (g.pool === undefined) continue;
        const p = g.peak > g.pool ? sess08PoolProblem(g.pool, new Array<SessionSpan>(g.peak).fill({ opened: 0 }), key.split('|')[0]?.toUpperCase()) : undefined;
        if (p) {
          bound = this.#fail(p);
          break;
        }
        if (all.peak > g.pool) {
          bound = poolBoundWithOpenSessions(all.peak, g.pool);
          break;
        }
        bound = held('SESS-08.pool-bound', `at most ${g.peak} session(s) open at once, pool ${g.pool}`);
      }
    }
    let storm: ClauseVerdict;
    if (this.#poolFull === 0) {
      storm = notSeen('SESS-08.no-retry-storm', this.#ctx.source === 'observe-sim' ? 'no pool-full refusal seen: use `--inject pool-full` so that the application meets a full session pool'
        : 'no pool-full refusal seen: observe the application against the simulator with `--inject pool-full`');
    } else {
      let stormed: ClauseVerdict | undefined;
      for (const s of [...this.#storms.values()].sort((a, b) => a.first - b.first)) {
        const p = sess08StormProblem([{}, ...new Array<{ pauseMs: number }>(s.bestLength - 1).fill({ pauseMs: 0 })]);
        if (p) {
          stormed = this.#fail(p, s.best);
          break;
        }
      }
      storm = stormed ?? held('SESS-08.no-retry-storm', `${plural(this.#poolFull, 'pool-full refusal')}, answered without a retry storm`);
    }
    return [bound, storm];
  }
}
