import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientSpec } from './clients/load.ts';
import { CODE_EXT, CODE_ROOT, codeFile, PACKAGE_ROOT, suiteFileKey } from './package-info.ts';
import type { Report } from './report/index.ts';
import { mergeShards } from './report/merge.ts';
import { filesFor, selectRules } from './run/selection.ts';
import { ConformanceSession, type RunOptions } from './runner.ts';
import { defects, pairsWithoutRoute, routeTakers, type Defect, type RouteTaker } from './sim/index.ts';
import { DEFAULT_PROFILE } from './sim/latitude.ts';
import { getRule, prerequisitesOf, ruleIdsInTitle, type RuleId } from './catalog/index.ts';

/** What a rule's status must be when a defect or mutant breaking it is on: `fail` for MUST, `warn` for SHOULD. */
export function expectedStatus(rule: RuleId): 'fail' | 'warn' | 'info (differs from public)' {
  const level = getRule(rule).level;
  return level === 'MUST' ? 'fail' : level === 'SHOULD' ? 'warn' : 'info (differs from public)';
}

/** Something that must make checks fail (a simulator defect, a mutant client), or must not (a reference client). */
export type Subject =
  | { readonly kind: 'defect'; readonly id: string; readonly breaks: readonly RuleId[]; readonly mayFollow: readonly RuleId[] }
  | {
      readonly kind: 'mutant';
      readonly id: string;
      readonly breaks: readonly RuleId[];
      readonly mayFollow: readonly RuleId[];
      /** The module: the reference client with {@link faults} switched on. */
      readonly client: ClientSpec;
      /** The reference client's faults the module switches on (its id: fixtures/mutants/index.ts). */
      readonly faults: readonly string[];
    }
  | { readonly kind: 'reference'; readonly id: string; readonly suite: 'all' | 'client'; readonly client?: ClientSpec }
  | {
      readonly kind: 'pair';
      /** `<defect> + <route-taker>`. */
      readonly id: string;
      readonly defect: string;
      readonly taker: RouteTaker;
      /** The defect's rules and the route-taker's: each must fail. */
      readonly breaks: readonly RuleId[];
      /** The defect's own rules: one that is skipped, errors, is not applicable or partial was hidden. */
      readonly own: readonly RuleId[];
      readonly mayFollow: readonly RuleId[];
    };

/**
 * `caught`: every rule the subject breaks failed (warned, for SHOULD) and no other rule failed, warned or errored.
 * `missed`: a rule it breaks did not fail. `collateral`: it was caught, but other rules (not in `breaks` nor
 * `mayFollow`) failed, warned or errored too — a reader would be sent to the wrong rule. `hidden`: a rule it breaks
 * was `skipped`, `error`, `not-applicable` or `partial` instead of failing — the deviation hid behind a prerequisite or
 * an inconclusive answer while another route to the evidence existed. `clean`/`dirty`: a reference subject with no
 * rule failed, warned or errored / with some.
 */
export type SelfTestResult =
  | { readonly kind: 'caught' | 'clean'; readonly subject: Subject; readonly statuses: Readonly<Partial<Record<RuleId, string>>> }
  | { readonly kind: 'missed' | 'hidden' | 'dirty' | 'collateral'; readonly subject: Subject; readonly statuses: Readonly<Partial<Record<RuleId, string>>>; readonly wrong: readonly RuleId[] };

const BAD = new Set(['fail', 'warn', 'error']);
/** Statuses that say "could not judge": on a rule a subject breaks, they hide the deviation. */
const HIDING = new Set(['skipped', 'error', 'not-applicable', 'partial']);

function statusOf(report: Pick<Report, 'rules'>, id: RuleId): string {
  const rule = report.rules.find((r) => r.id === id);
  // An INFO rule never fails: its defect is caught when the observation no longer matches the public behaviour.
  if (rule?.status === 'info') return rule.checks.some((c) => c.status === 'info' && c.matchesPublic === false) ? 'info (differs from public)' : 'info (matches public)';
  return rule?.status ?? 'absent';
}

/**
 * The time limit of one request in the self-test's runs. Its subjects are simulators on loopback, which answer within
 * milliseconds: a request unanswered for 2 s is a hang, and the two subjects that hang (`err07-hang-on-bad-grant-type`,
 * `err07-soap-hang-on-garbage`) wait it out three times and twice. With a run's default on the simulator, 5 s, they
 * took 16.4 s and 11.2 s (`selftest --only`), 7.3 s and 5.2 s with this one; no other subject waits for it, and every
 * subject gets the same verdicts.
 */
const SELFTEST_REQUEST_TIMEOUT_MS = 2_000;

/** What every run of the self-test is given: no report written, nothing printed, its time limit. */
const subjectRun = { outDir: '', write: false, quiet: true, log: () => {}, requestTimeoutMs: SELFTEST_REQUEST_TIMEOUT_MS } satisfies Partial<RunOptions>;

/** The run options of a subject: which suite, which client, which defects and latitude profile. */
function runOptionsOf(subject: Subject): Partial<RunOptions> {
  switch (subject.kind) {
    case 'reference': return { suite: subject.suite, ...(subject.client && { client: subject.client }) };
    case 'defect': return { suite: 'service', defects: [subject.id] };
    case 'mutant': return { suite: 'client', client: subject.client };
    case 'pair': return {
      suite: 'service',
      defects: [subject.defect, ...(subject.taker.defects ?? [])],
      ...(subject.taker.profile && { profile: { ...DEFAULT_PROFILE, ...subject.taker.profile } }),
    };
  }
}

/**
 * What `make` gives for `key` in `session`, made once per session and key (a failure is forgotten, so that the next
 * call tries again): the self-test's baselines, shared by the subjects a session runs.
 */
function perSession<T>(cache: WeakMap<ConformanceSession, Map<string, Promise<T>>>, session: ConformanceSession, key: string, make: () => Promise<T>): Promise<T> {
  let byKey = cache.get(session);
  if (!byKey) cache.set(session, (byKey = new Map()));
  let value = byKey.get(key);
  if (!value) {
    value = make();
    byKey.set(key, value);
    value.catch(() => byKey.delete(key));
  }
  return value;
}

/** How a subject is run (see {@link selfTestRun}). */
export interface SelfTestRunOptions {
  readonly seed?: number;
  readonly runs?: number;
  /**
   * Reuse, for the suite files whose simulator (client) never asked about the subject's defects (faults), the verdicts
   * of a run without them (default true). False runs every file with the defects (faults) on.
   */
  readonly share?: boolean;
}

/** A run of one suite file without deviations: its report, and the deviations its code asked about. */
interface FileBaseline {
  readonly report: Report;
  readonly consulted: readonly string[] | 'all';
}

/** The defect-free (fault-free) run of a suite a subject's run is made of: its suite and the options it is made with. */
interface SharedBaseline {
  readonly suite: 'service' | 'client';
  readonly run: Partial<Omit<SharedServiceRunOptions, 'defects'>>;
}

/** A shared run's key: runs with the same suite and options are one run. */
const baselineKey = (b: SharedBaseline): string => `${b.suite} ${JSON.stringify(b.run)}`;

/** The reference client's fault-free run with `options`: the one the mutant clients share and the reference drivers are held to. */
const referenceBaseline = (options: { seed?: number | undefined; runs?: number | undefined }): SharedBaseline => ({ suite: 'client', run: definedOf({ seed: options.seed, runs: options.runs }) });

/**
 * The runs without deviations of a suite's files, per session, suite and run options (seed, runs, latitude
 * profile…): the service suite's with the simulator's defects off (and what each file's simulator asked about), the
 * client suite's with the in-process reference client and no fault (and what each file's clients asked about).
 */
const fileBaselines = new WeakMap<ConformanceSession, Map<string, Promise<ReadonlyMap<string, FileBaseline>>>>();

function suiteBaseline(session: ConformanceSession, suite: SharedBaseline['suite'], run: SharedBaseline['run']): Promise<ReadonlyMap<string, FileBaseline>> {
  return perSession(fileBaselines, session, baselineKey({ suite, run }), async () => {
    const out = new Map<string, FileBaseline>();
    // One run per file: a file's report is then exactly that file's verdicts, ready to be merged as a shard.
    for (const file of filesFor(selectRules(suite), suite).map((f) => suiteFileKey(f))) {
      const outcome = await session.run({ ...run, ...subjectRun, target: 'sim', suite, files: [file] });
      const consulted = suite === 'service' ? outcome.consultedDefects : outcome.consultedFaults;
      out.set(file, { report: outcome.report, consulted: consulted.get(file) ?? 'all' });
    }
    return out;
  });
}

/** The in-process reference client's run of the client suite (its files' runs merged): the baseline of the other reference clients, per session. */
async function clientBaseline(session: ConformanceSession, options: { seed?: number; runs?: number }): Promise<Report> {
  const { suite, run } = referenceBaseline(options);
  const files = await suiteBaseline(session, suite, run);
  return mergeShards([...files.values()].map((f) => f.report));
}

/** The options given a value, in one order whoever built them: the key of a shared run. */
function definedOf<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A run of `suite` with deviations on (`deviations`: simulator defects, or the client's faults) made of the suite's
 * baseline: the files whose code asked about one of them run again with `run`, the others keep the baseline's
 * reports, and both are merged as the shards of one run.
 */
async function sharedRun(session: ConformanceSession, suite: 'service' | 'client', baseline: ReadonlyMap<string, FileBaseline>, deviations: readonly string[], run: Partial<RunOptions>): Promise<Report> {
  const changed: string[] = [];
  const kept: Report[] = [];
  for (const [file, b] of baseline) {
    if (b.consulted === 'all' || b.consulted.some((d) => deviations.includes(d))) changed.push(file);
    else kept.push(b.report);
  }
  if (changed.length === 0) return mergeShards(kept);
  const own = (await session.run({ ...run, ...subjectRun, target: 'sim', suite, files: changed })).report;
  return mergeShards([own, ...kept]);
}

/** The options of a {@link sharedServiceRun}: what a run of the service suite on the simulator is made of. */
export type SharedServiceRunOptions = Pick<RunOptions, 'defects' | 'profile' | 'seed' | 'runs'>;

/**
 * The report of a run of the whole service suite on the simulator with `run.defects` on (none: a defect-free run),
 * as the self-test runs its subjects ({@link selfTestRun}) and as the stand-in's tests run a stand-in.
 *
 * A simulator defect changes nothing but the answers of a simulator that asks about it (`ConsultedDefects`): a suite
 * file whose simulator, in the defect-free run with the same seed, runs and profile, never asked about the run's
 * defects got every answer it would have got with them on, so its verdicts are that run's. Only the other files run
 * with the defects on; the report is both parts merged as the shards of one run. The defect-free run is made once per
 * session, file by file, and shared by every run with the same seed, runs and profile (a defect-free run is that run's
 * files merged); no run's state reaches another's (each run's files get their own simulator, as always).
 */
export async function sharedServiceRun(session: ConformanceSession, run: Partial<SharedServiceRunOptions>): Promise<Report> {
  const { defects = [], ...rest } = run;
  const baseline = await suiteBaseline(session, 'service', definedOf({ seed: rest.seed, runs: rest.runs, profile: rest.profile }));
  return sharedRun(session, 'service', baseline, defects, { ...rest, defects });
}

/** The options of a {@link sharedClientRun}. */
export interface SharedClientRunOptions extends Pick<RunOptions, 'seed' | 'runs'> {
  /** The client under test: the reference client with {@link faults} on (a mutant client's module). */
  readonly client: ClientSpec;
  /** The reference client's faults `client` switches on. */
  readonly faults: readonly string[];
}

/**
 * The report of a run of the whole client suite with a mutant client (the reference client with `faults` on), as
 * the self-test runs its mutants. The reference client deviates only where it asks about a fault (its
 * `deliberateFaults`), and every check has a client and a simulator of its own: a client suite file whose clients, in
 * the fault-free run with the same seed and runs, never asked about the mutant's faults made every request the mutant
 * would have made, so its verdicts are that run's. Only the other files run with the mutant.
 */
export async function sharedClientRun(session: ConformanceSession, run: SharedClientRunOptions): Promise<Report> {
  const { client, faults, ...rest } = run;
  const baseline = await suiteBaseline(session, 'client', definedOf({ seed: rest.seed, runs: rest.runs }));
  return sharedRun(session, 'client', baseline, faults, { ...rest, client });
}

/**
 * The defect-free (fault-free) run a subject's run would share ({@link selfTestRun}): a simulator defect's and a
 * pair's, the service suite's with the same seed, runs and profile; a mutant client's, the reference client's with
 * the same seed and runs. Undefined for a subject that runs on its own (a reference subject).
 */
function sharedBaselineOf(subject: Subject, given: Omit<SelfTestRunOptions, 'share'>): SharedBaseline | undefined {
  const run: Partial<RunOptions> = { ...runOptionsOf(subject), ...given };
  if (subject.kind === 'mutant') return referenceBaseline(run);
  if ((run.defects ?? []).length === 0 || run.suite !== 'service' || run.client !== undefined) return undefined;
  return { suite: 'service', run: definedOf({ seed: run.seed, runs: run.runs, profile: run.profile }) };
}

/**
 * The report of one subject's run: the whole suite of the subject's side, so that a verdict on any other rule is seen.
 * A subject with simulator defects shares the session's defect-free run ({@link sharedServiceRun}), a mutant client
 * the fault-free run of the reference client ({@link sharedClientRun}), unless `share` is false; every other subject
 * is a run of its own.
 */
export async function selfTestRun(session: ConformanceSession, subject: Subject, options: SelfTestRunOptions = {}): Promise<Report> {
  const { share = true, ...given } = options;
  const shared = share ? sharedBaselineOf(subject, given) : undefined;
  if (shared?.suite === 'client' && subject.kind === 'mutant') return sharedClientRun(session, { client: subject.client, faults: subject.faults, ...shared.run });
  const run: Partial<RunOptions> = { ...runOptionsOf(subject), ...given };
  if (shared?.suite === 'service') return sharedServiceRun(session, { defects: run.defects ?? [], ...shared.run });
  return (await session.run({ target: 'sim', suite: 'service', ...run, ...subjectRun })).report;
}

/**
 * Which of `subjects` should share a defect-free run when a self-test runs them all with `options`: those whose
 * run shares one that another of them uses too (another subject's run, or the reference client's run a reference
 * driver is held to). A lone subject runs on its own: sharing would cost it a run of every file besides its own
 * run of the files its deviations reach (`tds-conformance selftest --only <one id>`: 1.3 s against 1.9 s).
 */
export function worthSharing(subjects: readonly Subject[], options: Omit<SelfTestRunOptions, 'share'> = {}): (subject: Subject) => boolean {
  const uses = new Map<string, number>();
  const count = (key: string) => uses.set(key, (uses.get(key) ?? 0) + 1);
  for (const subject of subjects) {
    const shared = sharedBaselineOf(subject, options);
    if (shared) count(baselineKey(shared));
    else if (subject.kind === 'reference' && subject.suite === 'client') count(baselineKey(referenceBaseline(options)));
  }
  return (subject) => {
    const shared = sharedBaselineOf(subject, options);
    return shared !== undefined && (uses.get(baselineKey(shared)) ?? 0) > 1;
  };
}

/** Runs one subject in a session and judges it ({@link judgeSubject}). */
export async function selfTest(
  session: ConformanceSession,
  subject: Subject,
  options: SelfTestRunOptions & { inspect?: (report: Report) => void } = {},
): Promise<SelfTestResult> {
  const { inspect, ...runOptions } = options;
  const report = await selfTestRun(session, subject, runOptions);
  inspect?.(report);
  // A reference driver is held to what the in-process reference client lets the checks run (hidden checks).
  const baseline = subject.kind === 'reference' && subject.suite === 'client' ? await clientBaseline(session, options) : undefined;
  return judgeSubject(subject, report, baseline);
}

/**
 * The prerequisites a report's skipped checks name that the catalog does not declare: each must be among what the
 * check's rules build on (`dependsOn`, transitively). One line per check that names another, for a test to show.
 */
export function undeclaredPrerequisites(report: Pick<Report, 'rules'>): string[] {
  const out = new Set<string>();
  for (const rule of report.rules) {
    for (const check of rule.checks) {
      if (check.status !== 'skipped' || !check.prerequisite) continue;
      const declared = prerequisitesOf(ruleIdsInTitle(check.name));
      const extra = check.prerequisite.rules.filter((id) => !declared.includes(id));
      if (extra.length > 0) out.add(`${check.name}: skipped after ${extra.join(', ')}, which its rules do not build on (dependsOn)`);
    }
  }
  return [...out];
}

/**
 * The checks a reference client's run did not run although the in-process reference client's did: skipped or not
 * applicable here, pass or info there — unless the client said it does not support the operation (the driver
 * protocol's `unsupported`: the Python driver speaks REST only).
 */
export function hiddenChecks(report: Pick<Report, 'rules'>, baseline: Pick<Report, 'rules'>): RuleId[] {
  const ran = new Set(baseline.rules.flatMap((r) => r.checks.filter((c) => c.status === 'pass' || c.status === 'info').map((c) => c.name)));
  const hidden = new Set<RuleId>();
  for (const r of report.rules) {
    for (const c of r.checks) {
      if ((c.status !== 'skipped' && c.status !== 'not-applicable') || !ran.has(c.name)) continue;
      if (/the client does not support /.test(c.message)) continue;
      hidden.add(r.id);
    }
  }
  return [...hidden];
}

/**
 * The verdict on a subject from the report of its run: a reference subject is clean when no rule failed, warned or
 * errored and — given the in-process reference client's report (`baseline`) — no check that ran there did not run
 * here, but for an operation the client does not support (else `hidden`); a defect or mutant is caught when each
 * rule it breaks has its expected status and no rule outside `breaks` and `mayFollow` failed, warned or errored.
 */
export function judgeSubject(subject: Subject, report: Pick<Report, 'rules'>, baseline?: Pick<Report, 'rules'>): SelfTestResult {
  if (subject.kind === 'reference') {
    const bad = report.rules.filter((r) => BAD.has(r.status));
    const statuses: Partial<Record<RuleId, string>> = Object.fromEntries(bad.map((r) => [r.id, r.status]));
    if (bad.length) return { kind: 'dirty', subject, statuses, wrong: bad.map((r) => r.id) };
    const hidden = baseline ? hiddenChecks(report, baseline) : [];
    for (const id of hidden) statuses[id] = report.rules.find((r) => r.id === id)?.status ?? 'absent';
    return hidden.length ? { kind: 'hidden', subject, statuses, wrong: hidden } : { kind: 'clean', subject, statuses };
  }
  const statuses: Partial<Record<RuleId, string>> = {};
  for (const id of subject.breaks) statuses[id] = statusOf(report, id);
  const wrong = subject.breaks.filter((id) => statuses[id] !== expectedStatus(id));
  const own = subject.kind === 'pair' ? subject.own : subject.breaks;
  const hidden = wrong.filter((id) => own.includes(id) && HIDING.has(statuses[id]!));
  if (hidden.length) return { kind: 'hidden', subject, statuses, wrong: hidden };
  if (wrong.length) return { kind: 'missed', subject, statuses, wrong };
  for (const id of subject.mayFollow) if (BAD.has(statusOf(report, id))) statuses[id] = statusOf(report, id);
  const collateral = report.rules.filter((r) => BAD.has(r.status) && !subject.breaks.includes(r.id) && !subject.mayFollow.includes(r.id));
  for (const r of collateral) statuses[r.id] = r.status;
  return collateral.length ? { kind: 'collateral', subject, statuses, wrong: collateral.map((r) => r.id) } : { kind: 'caught', subject, statuses };
}

/**
 * Every defect paired with every route-taker (harness/sim/route-takers.ts), but a route-taker's own defect and the
 * pairs that leave no route at all (`pairsWithoutRoute`).
 */
export function allPairs(): Extract<Subject, { kind: 'pair' }>[] {
  const pairs: Extract<Subject, { kind: 'pair' }>[] = [];
  for (const taker of routeTakers as readonly RouteTaker[]) {
    for (const d of defects as readonly Defect[]) {
      if (taker.defects?.includes(d.id as never)) continue;
      const noRoute = pairsWithoutRoute.find((p) => p.defect === d.id && p.taker === taker.id);
      if (noRoute && !noRoute.excused) continue;
      const excused: readonly RuleId[] = noRoute?.excused ?? [];
      pairs.push({
        kind: 'pair',
        id: `${d.id} + ${taker.id}`,
        defect: d.id,
        taker,
        breaks: [...new Set([...d.breaks, ...taker.breaks])].filter((id) => !excused.includes(id)),
        own: d.breaks,
        mayFollow: [...new Set([...(d.mayFollow ?? []), ...(taker.mayFollow ?? [])])],
      });
    }
  }
  return pairs;
}

/**
 * The pairs the self-test exempts (`pairsWithoutRoute`), one line each: the pair, what is exempted (the whole pair,
 * or the rules it cannot judge) and why the interface document leaves that verdict undecidable.
 */
export function exemptionLines(): string[] {
  return pairsWithoutRoute.map((p) => {
    const what = p.excused ? `${p.excused.join(', ')} not judged` : 'not run';
    return `- pair   ${`${p.defect} + ${p.taker}`.padEnd(40)} ${what}: ${p.reason}`;
  });
}

/**
 * A seeded sample of the pairs: `perTaker` defects for each route-taker, picked by a small generator from `seed`, so
 * that `npm test` checks every route-taker on a few defects, and another seed other ones.
 */
export function samplePairs(seed: number, perTaker: number): Extract<Subject, { kind: 'pair' }>[] {
  let state = (seed >>> 0) || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const all = allPairs();
  return (routeTakers as readonly RouteTaker[]).flatMap((taker) => {
    const mine = all.filter((p) => p.taker.id === taker.id);
    const picked: typeof mine = [];
    while (picked.length < Math.min(perTaker, mine.length)) {
      const candidate = mine[next() % mine.length]!;
      if (!picked.includes(candidate)) picked.push(candidate);
    }
    return picked;
  });
}

interface MutantEntry {
  readonly id: string;
  readonly breaks: readonly RuleId[];
  readonly mayFollow?: readonly RuleId[];
  readonly module: string;
}

/**
 * The reference TypeScript driver as a command: compiled, on plain Node. From the sources (the harness's own tests),
 * the compiled one too when `dist/` was built after the last change to the sources (as bin/tds-conformance.js
 * decides), else through tsx: `node --import tsx` rather than `npx tsx`, half the start-up (0.6 s against 1.3 s), and
 * the client suite starts it for every check.
 */
async function referenceDriver(): Promise<{ command: string; cwd: string }> {
  const compiled = { command: `"${process.execPath}" examples/clients/typescript/driver.js`, cwd: CODE_ROOT };
  if (CODE_EXT === '.js') return compiled;
  const freshness = join(PACKAGE_ROOT, 'scripts', 'dist-fresh.mjs');
  if (existsSync(freshness)) {
    const { distIsFresh } = (await import(pathToFileURL(freshness).href)) as { distIsFresh: (root: string) => boolean };
    if (distIsFresh(PACKAGE_ROOT)) return { command: compiled.command, cwd: join(PACKAGE_ROOT, 'dist') };
  }
  return { command: `"${process.execPath}" --import tsx examples/clients/typescript/driver.ts`, cwd: CODE_ROOT };
}

/** Every subject of the self-test: each simulator defect, each mutant client, and the reference clients. */
export async function allSubjects(): Promise<Subject[]> {
  const { mutants } = (await import('../fixtures/mutants/index.ts')) as { mutants: readonly MutantEntry[] };
  return [
    ...defects.map((d: Defect): Subject => ({ kind: 'defect', id: d.id, breaks: d.breaks, mayFollow: d.mayFollow ?? [] })),
    ...mutants.map((m): Subject => ({ kind: 'mutant', id: m.id, breaks: m.breaks, mayFollow: m.mayFollow ?? [], client: { kind: 'module', path: codeFile(m.module) }, faults: [m.id] })),
    { kind: 'reference', id: 'simulator and reference TypeScript client (in-process)', suite: 'all' },
    { kind: 'reference', id: 'reference TypeScript driver (stdio)', suite: 'client', client: { kind: 'command', ...(await referenceDriver()) } },
    { kind: 'reference', id: 'reference Python driver (stdio)', suite: 'client', client: { kind: 'command', command: 'python3 examples/clients/python/driver.py', cwd: PACKAGE_ROOT } },
  ];
}

/** One line of the self-test's output: the subject, and the statuses of the rules it breaks (and what followed). */
export function resultLine(r: SelfTestResult): string {
  const mark = r.kind === 'caught' || r.kind === 'clean' ? '✓' : '✗';
  const collateral = r.kind === 'collateral' ? `; collateral: ${r.wrong.map((id) => `${id} ${r.statuses[id]}`).join(', ')}` : '';
  const kind = r.subject.kind === 'defect' ? 'defect' : r.subject.kind === 'mutant' ? 'mutant' : r.subject.kind === 'pair' ? 'pair  ' : 'clean ';
  let detail: string;
  if (r.subject.kind === 'reference') detail = r.kind === 'clean' ? 'no rule failed' : Object.entries(r.statuses).map(([id, s]) => `${id} ${s}`).join(', ');
  else {
    detail = r.subject.breaks.map((id) => `${id} ${r.statuses[id]}${r.statuses[id] === expectedStatus(id) ? '' : ` (expected ${expectedStatus(id)})`}`).join(', ');
    const followed = r.subject.mayFollow.filter((id) => r.statuses[id] !== undefined);
    if (followed.length) detail += `; also ${followed.map((id) => `${id} ${r.statuses[id]}`).join(', ')} (declared to follow)`;
  }
  return `${mark} ${kind} ${r.subject.id.padEnd(40)} ${detail}${collateral}`;
}

/** The precision of a set of results: defects and mutants caught by exactly their rules, and the collateral verdicts. */
export function precisionLine(results: readonly SelfTestResult[]): string {
  const judged = results.filter((r) => r.subject.kind !== 'reference');
  const collateral = judged.flatMap((r) => (r.kind === 'collateral' ? r.wrong : []));
  // Hidden verdicts of the reference clients count too: a check their run did not run, that the in-process one did.
  const hidden = results.flatMap((r) => (r.kind === 'hidden' ? r.wrong : []));
  const precise = judged.filter((r) => r.kind === 'caught').length;
  const what = judged.some((r) => r.subject.kind === 'pair') ? 'defects, mutants and defect pairs' : 'defects and mutants';
  return `precision: ${precise} of ${judged.length} ${what} caught by exactly their rules; ${collateral.length} collateral verdict${collateral.length === 1 ? '' : 's'}; ${hidden.length} hidden verdict${hidden.length === 1 ? '' : 's'}`;
}
