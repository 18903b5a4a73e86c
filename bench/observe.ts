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
 * traffic stopped (harness/cli/observe.ts `finishObservation`: the schema validator (in-process), the
 * judgement, the reports written, the summary) is timed. Memory: the observing process's peak RSS over its whole life
 * (recording included; the application's process is not counted), and its peak heap while judging. The observing
 * process is bench/observe-child.mjs, on plain Node as users run `observe`.
 *
 *   npx tsx bench/observe.ts [--exchanges 2000,20000] [--pairs 3] [--no-validator]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { fmt, isMain, machineLine, median, ROOT, runChild } from './util.ts';

/** The measured process: bench/observe-child.mjs (plain JavaScript, so that no TypeScript loader weighs on it). */
const CHILD = join(ROOT, 'bench', 'observe-child.mjs');
const { compiled } = (await import(pathToFileURL(join(ROOT, 'scripts', 'dist-fresh.mjs')).href) as {
  checkoutModules: (root: string) => { compiled: boolean };
}).checkoutModules(ROOT);

/** One measurement: the traffic, then the judgement after it stopped (what bench/observe-child.mjs prints). */
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
  /**
   * Peak summed RSS of the process tree (the observer, the application it runs, the schema validator's JVM), sampled
   * every 100 ms by bench/util.ts runChild, KiB.
   */
  readonly treePeakKiB: number;
  readonly exitCode: number;
  readonly validator: boolean;
}

/** One measurement in a fresh process (so that each peak RSS is its own). */
export async function measureObserve(n: number, options: { validator: boolean }): Promise<ObserveRun> {
  const args = [CHILD, String(n), ...(options.validator ? [] : ['--no-validator'])];
  // The observer as users run it: plain Node on the compiled harness when dist/ is fresh (no TypeScript loader in the
  // measured process: tsx alone adds some 35 MiB), else the sources through tsx.
  const r = await runChild(process.execPath, compiled ? args : ['--import', 'tsx', ...args]);
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (r.code !== 0 || !line) throw new Error(`bench/observe-child.mjs ${n} exited ${r.code}: ${r.stderr.slice(-800)}`);
  return { ...(JSON.parse(line) as Omit<ObserveRun, 'treePeakKiB'>), treePeakKiB: r.treePeakKiB };
}

export const describeObserveRun = (r: ObserveRun): string =>
  `${fmt.int(r.exchanges)} exchanges (traffic ${fmt.s(r.trafficMs)}): judged in ${fmt.s(r.judgeMs)}, peak RSS ${fmt.mib(r.peakRssKiB)} (while judging ${fmt.mib(r.judgePeakRssKiB)}, heap ${fmt.mib(r.judgePeakHeapKiB)}; process tree ${fmt.mib(r.treePeakKiB)}), exit ${r.exitCode}`;


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
    `${fmt.int(median(runs.map((r) => r.exchanges)))} exchanges: judged in ${fmt.s(median(runs.map((r) => r.judgeMs)))} median (${runs.map((r) => fmt.s(r.judgeMs)).join(', ')}), peak RSS ${fmt.mib(median(runs.map((r) => r.peakRssKiB)))} median (max ${fmt.mib(Math.max(...runs.map((r) => r.peakRssKiB)))}), process tree ${fmt.mib(median(runs.map((r) => r.treePeakKiB)))} median, heap while judging ${fmt.mib(median(runs.map((r) => r.judgePeakHeapKiB)))}`;
  return [`  ${line(s.base)}`, `  ${line(s.large)}`, `  ×10 traffic / base: ${s.ratios.map((r) => `×${r.toFixed(2)}`).join(', ')} (median ×${median(s.ratios).toFixed(2)})`];
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { exchanges: { type: 'string', default: '2000,20000' }, pairs: { type: 'string', default: '3' }, 'no-validator': { type: 'boolean', default: false } } });
  const validator = !values['no-validator'];
  const sizes = values.exchanges.split(',').map(Number) as [number, number];
  console.log(machineLine());
  console.log(`observe: judging ${sizes.map((s) => fmt.int(s)).join(' and ')} recorded exchanges after the traffic stopped, ${values.pairs} pairs${validator ? '' : ', no schema validator'}`);
  const s = await measureObserveScaling(sizes, Number(values.pairs), { validator, log: console.log });
  for (const l of describeObserveScaling(s)) console.log(l);
}
