import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that make many whole runs of the suites, in the order they start (the first four take the four workers at
 * once): the latitude property's two files, the precision self-test's parts, and the published libraries' runs. They
 * take tens of seconds each and are small files, so on a fresh clone (no cache, as in CI) Vitest's order (the largest
 * file first) would start them last and the run would wait for them alone (test/live/pool-state took 100 s at the end
 * of a run of 133 s). The latitude files run for about 50 s, working about half of it (their profiles' latency): the
 * mutant clients' second part and then the libraries' runs, which work, keep the CPUs busy beside them and the first
 * defects part, which mostly waits (its subjects' time limits), as the second does after it. The first part of the
 * mutant clients mostly waits for its drivers: it goes among the files that wait ({@link waits}).
 */
const HEAVY = [
  /[\\/]latitude-covering\.property\.test\.ts$/, /[\\/]latitude\.property\.test\.ts$/, /[\\/]precision\.clients-2\.test\.ts$/,
  /[\\/]precision\.defects-1\.test\.ts$/, /[\\/]libraries\.test\.ts$/, /[\\/]precision\.defects-2\.test\.ts$/, /[\\/]stand-in\.test\.ts$/,
  /[\\/]precision\.[^/\\]+\.test\.ts$/,
];
const heavyRank = (f: TestSpecification): number => HEAVY.findIndex((p) => p.test(f.moduleId));

/**
 * Vitest's order (failed, then longest by the cache of earlier runs, then largest file), but {@link HEAVY} first and
 * the files that mostly wait ({@link waits}) spread among the first of the others.
 */
class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const all = await super.sort(files);
    // The `conformance` project's files (the suites, a few seconds in all) last, as their group (below) has them: a
    // worker runs one project's files, and in the middle they would end test workers that the harness's tests then
    // start again, each loading the harness and opening its sessions anew.
    const suites = all.filter((f) => f.project.name === 'conformance');
    const sorted = all.filter((f) => f.project.name !== 'conformance');
    // A heavy file that mostly waits (the first mutant-clients part) goes with the files that wait.
    const waiting = sorted.filter(waits);
    const heavy = sorted.filter((f) => !waits(f) && heavyRank(f) !== -1).sort((a, b) => heavyRank(a) - heavyRank(b));
    const rest = sorted.filter((f) => !waits(f) && heavyRank(f) === -1);
    // The files that mostly wait go evenly among the others, from their third tenth to their ninth, not side by side (by
    // size they would all come last): a file that waits beside files that work costs no CPU time. The first of the
    // others work beside the latitude files; the last end the run without a file that waits. On a fresh clone (as in
    // CI: no durations cached, the others by size), spread over the first half of the others the files that wait ran
    // three and four at a time from the 38th to the 64th second of the run (the CPUs 21-86 % busy; 91.8 s), from the
    // third tenth to the ninth the same tests ran in 81.9 and 82.4 s.
    const out = [...heavy];
    let next = 0;
    const at = (n: number) => Math.round((0.3 + (0.6 * (n + 0.5)) / waiting.length) * rest.length);
    rest.forEach((f, i) => {
      while (next < waiting.length && i >= at(next)) out.push(waiting[next++]!);
      out.push(f);
    });
    return [...out, ...waiting.slice(next), ...suites];
  }
}

/**
 * Files that spend most of their time waiting, not working: time limits of drivers that never answer and of servers
 * that drip, interrupted runs' slow closes, a JVM per document, the observed clients' back-offs, a throttling gateway,
 * a service slow to answer, the reference drivers of the mutant clients' first part.
 * Side by side they leave the CPUs idle; each among files that work, they do not.
 */
function waits(f: TestSpecification): boolean {
  return new RegExp(
    '[\\\\/](precision\\.clients-1|bad-drivers|hostile|interrupt(-close|-twice|-create)?|driver-process|https|mutants-(rest|soap)|xsd-schema-validator|gateway|budget-order'
      + '|slow-errors|slot-release|close-judged|env-control|pool-held|pool-foreign)\\.test\\.ts$',
  ).test(f.moduleId);
}

/**
 * Two projects: `unit` (the harness's own tests, next to the code) and `conformance` (the suites, run against a
 * target). `npx vitest` and `npx tds-conformance run` see the same tests; the CLI provides the run configuration
 * (target, seed, runs, defects) through `provide`; plain `npx vitest` runs with the defaults of
 * `harness/run-config.ts` (the simulator, seed 42).
 */
export default defineConfig({
  test: {
    setupFiles: ['./harness/fastcheck-setup.ts'],
    sequence: { sequencer: HeavyFirst },
    // Two workers more than CPUs: many of the harness's own tests wait on child processes (CLI runs, JVMs, drivers),
    // time limits and timers, and the other workers fill that time. On 2 CPUs, 3 workers ran the tests in 239 s wall
    // at 94 % CPU, 2 workers in 285–351 s at about 57 %; with the files that wait spread among the others (above), 4
    // workers ran issue 29's starting commit's files in 93–96 s against 98–103 s for 3 (the CPUs' idle time from
    // about 27 s to 11 s). A fifth costs more CPU than it fills: the same tests 89.1 s and 89.5 s with 4 workers
    // against 95.2 s and 98.2 s with 5, paired (173 s of CPU against 186–191 s).
    maxWorkers: availableParallelism() + 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The runs the tests make keep Vite's transforms in the checkout (harness/run/module-cache.ts), not in the user's
    // cache directory: the tests write nothing outside the repository.
    // The CLI the tests start runs in its own process, whatever the shell says (TDS_RUN_SERVER=1 would hand its runs
    // to a run server): the run server's own test asks for one.
    env: { TDS_MODULE_CACHE: join(import.meta.dirname, 'node_modules', '.cache', 'tds-vitest-modules'), TDS_RUN_SERVER: '0' },
    projects: [
      // The harness's own tests share their workers' modules (isolate: false): each file cleans up what it starts,
      // and loading the harness once per worker instead of once per file cut the tests' CPU by a fifth (294 s
      // CPU and 199 s wall, against 362 s and 239 s, on 2 CPUs, without the precision and latitude files).
      { extends: true, test: { name: 'unit', isolate: false, include: ['harness/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'fixtures/**/*.test.ts'] } },
      // The suites as `tds-conformance run` runs them (harness/run/session.ts): files share their workers' modules, and
      // the setup file gives each its own target and forgets the last file's secrets. After the harness's tests (a
      // group of their own) and in one worker: a test worker of one project does not run another's files, so these
      // start workers of their own, each loading the harness from its sources (2.5-3.5 s of CPU); the suites' files take
      // about 2 s in one worker. Five workers spent 12.7 s of CPU at the end of a run of the tests, for 2.3 s.
      { extends: true, test: { name: 'conformance', isolate: false, include: ['suites/**/*.test.ts'], setupFiles: ['./harness/checks/setup.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
