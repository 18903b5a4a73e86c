// Loaded into every Node process of a measured conformance run (NODE_OPTIONS="--import <this file>", set by
// bench/default-run.ts; plain JavaScript because the test workers run without tsx). It counts the generated cases
// fast-check runs in the process (each run of an async property is one case) and records the process's peak RSS and
// CPU time, in <TDS_BENCH_PROBE_DIR>/<pid>.json. Its own cost: one small file write per case.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TDS_BENCH_PROBE_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.json`);
  let cases = 0;
  const write = () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ pid: process.pid, cases, maxRssKiB: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime }));
  };
  process.on('exit', write);
  try {
    // The same module instance the test workers get (Vitest loads fast-check from node_modules natively).
    const fc = await import('fast-check');
    const proto = Object.getPrototypeOf(fc.asyncProperty(fc.constant(0), async () => {}));
    const run = proto.run;
    proto.run = function countedRun(...args) {
      cases++;
      write();
      return run.apply(this, args);
    };
  } catch {
    // No fast-check here: the process still reports its memory and CPU.
  }
}
