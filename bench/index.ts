/**
 * `npm run bench`: the performance figures of the harness, side by side, each against its target.
 *
 * (a) the full default run against the simulator (`tds-conformance run --suite all`, default seed and runs): wall
 *     time and generated cases per second; (d) its peak memory;
 * (b) the simulator over loopback next to a plain node:http server answering the same token JSON;
 * (c) schema validation: the fast path next to per-call xsd-schema-validator (bench/validation.ts);
 * scaling: `--runs 5` against `--runs 50` on a subset, and a long random sequence of token and session operations
 *     driven into a SimCore (per-op time and heap, start against end).
 *
 * Figures only, no assertions: it exits 0 whether targets are met or missed, and 1 only if a measurement could not
 * be made. Each part also runs on its own (see the other files of bench/).
 *
 *   npm run bench [-- --default-runs 2 --soak-ops 150000 --validation-count 20000 --throughput-rounds 4]
 */
import { parseArgs } from 'node:util';
import { describeRun, measureCliRun, type CliRun } from './default-run.ts';
import { runSoak, type SoakResult, type SoakWindow } from './sim-soak.ts';
import { measureSimThroughput, type ThroughputResult } from './sim-throughput.ts';
import { fmt, machineLine } from './util.ts';
import { measureValidation, ROW_HEADER, row, type ValidationResult } from './validation.ts';

const { values } = parseArgs({
  options: {
    'default-runs': { type: 'string', default: '2' },
    'soak-ops': { type: 'string', default: '150000' },
    'validation-count': { type: 'string', default: '20000' },
    'throughput-rounds': { type: 'string', default: '4' },
  },
});

const TARGETS = {
  defaultRunMs: 20_000,
  simRatio: 0.5,
  envelopesPerSecond: 2_000,
  runsScale: 10,
  soakSlowdown: 1.5,
  soakHeapGrowth: 0.1,
} as const;

/** The subset of `--runs 5` against `--runs 50`: the model-based session test, token and API properties, both sides. */
const SCALING_ARGS = ['--suite', 'all', '--only', 'SESS,REST,API'];

interface Verdict {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

const verdicts: Verdict[] = [];
let failures = 0;

function section(title: string): void {
  console.log(`\n== ${title}`);
}

async function attempt<T>(what: string, body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (err) {
    failures++;
    console.log(`  could not measure ${what}: ${(err as Error).stack ?? String(err)}`);
    return undefined;
  }
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

console.log(`tds-auth-conformance benchmarks, ${new Date().toISOString()}`);
console.log(machineLine());

// (a) and (d): the full default run, as a user starts it.
section('(a) full default run against the simulator: tds-conformance run --suite all (seed 42, 25 runs per property)');
const defaultRuns: CliRun[] = [];
for (let i = 1; i <= Number(values['default-runs']); i++) {
  const run = await attempt('the default run', () => measureCliRun(['--suite', 'all']));
  if (!run) break;
  defaultRuns.push(run);
  console.log(`  run ${i}: ${describeRun(run)}`);
}
const fastest = [...defaultRuns].sort((a, b) => a.wallMs - b.wallMs)[0];
if (fastest) {
  const okRuns = defaultRuns.every((r) => r.exitCode === 0);
  verdicts.push({
    target: `full default run under ${TARGETS.defaultRunMs / 1000} s wall`,
    measured: `${fmt.s(fastest.wallMs)} (fastest of ${defaultRuns.length}: ${defaultRuns.map((r) => fmt.s(r.wallMs)).join(', ')}; CPU ${fmt.s(fastest.cpuMs)})${okRuns ? '' : ', a run did not exit 0'}`,
    met: fastest.wallMs < TARGETS.defaultRunMs && okRuns,
  });
  verdicts.push({ target: 'generated cases per second (default run)', measured: `${fmt.int(fastest.cases / (fastest.wallMs / 1000))}/s (${fmt.int(fastest.cases)} cases)`, met: undefined });
  section('(d) peak memory of the default run');
  for (const [i, r] of defaultRuns.entries()) {
    console.log(`  run ${i + 1}: largest process ${fmt.mib(r.maxRssKiB)} (${r.maxRssSource}); whole process tree ${r.treePeakKiB ? fmt.mib(r.treePeakKiB) : 'n/a'} (CLI, Vitest workers, validator JVMs; sampled every 100 ms)`);
  }
  verdicts.push({
    target: 'peak memory of a default run',
    measured: `${fmt.mib(Math.max(...defaultRuns.map((r) => r.maxRssKiB)))} largest process, ${fmt.mib(Math.max(...defaultRuns.map((r) => r.treePeakKiB)))} process tree`,
    met: undefined,
  });
}

// Scaling with --runs.
section(`scaling: tds-conformance run ${SCALING_ARGS.join(' ')} with --runs 5 and --runs 50`);
const small = await attempt('--runs 5', () => measureCliRun([...SCALING_ARGS, '--runs', '5']));
if (small) console.log(`  --runs 5:  ${describeRun(small)}`);
const large = small && await attempt('--runs 50', () => measureCliRun([...SCALING_ARGS, '--runs', '50']));
if (small && large) {
  console.log(`  --runs 50: ${describeRun(large)}`);
  const ratio = large.wallMs / small.wallMs;
  const extra = large.cases - small.cases;
  console.log(`  ×${(large.cases / Math.max(1, small.cases)).toFixed(1)} the cases cost ×${ratio.toFixed(2)} the wall time and ×${(large.cpuMs / small.cpuMs).toFixed(2)} the CPU time: `
    + `the ${fmt.int(extra)} extra cases took ${((large.wallMs - small.wallMs) / 1000).toFixed(2)} s wall, ${((large.cpuMs - small.cpuMs) / 1000).toFixed(2)} s CPU (start-up dominates both runs)`);
  verdicts.push({ target: `10× --runs costs at most ${TARGETS.runsScale}× the time`, measured: `×${ratio.toFixed(2)} (${fmt.s(small.wallMs)} → ${fmt.s(large.wallMs)})`, met: ratio <= TARGETS.runsScale });
}

// (b) the simulator over loopback.
section('(b) simulator over loopback: POST /v2/auth/token, simulator against a plain node:http server with the same answer');
const throughput: ThroughputResult | undefined = await attempt('the simulator throughput', () =>
  measureSimThroughput({ rounds: Number(values['throughput-rounds']), durationMs: 2_000, maxRequests: 100_000, concurrency: 16, log: console.log }));
if (throughput) {
  console.log(`  best rounds: plain ${fmt.int(throughput.plain.perSecond)} req/s, simulator ${fmt.int(throughput.sim.perSecond)} req/s: ratio ${throughput.ratio.toFixed(2)}`);
  console.log(`  server CPU per request (least of the rounds): plain ${throughput.plain.serverCpuUsPerRequest.toFixed(1)} µs, simulator ${throughput.sim.serverCpuUsPerRequest.toFixed(1)} µs: ratio ${throughput.cpuRatio.toFixed(2)}`);
  verdicts.push({
    target: `simulator at least ${TARGETS.simRatio} × plain node:http (req/s, loopback)`,
    measured: `${throughput.ratio.toFixed(2)} (${fmt.int(throughput.sim.perSecond)} vs ${fmt.int(throughput.plain.perSecond)} req/s, concurrency ${throughput.concurrency})`,
    met: throughput.ratio >= TARGETS.simRatio,
  });
}

// (c) schema validation.
section('(c) schema validation of generated envelopes: fast path (one long-lived JVM) against xsd-schema-validator (a JVM per call)');
const validation: ValidationResult | undefined = await attempt('the validation throughput', () => measureValidation({ count: Number(values['validation-count']), libraryCalls: 3 }));
if (validation) {
  console.log(`  ${fmt.int(validation.count)} envelopes, mean ${Math.round(validation.meanBytes)} bytes; JVM start and schema compilation ${validation.startMs.toFixed(0)} ms (once)`);
  console.log(`  ${ROW_HEADER}`);
  for (const line of [validation.pipelined, validation.streaming, validation.sequential, validation.library]) console.log(`  ${row(line)}`);
  console.log(`  fast path (streaming) / xsd-schema-validator: ×${fmt.int(validation.streaming.perSecond / validation.library.perSecond)}`);
  verdicts.push({
    target: `at least ${fmt.int(TARGETS.envelopesPerSecond)} envelopes/s validated`,
    measured: `${fmt.int(validation.streaming.perSecond)}/s (fast path, 32 in flight; xsd-schema-validator ${validation.library.perSecond.toFixed(1)}/s)`,
    met: validation.streaming.perSecond >= TARGETS.envelopesPerSecond,
  });
}

// Long model-based sequences straight into a SimCore.
section(`simulator soak: ${fmt.int(Number(values['soak-ops']))} random token and session operations driven into one SimCore`);
const soak: SoakResult | undefined = await attempt('the soak', async () => runSoak({ ops: Number(values['soak-ops']), window: 10_000, log: console.log }));
if (soak && soak.windows.length >= 4) {
  const w = soak.windows;
  // The first window warms the JIT up: early is the next two, late the last two.
  const early = mean(w.slice(1, 3).map((x) => x.usPerOp));
  const late = mean(w.slice(-2).map((x) => x.usPerOp));
  console.log(`  per op: ${early.toFixed(1)} µs early (ops ${fmt.int(w[0]?.ops ?? 0)}–${fmt.int(w[2]?.ops ?? 0)}), ${late.toFixed(1)} µs late (last ${fmt.int(2 * 10_000)} ops): ×${(late / early).toFixed(2)}`);
  verdicts.push({ target: `long sequences: per-op time flat (late/early ≤ ${TARGETS.soakSlowdown})`, measured: `×${(late / early).toFixed(2)} (${early.toFixed(0)} → ${late.toFixed(0)} µs/op)`, met: late / early <= TARGETS.soakSlowdown });
  const maxEvents = Math.max(...w.map((x) => x.events));
  const full: SoakWindow | undefined = w.find((x) => x.events === maxEvents);
  const last = w.at(-1) as SoakWindow;
  console.log(`  heap: ${fmt.mib(soak.heapBeforeBytes / 1024)} before, ${fmt.mib((w[0]?.heapBytes ?? 0) / 1024)} after ${fmt.int(w[0]?.ops ?? 0)} ops, ${fmt.mib((full?.heapBytes ?? 0) / 1024)} when the event log reached its bound (${fmt.int(maxEvents)} events, at ${fmt.int(full?.ops ?? 0)} ops), ${fmt.mib(last.heapBytes / 1024)} at the end`);
  if (full && full !== last) {
    const growth = last.heapBytes / full.heapBytes - 1;
    verdicts.push({
      target: `long sequences: heap bounded (growth once the event log is full ≤ ${TARGETS.soakHeapGrowth * 100}%)`,
      measured: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% over ${fmt.int(last.ops - full.ops)} ops (${fmt.mib(full.heapBytes / 1024)} → ${fmt.mib(last.heapBytes / 1024)})`,
      met: growth <= TARGETS.soakHeapGrowth,
    });
  } else {
    verdicts.push({ target: 'long sequences: heap bounded', measured: 'the event log did not fill up: run more --soak-ops', met: undefined });
  }
  console.log(`  outcomes: ${Object.entries(soak.outcomes).map(([k, v]) => `${k} ${fmt.int(v)}`).join(', ')}`);
}

section('summary');
const width = Math.max(...verdicts.map((v) => v.target.length));
for (const v of verdicts) {
  const status = v.met === undefined ? '          ' : v.met ? 'target met' : 'MISSED    ';
  console.log(`  ${status}  ${v.target.padEnd(width)}  ${v.measured}`);
}
if (failures) console.log(`\n${failures} measurement(s) could not be made (see above).`);
process.exitCode = failures ? 1 : 0;
