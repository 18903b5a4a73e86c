import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, proxyAgentClass } from './undici-dispatchers.ts';

/** In a fresh process: is undici's entry point loaded once a transport was made with `options`? */
function entryPointLoaded(options: string): Promise<boolean> {
  const script = `
    import { createRequire } from 'node:module';
    import { createTransport } from './harness/targets/transport.ts';
    createTransport(${options});
    const require = createRequire(import.meta.url);
    process.stdout.write(String(require.resolve('undici') in require.cache));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: join(import.meta.dirname, '..', '..'), timeout: 30_000, env: { ...process.env, HTTPS_PROXY: '', https_proxy: '' } }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout.trim() === 'true');
    });
  });
}

describe('the transport\'s undici dispatchers', () => {
  it('are the classes undici\'s entry point exports (the same module instances)', () => {
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    expect(Agent).toBe(undici.Agent);
    expect(proxyAgentClass()).toBe(undici.ProxyAgent);
  });

  it('load undici\'s entry point only for a transport through a proxy', async () => {
    expect(await entryPointLoaded('{}')).toBe(false);
    expect(await entryPointLoaded(`{ proxy: 'http://127.0.0.1:9' }`)).toBe(true);
  }, 30_000);
});
