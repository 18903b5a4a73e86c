/**
 * `observe` at scale: the time and memory of judging N recorded exchanges once the traffic stopped, at N = 2,000 and
 * N = 20,000 (×10 traffic), in alternating pairs, each measurement in a fresh process.
 *
 * The traffic is an hour of a busy application, compressed: bench/observe-app.ts, in its own process as with
 * `observe -- <command>` (two clients on the reference TypeScript client, several workers each: REST calls, sessionless
 * SOAP calls, sessions opened, used and closed), through the recording proxy in front of the simulator. The clients'
 * clock and the injections' clock move one minute every N/60 exchanges, and tokens expire after ten minutes
 * (`--inject expire-tokens-after=600`; the first one is also refused once, `unauthorized-once`), so the traffic holds
 * many tokens (renewed after a refusal) and many sessions, interleaved. Then exactly what `observe` does after the
 * traffic stopped (harness/cli/observe.ts `finishObservation`: the schema validator when a JDK is there, the
 * judgement, the reports written, the summary) is timed. Memory: the observing process's peak RSS over its whole life
 * (recording included; the application's process is not counted), and its peak heap while judging.
 *
 *   npx tsx bench/observe.ts [--exchanges 2000,20000] [--pairs 3] [--no-validator]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fork } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { fmt, isMain, machineLine, median, ROOT, runChild, tsxArgs } from './util.ts';

// The observer as users run it: the compiled harness when dist/ is fresh (as bin/tds-conformance.js decides), else
// the sources (through the bench's own TypeScript loader, which costs the process some 40 MiB more).
const modules = (await import(pathToFileURL(join(ROOT, 'scripts', 'dist-fresh.mjs')).href) as {
  checkoutModules: (root: string) => { url: (path: string) => string };
}).checkoutModules(ROOT);
const fromHarness = async <T>(path: string): Promise<T> => (await import(modules.url(path))) as T;
const { finishObservation } = await fromHarness<typeof import('../harness/cli/observe.ts')>('harness/cli/observe.ts');
const { Observation, parseInjections } = await fromHarness<typeof import('../harness/observe/index.ts')>('harness/observe/index.ts');

/** One measurement: the traffic, then the judgement after it stopped. */
export interface ObserveRun {
  readonly exchanges: number;
  /** Generating the traffic (not part of the figure). */
  readonly trafficMs: number;
  /** From the moment the traffic stopped to the reports written and the summary printed. */
  readonly judgeMs: number;
  /** Peak RSS of the process over its whole life (the traffic included), KiB. */
  readonly peakRssKiB: number;
  /** Peak RSS and heap used sampled while judging, KiB. */
  readonly judgePeakRssKiB: number;
  readonly judgePeakHeapKiB: number;
  readonly exitCode: number;
  readonly validator: boolean;
}

/** The session pool of the application (the simulator's accounts have 4). */
const POOL = 4;
const MINUTES = 60;

/** Records `n` exchanges of bench/observe-app.ts (a few more: the requests in flight finish), then judges them as `observe` does. */
export async function observeOnce(n: number, options: { validator: boolean; printSummary?: boolean }): Promise<ObserveRun> {
  let offset = 0;
  const now = () => Date.now() + offset;
  const observation = await Observation.start({ upstream: 'sim', sessionPoolSize: POOL, injections: parseInjections(['expire-tokens-after=600', 'unauthorized-once']), injectionClock: now });
  const outDir = mkdtempSync(join(tmpdir(), 'tds-bench-observe-'));
  try {
    const other = observation.simAccounts()!.otherAgency;
    const started = performance.now();
    const app = fork(join(ROOT, 'bench/observe-app.ts'), [], {
      execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...observation.childEnvironment(), BENCH_OTHER_EPR: other.epr, BENCH_OTHER_PCC: other.pcc, BENCH_OTHER_PASSWORD: other.password, BENCH_POOL: String(POOL) },
    });
    const exited = new Promise<void>((resolve) => app.once('exit', () => resolve()));
    let minute = 0;
    let stopped = false;
    const poll = setInterval(() => {
      const seen = observation.proxy.count();
      // One simulated minute every n/60 exchanges: tokens get old, expire, are renewed.
      while (minute < MINUTES && seen >= ((minute + 1) * n) / MINUTES) {
        minute++;
        offset += 60_000;
        if (app.connected) app.send({ offset });
      }
      if (seen >= n && !stopped && app.connected) {
        stopped = true;
        app.send({ stop: true });
      }
    }, 20);
    await exited;
    clearInterval(poll);
    const trafficMs = performance.now() - started;
    const exchanges = observation.proxy.exchanges().length;

    // The traffic stopped: from here on, what `observe` does.
    let judgePeakRssKiB = 0;
    let judgePeakHeapKiB = 0;
    const sample = () => {
      const m = process.memoryUsage();
      judgePeakRssKiB = Math.max(judgePeakRssKiB, m.rss / 1024);
      judgePeakHeapKiB = Math.max(judgePeakHeapKiB, m.heapUsed / 1024);
    };
    const timer = setInterval(sample, 20);
    const t0 = performance.now();
    let exitCode: number;
    try {
      const done = await finishObservation(observation, { wholeRun: true, outDir, ...(!options.validator && { startValidator: async () => undefined }) });
      exitCode = done.exitCode;
      if (options.printSummary) process.stderr.write(`${done.summary.join('\n')}\n`);
    } finally {
      clearInterval(timer);
    }
    const judgeMs = performance.now() - t0;
    sample();
    return { exchanges, trafficMs, judgeMs, peakRssKiB: process.resourceUsage().maxRSS, judgePeakRssKiB, judgePeakHeapKiB, exitCode, validator: options.validator };
  } finally {
    await observation.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** One measurement in a fresh process (so that each peak RSS is its own). */
export async function measureObserve(n: number, options: { validator: boolean }): Promise<ObserveRun> {
  const r = await runChild(process.execPath, tsxArgs('bench/observe.ts', '--child', String(n), ...(options.validator ? [] : ['--no-validator'])));
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (r.code !== 0 || !line) throw new Error(`bench/observe.ts --child ${n} exited ${r.code}: ${r.stderr.slice(-800)}`);
  return JSON.parse(line) as ObserveRun;
}

export const describeObserveRun = (r: ObserveRun): string =>
  `${fmt.int(r.exchanges)} exchanges (traffic ${fmt.s(r.trafficMs)}): judged in ${fmt.s(r.judgeMs)}, peak RSS ${fmt.mib(r.peakRssKiB)} (while judging ${fmt.mib(r.judgePeakRssKiB)}, heap ${fmt.mib(r.judgePeakHeapKiB)}), exit ${r.exitCode}`;


export interface ObserveScaling {
  readonly base: readonly ObserveRun[];
  readonly large: readonly ObserveRun[];
  /** Per pair: large judge time / base judge time. */
  readonly ratios: readonly number[];
}

/** `pairs` alternating pairs (base then large, then large then base, …). */
export async function measureObserveScaling(sizes: readonly [number, number], pairs: number, options: { validator: boolean; log?: (line: string) => void }): Promise<ObserveScaling> {
  const base: ObserveRun[] = [];
  const large: ObserveRun[] = [];
  for (let i = 0; i < pairs; i++) {
    let a: ObserveRun;
    let b: ObserveRun;
    if (i % 2 === 0) {
      a = await measureObserve(sizes[0], options);
      b = await measureObserve(sizes[1], options);
    } else {
      b = await measureObserve(sizes[1], options);
      a = await measureObserve(sizes[0], options);
    }
    base.push(a);
    large.push(b);
    options.log?.(`  pair ${i + 1}: ${describeObserveRun(a)}\n          ${describeObserveRun(b)}; ×${(b.judgeMs / a.judgeMs).toFixed(2)}`);
  }
  return { base, large, ratios: base.map((a, i) => (large[i]?.judgeMs ?? 0) / a.judgeMs) };
}

export function describeObserveScaling(s: ObserveScaling): string[] {
  const line = (runs: readonly ObserveRun[]) =>
    `${fmt.int(median(runs.map((r) => r.exchanges)))} exchanges: judged in ${fmt.s(median(runs.map((r) => r.judgeMs)))} median (${runs.map((r) => fmt.s(r.judgeMs)).join(', ')}), peak RSS ${fmt.mib(median(runs.map((r) => r.peakRssKiB)))} median (max ${fmt.mib(Math.max(...runs.map((r) => r.peakRssKiB)))}), heap while judging ${fmt.mib(median(runs.map((r) => r.judgePeakHeapKiB)))}`;
  return [`  ${line(s.base)}`, `  ${line(s.large)}`, `  ×10 traffic / base: ${s.ratios.map((r) => `×${r.toFixed(2)}`).join(', ')} (median ×${median(s.ratios).toFixed(2)})`];
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { exchanges: { type: 'string', default: '2000,20000' }, pairs: { type: 'string', default: '3' }, child: { type: 'string' }, 'no-validator': { type: 'boolean', default: false } } });
  const validator = !values['no-validator'];
  if (values.child !== undefined) {
    const run = await observeOnce(Number(values.child), { validator, printSummary: true });
    process.stdout.write(`${JSON.stringify(run)}\n`);
  } else {
    const sizes = values.exchanges.split(',').map(Number) as [number, number];
    console.log(machineLine());
    console.log(`observe: judging ${sizes.map((s) => fmt.int(s)).join(' and ')} recorded exchanges after the traffic stopped, ${values.pairs} pairs${validator ? '' : ', no schema validator'}`);
    const s = await measureObserveScaling(sizes, Number(values.pairs), { validator, log: console.log });
    for (const l of describeObserveScaling(s)) console.log(l);
  }
}
