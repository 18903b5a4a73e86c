import fc from 'fast-check';
import { clientProperty, clientTest, isTokenAttempt, op } from '../../harness/checks/client.ts';
import { expectEqual, expectThat, failOn, PrerequisiteFailed } from '../../harness/checks/index.ts';
import { limits, restEndpoints, TOKEN_PATH } from '../../harness/catalog/index.ts';
import { api03Problems, rest01Problems } from '../../harness/judges/index.ts';
import { apiCalls, issued, issuingEnvironment, tokenRequests } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
const sessionless = restEndpoints.filter((e) => e.accepts.includes('sessionless'));
const callOf = (e: (typeof restEndpoints)[number]) => ({ method: (e.method ?? 'GET') as 'GET' | 'POST', path: `${e.path}${e.query ? `?${e.query}` : ''}` });

clientTest('REST-01', 'the token request is POST /v2/auth/token, form-encoded, with grant_type=client_credentials', async (ctx) => {
  await ctx.configure();
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) })).catch(() => undefined);
  const events = await ctx.events();
  // The token requests are those at the token path (every one, as observe judges them), or else the request the
  // client meant as one (wherever it sent it): a REST request with Basic credentials or a grant_type, before any
  // Bearer call. Only a client that sent no such request at all leaves the rule unjudged.
  const atPath = tokenRequests(events);
  const requests = atPath.length > 0 ? atPath : events.filter(isTokenAttempt).slice(0, 1);
  if (requests.length === 0) throw new PrerequisiteFailed('the client sent no token request for a REST call (no request at the token path, none with Basic credentials or a grant_type)');
  // The judge observe uses too (harness/judges); the simulator's {base_url} has no path, so the path is exact.
  for (const request of requests) failOn(rest01Problems(request, '')[0]);
}, { clauses: ["REST-01.method-path", "REST-01.content-type", "REST-01.grant-type"] });

clientProperty(
  'API-03',
  'API calls carry "Authorization: Bearer <token>" with one space, an upper-case method, on the token\'s environment',
  fc.array(fc.constantFrom(...sessionless), { minLength: 1, maxLength: 6 }),
  async (ctx, endpoints) => {
    await ctx.configure();
    for (const e of endpoints) await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(e) }));
    const events = await ctx.events();
    const from = issuingEnvironment(events);
    const calls = events.filter((e) => e.protocol === 'rest' && e.path !== TOKEN_PATH);
    expectThat(calls.length >= endpoints.length, 'the client made fewer API calls than asked', { expected: endpoints.length, actual: calls.length });
    for (const call of calls) {
      // The judge observe uses too (harness/judges).
      const auth = call.headers.authorization ?? '';
      failOn(api03Problems({ method: call.method, path: call.path, authorization: call.headers.authorization })[0]);
      // API-03.environment-base-url, here only: observe leaves which environment issued the token to ENV-02.
      const token = auth.replace(/^Bearer /, '');
      const env = from.get(token);
      if (env) expectEqual(`environment ${call.path} was called in (the token's)`, call.env, env);
    }
  },
  { numRuns: 8, clauses: ["API-03.bearer-scheme", "API-03.upper-case-method", "API-03.environment-base-url"], needs: 'token' },
);

clientProperty(
  'API-04',
  'while its token is valid the client requests no new one, however many calls it makes',
  fc.integer({ min: 2, max: 15 }),
  async (ctx, n) => {
    await ctx.configure();
    for (let i = 0; i < n; i++) await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
    const events = await ctx.events();
    expectEqual(`token requests for ${n} API calls with a valid token`, tokenRequests(events).length, 1);
    expectThat(apiCalls(events).length >= n, 'the client made fewer API calls than asked', { expected: n, actual: apiCalls(events).length });
  },
  { numRuns: 6, clauses: ["API-04.reuse"], needs: 'token' },
);

clientProperty(
  'API-05',
  'concurrent first calls of a client with no token cause one token request',
  fc.integer({ min: 2, max: 8 }),
  async (ctx, n) => {
    await ctx.configure();
    // Every call settles before the first failure is judged: the event log is read once they are all done.
    const results = await Promise.allSettled(Array.from({ length: n }, () => op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }))));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    expectEqual(`token requests for ${n} concurrent first calls`, tokenRequests(await ctx.events()).length, 1);
  },
  { numRuns: 5, clauses: ["API-05.single-flight"], needs: 'token' },
);

clientTest('LIFE-03', 'after its token expired, the client obtains a new one and goes on without resending the refused token', async (ctx) => {
  await ctx.configure();
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  await ctx.sim.advanceClock(limits.accessTokenLifetimeSeconds + 60);
  const after = await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  expectEqual('status of the call after the token expired (the client must recover)', after.status, 200);
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  const events = await ctx.events();
  // LIFE-03 asks for a new token after the expiry; how many the client requests besides is API-04's matter.
  const tokens = issued(events).length;
  expectThat(tokens >= 2, 'the client obtained no new token after its token expired', { expected: 'a token issued after the expiry (2 in all, at least)', actual: `${tokens} token(s) issued` });
  const refused = apiCalls(events).filter((e) => e.outcome === 'api-refused-token');
  expectThat(refused.length <= 1, 'the client sent the refused token more than once', { expected: 'at most one refused call', actual: `${refused.length} refused calls` });
}, { clauses: ["LIFE-03.after-expiry"], needs: 'token' });

clientTest('LIFE-03', 'when its token is refused as invalid, the client obtains a new token and goes on', async (ctx) => {
  await ctx.configure();
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  const first = apiCalls(await ctx.events())[0]?.tokenUsed;
  if (!first) throw new PrerequisiteFailed('the client made no API call');
  await ctx.sim.revokeToken(first);
  const after = await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  expectEqual('status of the call after the token was refused (the client must recover)', after.status, 200);
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  const uses = apiCalls(await ctx.events()).filter((e) => e.tokenUsed === first && e.outcome === 'api-refused-token');
  expectThat(uses.length <= 1, 'the client kept sending the refused token', { expected: 'at most one refused call', actual: `${uses.length} refused calls` });
}, { clauses: ["LIFE-03.after-refusal"], needs: 'token' });
