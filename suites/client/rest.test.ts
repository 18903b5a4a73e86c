import fc from 'fast-check';
import { bearerRefusal, clientProperty, clientTest, isTokenAttempt, issuedTokens, op, tokenRefusal, type ClientContext } from '../../harness/checks/client.ts';
import { expectThat, failOn, PrerequisiteFailed } from '../../harness/checks/index.ts';
import { limits, restEndpoints, TOKEN_PATH } from '../../harness/catalog/index.ts';
import type { SimEvent } from '../../harness/sim/index.ts';
import { api03Problems, api04Problem, api05Problem, life03Problem, rest01Problems, type Life03Clause } from '../../harness/judges/index.ts';
import { apiCalls, issuedAfter, restCalls, refusedTokens, reuseRequest, tokenRequests } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
const sessionless = restEndpoints.filter((e) => e.accepts.includes('sessionless'));
const callOf = (e: (typeof restEndpoints)[number]) => ({ method: (e.method ?? 'GET') as 'GET' | 'POST', path: `${e.path}${e.query ? `?${e.query}` : ''}` });

/** A check of how the client uses its tokens cannot judge a client whose calls the service refused for API-03's matter. */
async function expectBearerAccepted(ctx: ClientContext, events: readonly SimEvent[]): Promise<void> {
  const refusal = bearerRefusal(events, await ctx.history());
  if (refusal) throw new PrerequisiteFailed(refusal.reason, refusal.after);
}

clientTest('REST-01', 'the token request is POST /v2/auth/token, form-encoded, with grant_type=client_credentials', async (ctx) => {
  await ctx.configure();
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) })).catch(() => undefined);
  // A refresh is a token request too: the token expires and the client calls again (a client that sends its refreshes
  // elsewhere failed LIFE-03's recovery, and passed here).
  if (apiCalls(await ctx.events()).some((e) => e.outcome === 'api-ok')) {
    await ctx.sim.advanceClock(limits.accessTokenLifetimeSeconds + 60);
    await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) })).catch(() => undefined);
  }
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

/**
 * API-03's judge (the one observe uses too, harness/judges) on each of `calls`, API calls among the check's `events`.
 * The token as issued: any token the simulator issued to this client (in either environment, over REST or SOAP;
 * which environment's token a call carries is ENV-02's to judge). A call sent before the service issued this client
 * any token carries one the client kept from before (a token cache outlives a process: "Reuse the same token until it
 * expires"), which this service cannot know: as in observe, only a token sent once the client had been issued one can
 * be "not as issued". API-03.environment-base-url: every call reached the REST base URL of an environment (the
 * simulator answered it there); which environment's token it carried is ENV-02's to judge, as in observe (one
 * deviation, one rule).
 */
async function expectApi03(ctx: ClientContext, events: readonly SimEvent[], calls: readonly SimEvent[]): Promise<void> {
  const issued = issuedTokens(await ctx.history());
  const firstIssued = events.find((e) => e.tokenIssued !== undefined)?.seq ?? Infinity;
  for (const call of calls) {
    const known = call.tokenUsed !== undefined && call.seq > firstIssued;
    failOn(api03Problems({ method: call.method, path: call.path, authorization: call.headers.authorization, ...(known && { issued: issued.has(call.tokenUsed!) }) })[0]);
  }
}

clientProperty(
  'API-03',
  'API calls carry "Authorization: Bearer <token>" with one space, an upper-case method, on the token\'s environment',
  fc.array(fc.constantFrom(...sessionless), { minLength: 1, maxLength: 6 }),
  async (ctx, endpoints) => {
    await ctx.configure();
    for (const e of endpoints) await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(e) }));
    const events = await ctx.events();
    const calls = events.filter((e) => e.protocol === 'rest' && e.path !== TOKEN_PATH);
    expectThat(calls.length >= endpoints.length, 'the client made fewer API calls than asked', { expected: endpoints.length, actual: calls.length });
    await expectApi03(ctx, events, calls);
  },
  { numRuns: 8, clauses: ["API-03.bearer-scheme", "API-03.upper-case-method", "API-03.environment-base-url"], needs: 'token' },
);

/** API-03 in PROD as well, over several calls (a blind client wrote its method in lower case in PROD from its second call). */
clientTest('API-03', 'in PROD too: every API call carries "Authorization: Bearer <token>" and an upper-case method', async (ctx) => {
  if (!ctx.target.accounts.prod || !ctx.target.environments.prod) return ctx.notApplicable('needs PROD with an account');
  await ctx.configure();
  for (let i = 0; i < 3; i++) await op('rest.call', () => ctx.client.restCall({ environment: 'prod', ...callOf(themes) }));
  const events = await ctx.events();
  await expectApi03(ctx, events, events.filter((e) => e.env === 'prod' && e.protocol === 'rest' && e.path !== TOKEN_PATH));
}, { clauses: ['API-03.bearer-scheme', 'API-03.upper-case-method', 'API-03.environment-base-url'], needs: 'token' });

clientProperty(
  'API-04',
  'while its token is valid the client requests no new one, however many calls it makes',
  fc.integer({ min: 2, max: 15 }),
  async (ctx, n) => {
    await ctx.configure();
    for (let i = 0; i < n; i++) await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
    const events = await ctx.events();
    await expectBearerAccepted(ctx, events);
    // Every REST request but the token requests, whatever the service answered (a call it refused, or did not serve
    // for API-03's matter, still shows how the client reuses its token).
    const calls = restCalls(events).length;
    expectThat(calls >= n, 'the client made fewer API calls than asked', { expected: n, actual: calls });
    // The judge observe uses too (harness/judges), on each token request with the token the client held then.
    for (const request of tokenRequests(events)) failOn(api04Problem(reuseRequest(events, request, limits.accessTokenLifetimeSeconds)));
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
    const events = await ctx.events();
    await expectBearerAccepted(ctx, events);
    // The judge observe uses too (harness/judges): the client held no token for CERT, so every token request to CERT is
    // the burst's (one to PROD, a client logging in to each environment it is configured for, is not).
    failOn(api05Problem(tokenRequests(events).filter((e) => e.env === 'cert').length, `for ${n} concurrent first calls`));
  },
  { numRuns: 5, clauses: ["API-05.single-flight"], needs: 'token' },
);

/**
 * LIFE-03 on a driven client: asked for calls after its token ended (`end` makes it expire or revokes it), it obtains a
 * new token, the next call is answered, and it sends the refused token no more — the judge observe uses too.
 */
async function recovers(ctx: ClientContext, clause: Life03Clause, end: (token: string) => Promise<unknown>): Promise<void> {
  await ctx.configure();
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  const before = await ctx.events();
  // The token the call was answered with (a client that started with a token kept from before may have sent that
  // one first, been refused, and gone on with a new one).
  const token = apiCalls(before).filter((e) => e.outcome === 'api-ok').at(-1)?.tokenUsed ?? apiCalls(before).at(-1)?.tokenUsed;
  await expectBearerAccepted(ctx, before);
  if (!token) throw new PrerequisiteFailed('the client made no API call with a token');
  const ended = before.at(-1)?.seq ?? 0;
  await end(token);
  // A refresh the token endpoint refused, or did not answer as one (another path, a malformed form), leaves the client
  // no new token for REST-01's or the credential rules' deviation, not for LIFE-03's.
  const refreshRefused = async () => {
    const refusal = tokenRefusal((await ctx.events()).filter((e) => e.seq > ended));
    if (refusal) throw new PrerequisiteFailed(refusal.reason.replace('token request(s)', 'token request(s) after the first token ended'), refusal.after);
  };
  let after: Awaited<ReturnType<typeof ctx.client.restCall>>;
  let next: Awaited<ReturnType<typeof ctx.client.restCall>>;
  try {
    after = await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
    next = await op('rest.call', () => ctx.client.restCall({ environment: 'cert', ...callOf(themes) }));
  } catch (err) {
    await refreshRefused();
    throw err;
  }
  const events = await ctx.events();
  if (!issuedAfter(events, ended)) await refreshRefused();
  // "When the token expires, request a new one": the document does not say the call that met the refusal is sent
  // again, so a client may report that call's refusal and go on with a new token from the next call. How many tokens
  // the client requests besides is API-04's matter.
  failOn(life03Problem(clause, refusedTokens(events), (after.status === 200 || next.status === 200) && issuedAfter(events, ended)));
}

clientTest('LIFE-03', 'after its token expired, the client obtains a new one and goes on without resending the refused token', (ctx) =>
  recovers(ctx, 'LIFE-03.after-expiry', () => ctx.sim.advanceClock(limits.accessTokenLifetimeSeconds + 60)), { clauses: ["LIFE-03.after-expiry"], needs: 'token' });

clientTest('LIFE-03', 'when its token is refused as invalid, the client obtains a new token and goes on', (ctx) =>
  recovers(ctx, 'LIFE-03.after-refusal', (token) => ctx.sim.revokeToken(token)), { clauses: ["LIFE-03.after-refusal"], needs: 'token' });

/**
 * The same for a TokenCreateRQ token (the sessionless SOAP token): "Sessionless token (REST or SOAP) … must be
 * refreshed by requesting a new one", and a refused one is not sent again (a blind client kept sending its refused
 * TokenCreateRQ token, and only REST tokens were ever refused here). A REST-only client has no such token.
 */
clientTest('LIFE-03', 'when the sessionless token of its SOAP calls is refused as invalid, the client obtains a new one and goes on', async (ctx) => {
  await ctx.configure();
  const call = () => ctx.client.soapCall({ environment: 'cert', action: 'BargainFinderMaxRQ' });
  // A REST-only client does not support it: skipped, saying so.
  await op('soap.call', call);
  const before = await ctx.events();
  const used = before.filter((e) => e.protocol === 'soap' && e.tokenKind === 'sessionless' && e.outcome === 'soap-ok' && e.action !== 'TokenCreateRQ').at(-1)?.tokenUsed;
  if (!used) {
    const refusal = tokenRefusal(before);
    if (refusal) throw new PrerequisiteFailed(refusal.reason, refusal.after);
    throw new PrerequisiteFailed('the client\'s sessionless SOAP call was not served with a sessionless token');
  }
  const ended = before.at(-1)?.seq ?? 0;
  await ctx.sim.revokeToken(used);
  const results = [await call().then(() => true, () => false), await call().then(() => true, () => false)];
  const events = await ctx.events();
  const after = events.filter((e) => e.seq > ended);
  // A new sessionless token from either request: a REST token serves SOAP calls as well (a blind client renewed so).
  const newToken = issuedAfter(events, ended);
  if (!newToken) {
    const refusal = tokenRefusal(after);
    if (refusal) throw new PrerequisiteFailed(refusal.reason.replace('token request(s)', 'token request(s) after the first token was refused'), refusal.after);
  }
  const uses = after.filter((e) => e.tokenUsed === used);
  const refused = uses.length === 0 ? [] : [{ first: `#${uses[0]!.seq} ${uses[0]!.action ?? ''}`.trim(), resent: uses.slice(1).map((e) => `#${e.seq} ${e.action ?? ''}`.trim()) }];
  failOn(life03Problem('LIFE-03.after-refusal', refused, newToken && results.some(Boolean)));
}, { clauses: ['LIFE-03.after-refusal'], needs: 'token' });
