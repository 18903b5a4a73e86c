import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEnvUpdate, envUpdate, readAtStart, startEnv } from './worker-env.ts';

describe('a kept worker\'s environment', () => {
  it('tells the variables read as a worker starts from those read during a run', () => {
    for (const name of ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'UV_THREADPOOL_SIZE', 'VITEST', 'VITEST_MODE', 'VITE_USER_NODE_ENV', 'FORCE_COLOR', 'NO_COLOR', 'CI', 'TZ', 'LC_ALL', 'TDS_TIMING']) {
      expect({ name, start: readAtStart(name) }).toEqual({ name, start: true });
    }
    for (const name of ['VITEST_WORKER_ID', 'VITEST_POOL_ID', 'TDS_CERT_PASSWORD', 'BAD_DRIVER_PIDFILE', 'HTTPS_PROXY', 'NODEX', 'MY_NODE_OPTIONS']) {
      expect({ name, start: readAtStart(name) }).toEqual({ name, start: false });
    }
  });

  it('keeps only the variables read at start in the start environment, in a stable order', () => {
    expect(startEnv({ TZ: 'UTC', PASSWORD_X: 'secret', NODE_OPTIONS: '--x', VITEST_WORKER_ID: '3', CI: undefined })).toEqual([['NODE_OPTIONS', '--x'], ['TZ', 'UTC']]);
  });

  it('turns one environment into another: the update applied to the first gives the second', () => {
    const env = fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D', 'E'), fc.option(fc.constantFrom('1', '2', ''), { nil: undefined }));
    fc.assert(fc.property(env, env, (from, to) => {
      const update = envUpdate(from, to);
      const defined = (e: Record<string, string | undefined>) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined));
      if (update === undefined) {
        expect(defined(from)).toEqual(defined(to));
        return;
      }
      const worker: NodeJS.ProcessEnv = { ...defined(from) };
      applyEnvUpdate(update, worker);
      expect(worker).toEqual(defined(to));
    }), { seed: 29 });
  });
});
