import fc from 'fast-check';
import { it, type TestContext } from 'vitest';
import type { CheckFailureDetail, CheckMeta, CheckOutcome } from '../report/meta.ts';
import { replayCommand } from '../report/replay.ts';
import { DEFAULT_RUNS } from '../run-config.ts';
import { findClause, getRule, type RuleId, type Where } from '../catalog/index.ts';
import type { Target, Transport } from '../targets/index.ts';
import { Inconclusive, NotApplicable, OptInRequired, outcomeOf } from './errors.ts';
import { formatExchange, recordingTransport, type Exchange } from './evidence.ts';
import { CheckFailure } from './failure.ts';
import { redact } from './secrets.ts';
import { currentTarget, runConfig } from './target.ts';
import { endThrottleScope, throttleScope } from '../targets/throttle.ts';
import { beginCheck, endCheck } from './trace.ts';

/** What a check body gets. */
export interface CheckContext {
  readonly target: Target;
  /** The target's transport, recording the exchanges that become a failure's evidence. */
  readonly http: Transport;
  /** Records the observed value of an INFO rule. */
  info(observation: { observed: string; publiclySeen?: string; matchesPublic: boolean }): void;
  /** Adds a line of evidence (redacted before it is reported). */
  note(line: string): void;
  /** Skips the check as not applicable to this target, with the reason. */
  notApplicable(reason: string): never;
  /**
   * For a part of a check that uses shared resources (fills a session pool, say): on a live target without
   * `--allow-opt-in`, skips the check with the reason. The simulator always allows it.
   */
  requireOptIn(what: string): void;
  /** Forgets the evidence gathered so far (a property does this before it replays its shrunk counterexample). */
  resetEvidence(): void;
  /** Records tokens and sessions the check created, for the report's resource counts. */
  created(resources: { tokens?: number; sessionsOpened?: number; sessionsClosed?: number }): void;
  /**
   * Says that a clause the check declares could not be exercised on this target (a live target without clock
   * control, say), and why: the rule is then not `pass` but `partial`, unless another check exercised the clause.
   */
  unchecked(clause: string, reason: string): void;
}

/** How a check is declared: the clauses it exercises (`<rule ID>.<slug>`, see the catalog), and its time limit. */
export interface CheckOptions {
  readonly clauses: readonly string[];
  readonly timeout?: number;
  /**
   * Where this check can run, when it differs from its rules' `where`: a check of a `sim` rule that works on any
   * target from what the target config declares says `any` (and calls `ctx.notApplicable` when nothing is declared).
   */
  readonly where?: Where;
  /** The check judges what the other checks of its file exchanged (an audit): its replay re-runs the whole file. */
  readonly replayFile?: true;
}

export type CheckBody = (ctx: CheckContext) => Promise<void>;

export const titleFor = (ids: readonly RuleId[], title: string) => `${ids.join(', ')}: ${title}`;

function setMeta(test: TestContext, meta: CheckMeta): void {
  (test.task.meta as { tds?: CheckMeta }).tds = meta;
}

/** Why the rules cannot run on this target, if they cannot. */
function applicability(ids: readonly RuleId[], target: Target, where?: Where): Extract<CheckOutcome, { kind: 'not-applicable' | 'skipped' }> | undefined {
  for (const id of ids) {
    const rule = { ...getRule(id), ...(where && { where }) };
    if (rule.where === 'sim' && !target.control) {
      return { kind: 'not-applicable', reason: `${id} needs control of the target's clock or internals, which ${target.name} does not offer` };
    }
    if (rule.where === 'opt-in' && !target.allowOptIn) {
      return { kind: 'skipped', reason: `${id} is opt-in on a live target (it is slow or uses shared resources): run with --allow-opt-in to include it` };
    }
  }
  return undefined;
}

/** Throws when a check declares a clause the catalog does not have, or one of a rule its title does not name. */
export function checkClauses(ids: readonly RuleId[], title: string, clauses: readonly string[]): void {
  for (const clause of clauses) {
    const found = findClause(clause);
    if (!found) throw new Error(`the check "${title}" declares the clause "${clause}", which the catalog does not have`);
    if (!ids.includes(found.rule.id)) throw new Error(`the check "${title}" declares the clause "${clause}" of ${found.rule.id}, which its title does not name`);
  }
  if (clauses.length === 0) throw new Error(`the check "${title}" declares no clause: name those it exercises (options.clauses)`);
}

/**
 * A conformance check of one or more rules. The title is prefixed with the rule IDs (`REST-03: …`), which is how
 * the reporter maps the result to the rules. Handles applicability (`sim`, `opt-in`), turns network failures into
 * `error` (not `fail`), and attaches redacted expected/actual values and evidence to a failure.
 */
export function ruleTest(ids: RuleId | readonly RuleId[], title: string, body: CheckBody, options: CheckOptions): void {
  const list = typeof ids === 'string' ? [ids] : ids;
  const fullTitle = titleFor(list, title);
  checkClauses(list, fullTitle, options.clauses);
  it(fullTitle, async (test) => {
    await runCheck(test, list, body, { clauses: options.clauses, ...(options.where && { where: options.where }), ...(options.replayFile && { replayFile: true }) });
  }, options.timeout);
}

/** How a check runs: against which target, with what extra evidence on failure. */
export interface CheckRunOptions {
  /** The target; the test file's target (`currentTarget()`) when left out. */
  readonly target?: Target;
  /** Failure details to add (a property's counterexample, seed and path). */
  readonly extra?: (err: unknown) => Partial<CheckFailureDetail>;
  /** More evidence lines on failure (a client check's simulator events). */
  readonly evidence?: () => Promise<readonly string[]>;
  /** The clauses the check exercises (see {@link CheckOptions}). */
  readonly clauses?: readonly string[];
  /** The check's own `where` (see {@link CheckOptions}). */
  readonly where?: Where;
  /** See {@link CheckOptions}. */
  readonly replayFile?: true;
}

export async function runCheck(test: TestContext, ids: readonly RuleId[], body: CheckBody, options: CheckRunOptions = {}): Promise<void> {
  const target = options.target ?? (await currentTarget());
  const declared = options.clauses ?? [];
  const unchecked = new Map<string, string>();
  const coverage = () => ({ declared, unchecked: [...unchecked].map(([id, reason]) => ({ id, reason: redact(reason) })) });
  const skip = applicability(ids, target, options.where);
  if (skip) {
    setMeta(test, { outcome: skip, clauses: coverage() });
    test.skip(skip.reason);
  }
  const exchanges: Exchange[] = [];
  const notes: string[] = [];
  let outcome: CheckOutcome | undefined;
  const resources = { tokens: 0, sessionsOpened: 0, sessionsClosed: 0 };
  const ctx: CheckContext = {
    target,
    http: recordingTransport(target.transport, exchanges),
    info(observation) {
      outcome = { kind: 'info', ...observation, observed: redact(observation.observed) };
    },
    note(line) {
      notes.push(line);
    },
    resetEvidence() {
      exchanges.length = 0;
      notes.length = 0;
    },
    notApplicable(reason) {
      throw new NotApplicable(reason);
    },
    requireOptIn(what) {
      if (!target.allowOptIn) throw new OptInRequired(`${what} uses shared resources of a live target: run with --allow-opt-in to include it`);
    },
    created(r) {
      resources.tokens += r.tokens ?? 0;
      resources.sessionsOpened += r.sessionsOpened ?? 0;
      resources.sessionsClosed += r.sessionsClosed ?? 0;
    },
    unchecked(clause, reason) {
      if (!declared.includes(clause)) throw new Error(`the check does not declare the clause "${clause}" it reports unchecked`);
      if (!unchecked.has(clause)) unchecked.set(clause, reason);
    },
  };
  let trace: CheckMeta['trace'];
  let throttle: CheckMeta['throttle'] | null | undefined;
  const meta = (m: CheckMeta): CheckMeta => {
    trace ??= endCheck();
    if (throttle === undefined) {
      const t = endThrottleScope();
      if (!t) throttle = null;
      else {
        const { gatewayResent, ...counts } = t;
        const resent = Object.keys(gatewayResent).length > 0;
        throttle = t.throttled > 0 || t.intervalMs > 0 || resent ? { ...counts, ...(resent && { gatewayResent }) } : null;
      }
    }
    return { ...m, resources, clauses: coverage(), ...(trace && { trace }), ...(throttle && { throttle }), ...(options.replayFile && { replayFile: true }) };
  };
  beginCheck(ids, test.task.name);
  throttleScope();
  try {
    await body(ctx);
    setMeta(test, meta(outcome ? { outcome } : {}));
  } catch (caught) {
    // An inconclusive answer with a control of its own (see Inconclusive): the control decides what it was.
    const err = caught instanceof Inconclusive && caught.recheck ? ((await caught.recheck().catch(() => undefined)) ?? caught) : caught;
    const thrown = outcomeOf(err);
    if (thrown.kind === 'not-run') {
      const outcome = thrown.outcome.kind === 'skipped' ? { ...thrown.outcome, reason: redact(thrown.outcome.reason) } : thrown.outcome;
      setMeta(test, meta({ outcome }));
      test.skip(outcome.reason);
    }
    const more = options.evidence ? await options.evidence().catch(() => []) : [];
    const evidence = [...notes, ...exchanges.map(formatExchange), ...more].map(redact);
    if (thrown.kind === 'error') {
      setMeta(test, meta({ outcome: { kind: 'error', code: thrown.code, message: redact(thrown.message) }, failure: { message: redact(thrown.message), code: thrown.code, evidence } }));
      throw new Error(`${thrown.code}: ${redact(thrown.message)}`);
    }
    const failure: CheckFailureDetail = {
      message: redact((err as Error)?.message ?? String(err)),
      ...(err instanceof CheckFailure && {
        code: err.code,
        ...(err.expected !== undefined && { expected: redact(err.expected) }),
        ...(err.actual !== undefined && { actual: redact(err.actual) }),
        ...(err.clause !== undefined && { clause: err.clause }),
      }),
      evidence,
      ...options.extra?.(err),
    };
    setMeta(test, meta({ failure }));
    throw new CheckFailure(failureMessage(failure));
  }
}

function failureMessage(f: CheckFailureDetail): string {
  const lines = [f.message];
  if (f.expected !== undefined) lines.push(`expected: ${f.expected}`);
  if (f.actual !== undefined) lines.push(`actual:   ${f.actual}`);
  if (f.counterexample !== undefined) lines.push(`counterexample: ${f.counterexample}`);
  if (f.seed !== undefined) lines.push(`seed: ${f.seed}${f.path ? `, path: ${f.path}` : ''}`);
  if (f.replay) lines.push(`replay: ${f.replay}`);
  return lines.join('\n');
}

/**
 * Cases for a property: its own count is what it runs at the default `--runs` (25), scaled linearly with `--runs`
 * (so `--runs 250` runs ten times as many of every property, and a live run with `--runs 5` a fifth).
 */
export function scaledRuns(own: number | undefined, runs: number): number {
  return own === undefined ? runs : Math.max(1, Math.round((own * runs) / DEFAULT_RUNS));
}

/**
 * The `numRuns` to give fast-check for `runs` random cases after `examples`: fast-check counts the examples within
 * `numRuns` (with `numRuns: 1` and three examples it runs the first example only), so every example gets a run of
 * its own on top of the random ones, whatever `--runs`.
 */
export function withExamples(runs: number, examples: readonly unknown[] | undefined): number {
  return runs + (examples?.length ?? 0);
}

/** Runs a property inside a check: fatal errors end it at once, the shrunk case is replayed for its evidence. */
export async function checkProperty<T, C extends CheckContext>(
  fullTitle: string,
  arbitrary: fc.Arbitrary<T> | ((ctx: C) => fc.Arbitrary<T>),
  predicate: (ctx: C, value: T) => Promise<void>,
  numRuns: number | undefined,
  run: (body: (ctx: C) => Promise<void>, options: CheckRunOptions) => Promise<void>,
  /** Inputs tried first, whatever the seed (fast-check's `examples`). */
  examples?: readonly T[],
): Promise<void> {
  const config = runConfig();
  const replay = config.replay && config.replay.check === fullTitle ? config.replay.path : undefined;
  let details: fc.RunDetails<[T]> | undefined;
  await run(async (ctx) => {
    // After a network failure (or a lost prerequisite, an exhausted budget) every further case ends at once:
    // shrinking must not wait out more time-outs. Before any case failed for real, that error is the check's verdict.
    // After one did (a deviation was found, and shrinking it used up the pool, say), the cases still to try count as
    // not failing: the shrinking stops at the last case that really failed, and that failure is the verdict.
    let fatal: unknown;
    let failedForReal = false;
    const guarded = async (value: T) => {
      if (fatal) {
        if (failedForReal) return;
        throw fatal;
      }
      try {
        await predicate(ctx, value);
      } catch (err) {
        if (outcomeOf(err).kind !== 'fail') {
          fatal = err;
          if (failedForReal) return;
        } else {
          failedForReal = true;
        }
        throw err;
      }
    };
    details = await fc.check(fc.asyncProperty(typeof arbitrary === 'function' ? arbitrary(ctx) : arbitrary, guarded), {
      seed: config.seed,
      numRuns: withExamples(scaledRuns(numRuns, config.runs), examples),
      ...(examples && examples.length > 0 && { examples: examples.map((e): [T] => [e]) }),
      // A live target is a guest's: no shrinking, which would spend its token and session budget on replays.
      ...(config.target.kind === 'live' && { endOnFailure: true }),
      ...(replay !== undefined && { path: replay, endOnFailure: true }),
    });
    if (details.failed) {
      if (fatal && !failedForReal) throw fatal;
      const cause = details.errorInstance;
      // Replay the shrunk counterexample once, so that the evidence is that of the minimal failing case.
      if (details.counterexample) {
        ctx.resetEvidence();
        await predicate(ctx, details.counterexample[0]).catch(() => undefined);
      }
      throw cause instanceof Error ? cause : new CheckFailure(String(cause));
    }
  }, {
    extra: (err) =>
      details?.failed && outcomeOf(err).kind === 'fail'
        ? {
            counterexample: redact(fc.stringify(details.counterexample)),
            seed: details.seed,
            path: details.counterexamplePath ?? '',
            replay: replayCommand({ check: fullTitle, path: details.counterexamplePath ?? '' }, details.seed),
          }
        : {},
  });
}

/**
 * A property-based check: fast-check generates inputs from `arbitrary` and `predicate` must hold for each. Runs
 * with the run's seed; a failure reports the shrunk counterexample, the seed and path, and a replay command.
 */
export function ruleProperty<T>(
  ids: RuleId | readonly RuleId[],
  title: string,
  /** The inputs, or a function of the check context that builds them (from the target's account, say). */
  arbitrary: fc.Arbitrary<T> | ((ctx: CheckContext) => fc.Arbitrary<T>),
  predicate: (ctx: CheckContext, value: T) => Promise<void>,
  /** `examples`: the cases every run tries first, whatever the seed and `--runs` (the ones a deviation shows on). */
  options: CheckOptions & { numRuns?: number; examples?: readonly T[] },
): void {
  const list = typeof ids === 'string' ? [ids] : ids;
  const fullTitle = titleFor(list, title);
  checkClauses(list, fullTitle, options.clauses);
  it(fullTitle, async (test) => {
    await checkProperty(fullTitle, arbitrary, predicate, options.numRuns, (body, runOptions) => runCheck(test, list, body, { ...runOptions, clauses: options.clauses, ...(options.where && { where: options.where }) }), options.examples);
  }, options.timeout ?? 120_000);
}
