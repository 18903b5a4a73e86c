import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Agent, proxyAgentClass } from './undici-dispatchers.ts';

describe('the transport\'s undici dispatchers', () => {
  it('are the classes undici\'s entry point exports (the same module instances)', () => {
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    expect(Agent).toBe(undici.Agent);
    expect(proxyAgentClass()).toBe(undici.ProxyAgent);
  });
});
