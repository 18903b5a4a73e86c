/**
 * The measured process of bench/observe.ts: records `n` exchanges of bench/observe-app.ts through `observe`'s
 * recording proxy in front of the simulator (a few more: the requests in flight finish), then does what `observe` does
 * once the traffic stopped, and prints one JSON line (`ObserveRun` of bench/observe.ts). Plain JavaScript on the
 * compiled harness when dist/ is fresh, as users run `tds-conformance observe`: no TypeScript loader in this process
 * (bench/observe.ts starts it with tsx only when it must read the sources).
 *
 *   node bench/observe-child.mjs <n> [--no-validator]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { checkoutModules } = await import(pathToFileURL(join(ROOT, 'scripts', 'dist-fresh.mjs')).href);
const modules = checkoutModules(ROOT);
const { finishObservation } = await import(modules.url('harness/cli/observe.ts'));
const { Observation, leanHeap, parseInjections, tryValidator } = await import(modules.url('harness/observe/index.ts'));

/** The session pool of the application (the simulator's accounts have 4). */
const POOL = 4;
const MINUTES = 60;

/**
 * @param {number} n
 * @param {{ validator: boolean }} options
 */
async function observeOnce(n, options) {
  let offset = 0;
  const now = () => Date.now() + offset;
  // As `observe` starts it: memory before speed (harness/observe/lean-heap.ts), the schema validator started with the
  // first SOAP exchange, validating the envelopes as they come.
  leanHeap();
  const observation = await Observation.start({
    upstream: 'sim', sessionPoolSize: POOL, injections: parseInjections(['expire-tokens-after=600', 'unauthorized-once']), injectionClock: now,
    startValidator: options.validator ? tryValidator : async () => undefined,
  });
  const outDir = mkdtempSync(join(tmpdir(), 'tds-bench-observe-'));
  try {
    const other = observation.simAccounts().otherAgency;
    const started = performance.now();
    // The application is TypeScript, in a process of its own (not measured).
    const app = fork(join(ROOT, 'bench/observe-app.ts'), [], {
      execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...observation.childEnvironment(), BENCH_OTHER_EPR: other.epr, BENCH_OTHER_PCC: other.pcc, BENCH_OTHER_PASSWORD: other.password, BENCH_POOL: String(POOL) },
    });
    const exited = new Promise((resolve) => app.once('exit', () => resolve(undefined)));
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
    const exchanges = observation.proxy.count();

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
    let exitCode;
    try {
      const done = await finishObservation(observation, { wholeRun: true, outDir });
      exitCode = done.exitCode;
      process.stderr.write(`${done.summary.join('\n')}\n`);
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

const n = Number(process.argv[2]);
if (!Number.isInteger(n) || n <= 0) {
  process.stderr.write('usage: node bench/observe-child.mjs <exchanges> [--no-validator]\n');
  process.exit(2);
}
const run = await observeOnce(n, { validator: !process.argv.includes('--no-validator') });
process.stdout.write(`${JSON.stringify(run)}\n`);
