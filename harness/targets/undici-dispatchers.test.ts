import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Agent, proxyAgentClass } from './undici-dispatchers.ts';
import { loadedInFreshProcess } from '../../test/support/fresh-process.ts';

/** In a fresh process: is undici's entry point loaded once a transport was made with `options`? */
function entryPointLoaded(options: string): Promise<boolean> {
  return loadedInFreshProcess(`
    import { createTransport } from './harness/targets/transport.ts';
    createTransport(${options});`, 'undici', { ...process.env, HTTPS_PROXY: '', https_proxy: '' });
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
