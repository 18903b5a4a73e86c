import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (the harness's own tests, next to the code) and `conformance` (the suites, run against a
 * target). `npx vitest` and `npx tds-conformance run` see the same tests; the CLI provides the run configuration
 * (target, seed, runs, defects) through `provide`; plain `npx vitest` runs with the defaults of
 * `harness/run-config.ts` (the simulator, seed 42).
 */
export default defineConfig({
  test: {
    setupFiles: ['./harness/fastcheck-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['harness/**/*.test.ts', 'examples/**/*.test.ts', 'fixtures/**/*.test.ts'] } },
      { extends: true, test: { name: 'conformance', include: ['suites/**/*.test.ts'], setupFiles: ['./harness/checks/setup.ts'] } },
    ],
  },
});
