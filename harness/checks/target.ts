import { expect, inject } from 'vitest';
import { suiteFileKey } from '../package-info.ts';
import { providedRunConfig, type RunConfig } from '../run-config.ts';
import { createLiveTarget, createSimTarget, type Target } from '../targets/index.ts';
import { throttledTransport } from '../targets/throttle.ts';
import { budgetedTransport, isRootCheck, LIVE_BUDGET } from './budget.ts';
import { factsTransport } from './profile-facts.ts';
import { resetJournal } from './journal.ts';
import { runLedger } from './registry.ts';
import { CORRELATION_HEADER, currentRules, newRunId, tracingTransport, type TraceConfig } from './trace.ts';
import { registerPassword } from './secrets.ts';
import { consultedList } from '../consulted-set.ts';

let current: Promise<Target> | undefined;
/** The simulator of this test file's target, when it is one. */
let currentSim: { readonly consultedDefects: ReadonlySet<string> | 'all' } | undefined;

/** The run configuration the CLI provided (or the defaults of vitest.config.ts). */
export function runConfig(): RunConfig {
  return providedRunConfig(inject('tdsRun'));
}

/** The trace of a run without one (plain `npx vitest`): a run ID of this worker's own, the default header. */
let ownTrace: TraceConfig | undefined;

async function create(run: RunConfig): Promise<Target> {
  const trace = run.trace ?? (ownTrace ??= { runId: newRunId(), header: CORRELATION_HEADER });
  const target = await untraced(run);
  return { ...target, transport: tracingTransport(target.transport, trace) };
}

async function untraced(run: RunConfig): Promise<Target> {
  if (run.target.kind === 'sim') {
    // The suite file this worker is running, as `fileProfiles` names it.
    const path = run.target.fileProfiles ? expect.getState().testPath : undefined;
    const file = path === undefined ? undefined : suiteFileKey(path);
    const profile = (file !== undefined ? run.target.fileProfiles?.[file] : undefined) ?? run.target.profile;
    const sim = await createSimTarget({ defects: run.target.defects, seed: run.seed, requestTimeoutMs: run.requestTimeoutMs, ...(profile && { profile }) });
    currentSim = sim.core;
    // A throttling front of the simulator (a profile's `throttle`) is waited out as a live one is, on the
    // simulator's scale (it answers `Retry-After: 0`; a 503 is backed off in milliseconds, not seconds).
    return { ...sim, transport: throttledTransport(sim.transport, { ...throttleOptions(run, sim), baseBackoffMs: 4, minIntervalMs: 2, maxIntervalMs: 20 }) };
  }
  const target = createLiveTarget(run.target.config, { requestTimeoutMs: run.requestTimeoutMs, allowOptIn: run.allowOptIn });
  // One budget for the whole run, counted by the main process's session registry (across workers and test files).
  // Throttles are waited out inside it: a throttled attempt is a request, not a token or session created.
  const waitMs = run.throttleWaitMs ?? (run.target.config.throttleWaitSeconds !== undefined ? run.target.config.throttleWaitSeconds * 1000 : undefined);
  const throttled = throttledTransport(target.transport, { ...throttleOptions(run, target), ...(waitMs !== undefined && { maxWaitMs: waitMs }) });
  // A live run through the CLI learns the target's profile from the answers its checks get (harness/profile).
  const learning = run.registry ? factsTransport(throttled, target) : throttled;
  return { ...target, transport: budgetedTransport(learning, run.budget ?? LIVE_BUDGET, runLedger(run), () => isRootCheck(currentRules())) };
}

function throttleOptions(run: RunConfig, target: Target): { faultCodes: Target['faultCodes']; maxWaitMs?: number } {
  return { faultCodes: target.faultCodes, ...(run.throttleWaitMs !== undefined && { maxWaitMs: run.throttleWaitMs }) };
}

/** The test file {@link current} was created for. */
let currentFile: string | undefined;

/**
 * The target of this test file, created on first use and closed after the file (see `setup.ts`). A target an earlier
 * file left (its end hook did not get to close it) is closed, never used: its simulator may have another run's defects.
 */
export async function currentTarget(): Promise<Target> {
  const file = expect.getState().testPath;
  if (current && file !== currentFile) await closeTarget();
  if (!current) {
    resetJournal();
    currentFile = file;
  }
  current ??= create(runConfig()).then((target) => {
    for (const account of Object.values(target.accounts)) registerPassword(account?.password);
    if (target.control) for (const account of Object.values(target.control.extraAccounts)) registerPassword(account.password);
    return target;
  });
  return current;
}

/**
 * The simulator defects this test file's target asked about (`all`: it read them otherwise), or none: a file whose
 * simulator never asked about a defect got the answers it would have got with the defect switched on.
 */
export function consultedDefects(): readonly string[] | 'all' {
  return consultedList(currentSim?.consultedDefects);
}

export async function closeTarget(): Promise<void> {
  const target = current;
  current = undefined;
  currentFile = undefined;
  currentSim = undefined;
  if (target) await (await target.catch(() => undefined))?.close();
}
