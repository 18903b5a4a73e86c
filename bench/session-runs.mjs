// One session's runs on the compiled harness (`npm run build` first): prints one JSON line, the wall time of each run
// in milliseconds and how the session had its workers. `node bench/session-runs.mjs <runs> <keep|fresh> [--runs n]`:
// keep: the worker is kept from one run to the next (the default of a session); fresh: a worker forked for each run
// (Vitest's own way). The self-test, the latitude property and the live tests make many runs in one session.
import { ConformanceSession } from '../dist/harness/runner.js';

const [count = '6', mode = 'keep', , runs = '1'] = process.argv.slice(2);
const session = await ConformanceSession.open('sim', { reuseWorkers: mode === 'keep' });
const times = [];
try {
  for (let i = 0; i < Number(count); i++) {
    const started = performance.now();
    const { report } = await session.run({ target: 'sim', runs: Number(runs), outDir: '', write: false, quiet: true, log: () => {} });
    times.push(Math.round(performance.now() - started));
    if (report.exitCode !== 0) throw new Error(`run ${i + 1} exited ${report.exitCode}`);
  }
} finally {
  await session.close();
}
process.stdout.write(`${JSON.stringify({ times, workers: session.workerStats })}\n`);
