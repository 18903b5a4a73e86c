/**
 * `observe` at scale: the time and memory of judging N recorded exchanges once the traffic stopped, at N = 2,000 and
 * N = 20,000 (×10 traffic), in alternating pairs, each measurement in a fresh process.
 *
 * The traffic is an hour of a busy application, compressed: two applications on the reference TypeScript client (the
 * main accounts in CERT and PROD, and the other agency's account in CERT), each with several workers at once — REST
 * calls, sessionless SOAP calls, sessions opened, used and closed — through the recording proxy in front of the
 * simulator. The clients' clock and the injections' clock move one minute every N/60 exchanges, and tokens expire
 * after ten minutes (`--inject expire-tokens-after=600`, and the first one is refused once: `unauthorized-once`), so the traffic holds many tokens (renewed after a refusal)
 * and many sessions, interleaved. Then exactly what `observe` does after the traffic stopped (harness/cli/observe.ts
 * `finishObservation`: the schema validator when a JDK is there, the judgement, the reports written, the summary) is
 * timed; the process's peak RSS (whole life, traffic included) and the peak heap while judging are read.
 *
 *   npx tsx bench/observe.ts [--exchanges 2000,20000] [--pairs 3] [--no-validator]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TdsClient } from '../examples/clients/typescript/client.ts';
import type { DriverEnvironment } from '../harness/clients/protocol.ts';
import { finishObservation } from '../harness/cli/observe.ts';
import { Observation, parseInjections } from '../harness/observe/index.ts';
import type { Environment } from '../harness/spec/index.ts';
import { fmt, isMain, machineLine, runChild, tsxArgs } from './util.ts';

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

const THEMES = '/v1/lists/supported/shop/themes';
const POOL = 4;
const MINUTES = 60;

const swallow = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

function client(observation: Observation, now: () => number, cert: { epr: string; pcc: string; password: string }, withProd: boolean): TdsClient {
  const vars = observation.childEnvironment();
  const environments: Partial<Record<Environment, DriverEnvironment>> = {};
  for (const env of withProd ? (['cert', 'prod'] as const) : (['cert'] as const)) {
    const E = env.toUpperCase();
    const account = env === 'cert' ? cert : { epr: vars.TDS_PROD_EPR as string, pcc: vars.TDS_PROD_PCC as string, password: vars.TDS_PROD_PASSWORD as string };
    environments[env] = {
      restBaseUrl: vars[`TDS_${E}_REST_URL`] as string,
      soapUrl: vars[`TDS_${E}_SOAP_URL`] as string,
      credentials: { ...account, soapDomain: 'DEFAULT' },
    };
  }
  return new TdsClient({ environments, sessionPoolSize: POOL, now, poolFullBackoffMs: 50, requestTimeoutMs: 10_000 });
}

/** Records `n` exchanges (a few more: the workers in flight finish), then judges them as `observe` does. */
export async function observeOnce(n: number, options: { validator: boolean; printSummary?: boolean }): Promise<ObserveRun> {
  let offset = 0;
  const now = () => Date.now() + offset;
  const observation = await Observation.start({ upstream: 'sim', sessionPoolSize: POOL, injections: parseInjections(['expire-tokens-after=600', 'unauthorized-once']), injectionClock: now });
  const outDir = mkdtempSync(join(tmpdir(), 'tds-bench-observe-'));
  try {
    const accounts = observation.simAccounts()!;
    const apps = [client(observation, now, accounts.main.cert, true), client(observation, now, accounts.otherAgency, false)];
    const started = performance.now();
    let ops = 0;
    let stop = false;
    let minute = 0;
    const tick = () => {
      if (++ops % 50 !== 0) return;
      const seen = observation.proxy.exchanges().length;
      if (seen >= n) stop = true;
      // One simulated minute every n/60 exchanges: tokens get old, expire, are renewed.
      while (minute < MINUTES && seen >= ((minute + 1) * n) / MINUTES) {
        minute++;
        offset += 60_000;
      }
    };
    const loop = async (body: (i: number) => Promise<unknown>) => {
      for (let i = 0; !stop; i++) {
        await swallow(body(i));
        tick();
      }
    };
    const [main, other] = apps as [TdsClient, TdsClient];
    const session = async (c: TdsClient, i: number) => {
      const s = await c.openSession('cert');
      for (let k = 0; k < 2 + (i % 3); k++) await swallow(c.sessionCall(s, k % 2 ? 'OTA_HotelAvailLLSRQ' : 'OTA_PingRQ'));
      await c.closeSession(s);
    };
    await Promise.all([
      ...[0, 1, 2].map((w) => loop((i) => main.rest((i + w) % 2 ? 'prod' : 'cert', 'GET', THEMES))),
      ...[0, 1].map((w) => loop((i) => main.soap((i + w) % 3 === 2 ? 'prod' : 'cert', 'BargainFinderMaxRQ'))),
      ...[0, 1, 2].map(() => loop((i) => session(main, i))),
      ...[0, 1].map(() => loop(() => other.rest('cert', 'GET', THEMES))),
      loop((i) => session(other, i)),
    ]);
    for (const app of apps) await swallow(app.close());
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

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

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
