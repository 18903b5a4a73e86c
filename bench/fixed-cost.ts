/**
 * Where a run's time goes, and the HTTP exchanges it makes (the floor it is paired against):
 * - `recordExchanges(args, file)`: one run with `--report-har`; its traffic.har's exchanges written to `file` in the
 *   form bench/floor.mjs replays (method, path, headers and body of each request and of its answer), and counted;
 * - `measurePhases(args, n)`: n runs with `TDS_TIMING=1` (harness/timing.ts), the medians of each phase: the process
 *   and CLI start, Vitest's start, the run's setup (its reporter, configuration), the worker's start, the test files, the reports, the
 *   exit.
 *
 *   npx tsx bench/fixed-cost.ts [--runs 5] [-- <run options>]      (default: --only REST-03)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fmt, isMain, median, ROOT, runChild } from './util.ts';

const BIN = join(ROOT, 'bin/tds-conformance.js');

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

interface HarEntry {
  readonly request: { readonly method: string; readonly url: string; readonly headers: readonly HarHeader[]; readonly postData?: { readonly text?: string } };
  readonly response: { readonly status: number; readonly headers: readonly HarHeader[]; readonly content: { readonly text?: string; readonly encoding?: string } };
}

/** One exchange as bench/floor.mjs replays it: method, path, request headers and body, status, response headers and body. */
export type FloorExchange = [string, string, Record<string, string>, string, number, Record<string, string>, string];

/** Headers the floor's own HTTP/1.1 sets (framing, connection, host, date). */
const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'date']);

function headers(list: readonly HarHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) if (!HOP_HEADERS.has(h.name.toLowerCase())) out[h.name] = h.value;
  return out;
}

/** A HAR entry as the floor replays it (secrets stay redacted as the HAR has them: a few bytes more or less). */
export function floorExchange(entry: HarEntry): FloorExchange {
  const url = new URL(entry.request.url);
  const content = entry.response.content;
  const body = content.encoding === 'base64' ? Buffer.from(content.text ?? '', 'base64').toString('utf8') : (content.text ?? '');
  return [entry.request.method, `${url.pathname}${url.search}`, headers(entry.request.headers), entry.request.postData?.text ?? '',
    entry.response.status, headers(entry.response.headers), body];
}

/**
 * The HTTP exchanges of a run with these options: one run with `--report-har`; its traffic.har's entries written to
 * `file` as bench/floor.mjs replays them. Returns how many.
 */
export async function recordExchanges(args: readonly string[], file: string): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'tds-bench-har-'));
  try {
    const r = await runChild(process.execPath, [BIN, 'run', ...args, '--quiet', '--report-har', '--out', out]);
    if (r.code !== 0) throw new Error(`run ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-400)}`);
    const har = JSON.parse(readFileSync(join(out, 'traffic.har'), 'utf8')) as { log: { entries: HarEntry[] } };
    writeFileSync(file, JSON.stringify(har.log.entries.map(floorExchange)));
    return har.log.entries.length;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The phases of a run, in ms, in the order they happen. */
export const PHASES = ['node and CLI start', 'Vitest start', 'run setup', 'worker start', 'test files', 'reports', 'exit'] as const;
export type Phase = (typeof PHASES)[number];

interface Mark {
  readonly who: string;
  readonly name: string;
  readonly at: number;
}

/** Reads `tds-timing <who> <name…> <ms> at <epoch>` lines. */
export function parseMarks(stderr: string): Mark[] {
  return stderr.split('\n').flatMap((line) => {
    const m = /^tds-timing (\S+) (.+) \d+ at (\d+)$/.exec(line.trim());
    return m ? [{ who: m[1]!, name: m[2]!, at: Number(m[3]) }] : [];
  });
}

/** One run's phases from its marks, given when the process was spawned and when it exited (epoch ms). */
export function phasesOf(marks: readonly Mark[], spawnedAt: number, exitedAt: number): Record<Phase, number> | undefined {
  const at = (name: string, who = 'main') => marks.find((m) => m.who === who && m.name === name)?.at;
  const files = marks.filter((m) => m.who === 'worker');
  const first = files.find((m) => m.name.startsWith('file-start'))?.at;
  const last = files.filter((m) => m.name === 'file-end').at(-1)?.at;
  const cli = at('cli-start');
  const ready = at('vitest-ready');
  const start = at('run-start');
  const reports = at('reports-written');
  if ([cli, ready, start, reports, first, last].some((x) => x === undefined)) return undefined;
  return {
    'node and CLI start': cli! - spawnedAt,
    'Vitest start': ready! - cli!,
    'run setup': start! - ready!,
    'worker start': first! - start!,
    'test files': last! - first!,
    reports: reports! - last!,
    exit: exitedAt - reports!,
  };
}


/** The medians of each phase over `runs` runs with these options, and of the whole. */
export async function measurePhases(args: readonly string[], runs: number): Promise<{ phases: Record<Phase, number>; wallMs: number; runs: number }> {
  const all: Record<Phase, number>[] = [];
  const walls: number[] = [];
  const out = mkdtempSync(join(tmpdir(), 'tds-bench-phases-'));
  try {
    for (let i = 0; i < runs; i++) {
      const spawnedAt = Date.now();
      const r = await runChild(process.execPath, [BIN, 'run', ...args, '--quiet', '--out', out], { env: { ...process.env, TDS_TIMING: '1' } });
      const exitedAt = Date.now();
      if (r.code !== 0) throw new Error(`run ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-400)}`);
      const p = phasesOf(parseMarks(r.stderr), spawnedAt, exitedAt);
      if (p) all.push(p);
      walls.push(r.wallMs);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const phases = Object.fromEntries(PHASES.map((p) => [p, median(all.map((x) => x[p]))])) as Record<Phase, number>;
  return { phases, wallMs: median(walls), runs: all.length };
}

/** The phases as one line: `node and CLI start 0.14 s · Vitest start 0.31 s · …`. */
export function describePhases(phases: Record<Phase, number>): string {
  return PHASES.map((p) => `${p} ${fmt.s(phases[p])}`).join(' · ');
}

if (isMain(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '5' } }, allowPositionals: true });
  const args = positionals.length > 0 ? positionals : ['--only', 'REST-03'];
  const dir = mkdtempSync(join(tmpdir(), 'tds-bench-floor-'));
  try {
    console.log(`${args.join(' ')}: ${await recordExchanges(args, join(dir, 'exchanges.json'))} HTTP exchanges`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { phases, wallMs, runs } = await measurePhases(args, Number(values.runs));
  console.log(`median of ${runs}: ${fmt.s(wallMs)} wall; ${describePhases(phases)}`);
}
