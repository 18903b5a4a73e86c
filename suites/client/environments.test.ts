import fc from 'fast-check';
import { clientProperty, op } from '../../harness/checks/client.ts';
import { expectThat } from '../../harness/checks/index.ts';
import { restEndpoints, type Environment } from '../../harness/spec/index.ts';
import { issuingEnvironment } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;

clientProperty(
  'ENV-02',
  'the client requests its token from the environment it calls and never sends one environment\'s token to the other',
  fc.array(fc.record({ env: fc.constantFrom<Environment>('cert', 'prod'), soap: fc.boolean() }), { minLength: 2, maxLength: 8 }),
  async (ctx, calls) => {
    await ctx.configure();
    for (const c of calls) {
      if (c.soap) await op('soap.call', () => ctx.client.soapCall({ environment: c.env, action: 'BargainFinderMaxRQ' })).catch(() => undefined);
      else await op('rest.call', () => ctx.client.restCall({ environment: c.env, method: 'GET', path: themes.path }));
    }
    const events = await ctx.events();
    const from = issuingEnvironment(events);
    for (const e of events) {
      if (!e.tokenUsed) continue;
      const env = from.get(e.tokenUsed);
      expectThat(env === undefined || env === e.env, `the client sent a ${env?.toUpperCase()} token to ${e.env.toUpperCase()} (${e.method} ${e.path}${e.action ? ` ${e.action}` : ''})`, {
        expected: `a token from ${e.env.toUpperCase()}`,
        actual: `a token from ${env?.toUpperCase()}`,
      });
    }
  },
  { numRuns: 6, clauses: ["ENV-02.token-from-called-environment", "ENV-02.no-cross-environment-token"] },
);
