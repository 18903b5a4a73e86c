/**
 * The conformance run as a user starts it: `node bin/tds-conformance.js run …` in a child process, timed from spawn to
 * exit, with
 * - peak memory: `/usr/bin/time -v` (GNU time: the largest single process of the run) when present, and the summed
 *   RSS and PSS of the whole process tree (the CLI and its Vitest workers), sampled every 100 ms from /proc;
 * - the generated cases: counted in every Node process of the run by bench/probe.mjs (loaded through NODE_OPTIONS);
 *   without GNU time the probe's figures (largest Node process, summed CPU of the Node processes) stand in.
 *
 *   npx tsx bench/default-run.ts [-- <run options>]      (default: --suite all)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, isMain, ROOT, runChild } from './util.ts';

const GNU_TIME = '/usr/bin/time';

export interface CliRun {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  /** The CLI's summary line ("49 pass, 0 fail, …"). */
  readonly summary: string;
  readonly wallMs: number;
  /** CPU time (user + system) of the run, all processes; from GNU time, else the Node processes' own. */
  readonly cpuMs: number;
  /** Peak RSS of the largest single process, in KiB. */
  readonly maxRssKiB: number;
  readonly maxRssSource: 'GNU time' | 'process.resourceUsage()';
  /** Peak of the summed RSS of the whole process tree, in KiB (0 without /proc). */
  readonly treePeakKiB: number;
  /** Peak of the summed PSS of the whole process tree (shared pages counted once), in KiB (0 without /proc). */
  readonly treePssPeakKiB: number;
  /** Generated cases: runs of fast-check properties, counted in every process of the run. */
  readonly cases: number;
}

interface ProbeRecord {
  readonly cases: number;
  readonly maxRssKiB: number;
  readonly cpuUs: number;
}

/** Reads GNU time's `-v` report: wall, CPU and peak RSS; `undefined` when it is not that format. */
function parseGnuTime(text: string): { cpuMs: number; maxRssKiB: number } | undefined {
  const num = (label: string): number | undefined => {
    const m = new RegExp(`${label}: ([\\d.]+)`).exec(text);
    return m?.[1] === undefined ? undefined : Number(m[1]);
  };
  const user = num('User time \\(seconds\\)');
  const system = num('System time \\(seconds\\)');
  const rss = num('Maximum resident set size \\(kbytes\\)');
  if (user === undefined || system === undefined || rss === undefined) return undefined;
  return { cpuMs: (user + system) * 1000, maxRssKiB: rss };
}

/** Runs `tds-conformance run <args> --quiet` into a temporary report directory and measures it. */
/**
 * @param options `probe: false` runs without bench/probe.mjs (no case count, nor the probe's own start-up in every
 * process): the wall time a user gets.
 */
export async function measureCliRun(args: readonly string[], options: { readonly probe?: boolean; readonly env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const work = mkdtempSync(join(tmpdir(), 'tds-bench-'));
  const probeDir = join(work, 'probe');
  const timeFile = join(work, 'time.txt');
  try {
    mkdirSync(probeDir);
    const cli = [join(ROOT, 'bin/tds-conformance.js'), 'run', ...args, '--quiet', '--out', join(work, 'reports')];
    const gnuTime = existsSync(GNU_TIME);
    const probe = `--import ${pathToFileURL(join(ROOT, 'bench/probe.mjs')).href}`;
    // A fresh process unless a run server is asked for (a terminal's run could be handed to one).
    const base = options.env ?? { ...process.env, TDS_RUN_SERVER: '0' };
    const env = options.probe === false
      ? { ...base }
      : { ...base, TDS_BENCH_PROBE_DIR: probeDir, NODE_OPTIONS: [process.env['NODE_OPTIONS'], probe].filter(Boolean).join(' ') };
    const child = gnuTime
      ? await runChild(GNU_TIME, ['-v', '-o', timeFile, process.execPath, ...cli], { env })
      : await runChild(process.execPath, cli, { env });
    // A process killed at exit (a worker ended by Vitest) may leave its record empty: it is left out.
    const records = readdirSync(probeDir).flatMap((f) => {
      try {
        return [JSON.parse(readFileSync(join(probeDir, f), 'utf8')) as ProbeRecord];
      } catch {
        return [];
      }
    });
    const timed = gnuTime && existsSync(timeFile) ? parseGnuTime(readFileSync(timeFile, 'utf8')) : undefined;
    const summary = `${child.stdout}\n${child.stderr}`.split('\n').map((l) => l.trim()).filter((l) => /\d+ pass, .*\d+ fail/.test(l)).at(-1) ?? '(no summary line)';
    return {
      args,
      exitCode: child.code,
      summary,
      wallMs: child.wallMs,
      cpuMs: timed?.cpuMs ?? records.reduce((sum, r) => sum + r.cpuUs, 0) / 1000,
      maxRssKiB: timed?.maxRssKiB ?? Math.max(0, ...records.map((r) => r.maxRssKiB)),
      maxRssSource: timed ? 'GNU time' : 'process.resourceUsage()',
      treePeakKiB: child.treePeakKiB,
      treePssPeakKiB: child.treePssPeakKiB,
      cases: records.reduce((sum, r) => sum + r.cases, 0),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function describeRun(r: CliRun): string {
  return `${fmt.s(r.wallMs).padStart(8)} wall, ${fmt.s(r.cpuMs).padStart(8)} CPU, ${fmt.int(r.cases).padStart(5)} cases (${fmt.int(r.cases / (r.wallMs / 1000))}/s), `
    + `peak RSS ${fmt.mib(r.maxRssKiB)} (largest process) / ${r.treePeakKiB ? fmt.mib(r.treePeakKiB) : 'n/a'} RSS, ${r.treePssPeakKiB ? fmt.mib(r.treePssPeakKiB) : 'n/a'} PSS (process tree); exit ${r.exitCode}: ${r.summary}`;
}

if (isMain(import.meta.url)) {
  const dash = process.argv.indexOf('--');
  const args = dash >= 0 ? process.argv.slice(dash + 1) : ['--suite', 'all'];
  console.log(`tds-conformance run ${args.join(' ')}`);
  console.log(describeRun(await measureCliRun(args)));
}
