import fc from 'fast-check';
import { accepted, callApi, isRecord, jsonBody, requestToken } from '../../harness/checks/rest.ts';
import { CheckFailure, expectEqual, expectThat, registerSecret, ruleProperty, ruleTest } from '../../harness/checks/index.ts';
import type { HttpResponse } from '../../harness/targets/index.ts';
import { GRANT_TYPE, limits, restEndpoints, TOKEN_TYPE } from '../../harness/spec/index.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;

/** The JSON object of a token response, or a failure saying what came instead. */
function tokenObject(res: HttpResponse): Record<string, unknown> {
  const body = jsonBody(res);
  if (!isRecord(body)) throw new CheckFailure('the token response is not a JSON object', { expected: 'a JSON object', actual: res.body.slice(0, 200) });
  return body;
}

ruleTest('REST-03', 'a valid request gets access_token, token_type "bearer" and expires_in 604800', async (ctx) => {
  const res = await requestToken(ctx, 'cert');
  expectEqual('status of a valid token request', res.status, 200);
  const body = tokenObject(res);
  expectThat(typeof body.access_token === 'string' && body.access_token.length > 0, 'unexpected "access_token" value', {
    expected: 'a non-empty string',
    actual: body.access_token,
  });
  registerSecret(body.access_token as string);
  expectEqual('"token_type" value', body.token_type, TOKEN_TYPE);
  expectThat(typeof body.expires_in === 'number', 'unexpected "expires_in" type', { expected: 'a JSON number', actual: body.expires_in });
  expectEqual('"expires_in" value', body.expires_in, limits.accessTokenLifetimeSeconds);
});

ruleProperty(
  'REST-02',
  'a valid request is answered the same with or without source_ip',
  fc.oneof(fc.ipV4(), fc.ipV6()),
  async (ctx, sourceIp) => {
    const without = await requestToken(ctx, 'cert');
    const withIp = await requestToken(ctx, 'cert', { body: `grant_type=${GRANT_TYPE}&source_ip=${encodeURIComponent(sourceIp)}` });
    expectEqual('status with source_ip (the same as without)', withIp.status, without.status);
    const a = jsonBody(without);
    const b = jsonBody(withIp);
    const shape = (v: unknown) => (isRecord(v) ? { keys: Object.keys(v).sort(), token_type: v.token_type, expires_in: v.expires_in } : v);
    expectEqual('token response with source_ip (keys, token_type, expires_in as without)', shape(b), shape(a));
  },
  { numRuns: 10 },
);

ruleProperty(
  'REST-04',
  'N token calls yield N distinct tokens, each of them usable',
  fc.integer({ min: 2, max: 6 }),
  async (ctx, n) => {
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await requestToken(ctx, 'cert');
      const body = tokenObject(res);
      expectThat(typeof body.access_token === 'string', `token call ${i + 1} of ${n} gave no access_token`, { actual: res.status });
      registerSecret(body.access_token as string);
      tokens.push(body.access_token as string);
    }
    expectEqual(`number of distinct tokens from ${n} calls`, new Set(tokens).size, n);
    for (const [i, token] of tokens.entries()) {
      const api = await callApi(ctx, 'cert', themes, token);
      expectThat(accepted(api), `token ${i + 1} of ${n} is refused by an API`, { expected: '2xx', actual: api.status });
    }
  },
  { numRuns: 8 },
);

ruleTest('REST-05', 'a successful token response has status 200 and a JSON content type', async (ctx) => {
  const res = await requestToken(ctx, 'cert');
  expectEqual('status of a successful token response', res.status, 200);
  const type = (res.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  expectEqual('content type of the token response', type, 'application/json');
});
