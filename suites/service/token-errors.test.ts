import fc from 'fast-check';
import { authorizationFor, account, isRecord, jsonBody, requestToken } from '../../harness/checks/rest.ts';
import {
  CheckFailure, expectEqual, expectThat, registerSecret, ruleProperty, ruleTest, runConfig,
} from '../../harness/checks/index.ts';
import { encodeBase64Utf8 } from '../../harness/credentials/index.ts';
import { describes, GRANT_TYPE, restTokenErrors, type RestTokenError } from '../../harness/spec/index.ts';
import { TransportError, type HttpResponse } from '../../harness/targets/index.ts';
import { malformedAuthorization, wrongGrantType, wrongSecret } from './support/arbitraries.ts';

/** Checks an error body: `error: invalid_client` and a description that says what `kind` must say, and not the other. */
function expectTokenError(res: HttpResponse, kind: RestTokenError['key']): void {
  const body = jsonBody(res);
  if (!isRecord(body)) throw new CheckFailure('the token error is not a JSON object', { expected: `{"error":"invalid_client",…}`, actual: `${res.status} ${res.body.slice(0, 200)}` });
  expectEqual('"error" value', body.error, 'invalid_client');
  const description = body.error_description;
  const other: RestTokenError['key'] = kind === 'wrong-client' ? 'missing-or-syntax' : 'wrong-client';
  expectThat(typeof description === 'string' && describes(description, kind) && !describes(description, other),
    `"error_description" does not say ${restTokenErrors[kind].describes}${kind === 'wrong-client' ? ' (distinguishable from a syntax error)' : ''}`, {
      expected: `a text stating ${restTokenErrors[kind].describes} (publicly seen: ${JSON.stringify(restTokenErrors[kind].publicDescription)})`,
      actual: description,
    });
}

ruleProperty(
  'ERR-01',
  'missing or syntactically wrong credentials get invalid_client saying they are missing or malformed',
  (ctx) => malformedAuthorization(account(ctx, 'cert')),
  async (ctx, malformed) => {
    ctx.note(`malformed credentials: ${malformed.kind}`);
    const res = await requestToken(ctx, 'cert', { authorization: malformed.header });
    expectThat(res.status !== 200, `credentials with ${malformed.kind} obtained a token`, { expected: 'invalid_client', actual: res.status });
    expectTokenError(res, 'missing-or-syntax');
  },
  { numRuns: 40 },
);

ruleProperty(
  'ERR-02',
  'a wrong client secret gets invalid_client saying the client ID or secret is wrong',
  (ctx) => wrongSecret(account(ctx, 'cert').password),
  async (ctx, secret) => {
    registerSecret(secret);
    const acct = account(ctx, 'cert');
    const res = await requestToken(ctx, 'cert', { authorization: authorizationFor({ ...acct, password: secret }) });
    expectThat(res.status !== 200, 'a wrong client secret obtained a token', { expected: 'invalid_client', actual: res.status });
    expectTokenError(res, 'wrong-client');
  },
);

ruleProperty(
  'ERR-02',
  'an unknown client ID gets invalid_client saying the client ID or secret is wrong',
  fc.stringMatching(/^[A-Z0-9]{4,8}$/),
  async (ctx, epr) => {
    const acct = account(ctx, 'cert');
    fc.pre(epr !== acct.epr);
    const res = await requestToken(ctx, 'cert', { authorization: authorizationFor({ ...acct, epr }) });
    expectThat(res.status !== 200, 'an unknown client ID obtained a token', { expected: 'invalid_client', actual: res.status });
    expectTokenError(res, 'wrong-client');
  },
  { numRuns: 10 },
);

ruleProperty(
  'ERR-03',
  'token errors come with status 401 and a JSON body that does not echo the secret',
  (ctx) => fc.record({ secret: wrongSecret(account(ctx, 'cert').password).filter((s) => s.length >= 6), syntax: fc.boolean() }),
  async (ctx, { secret, syntax }) => {
    registerSecret(secret);
    const acct = account(ctx, 'cert');
    const authorization = syntax ? `Basic ${encodeBase64Utf8(`V1:${acct.epr}:${acct.pcc}:${acct.restDomain}:${secret}`)}` : authorizationFor({ ...acct, password: secret });
    const res = await requestToken(ctx, 'cert', { authorization });
    const kind = syntax ? 'syntax error' : 'wrong secret';
    expectEqual(`status of a token error (${kind})`, res.status, 401);
    const type = (res.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    expectEqual(`content type of a token error (${kind})`, type, 'application/json');
    const body = jsonBody(res);
    const description = isRecord(body) && typeof body.error_description === 'string' ? body.error_description : '';
    const forms = [secret, encodeBase64Utf8(secret), encodeURIComponent(secret)];
    const leaked = forms.some((form) => res.body.includes(form) || description.includes(form));
    expectThat(!leaked, `the error body (${kind}) echoes the client secret`, { expected: 'no trace of the secret', actual: 'the secret, in the body' });
  },
  { numRuns: 12 },
);

type Malformed = { readonly label: string; readonly contentType: string | null; readonly body: string };

/** Malformed token requests: a fixed list plus a few generated wrong grant types (sampled with the run's seed). */
function malformedRequests(seed: number): Malformed[] {
  const fixed: Malformed[] = [
    { label: 'a JSON body', contentType: 'application/json', body: JSON.stringify({ grant_type: GRANT_TYPE }) },
    { label: 'an XML body', contentType: 'text/xml', body: '<grant_type>client_credentials</grant_type>' },
    { label: 'no body', contentType: 'application/x-www-form-urlencoded', body: '' },
    { label: 'no Content-Type', contentType: null, body: `grant_type=${GRANT_TYPE}` },
    { label: 'binary garbage', contentType: 'application/octet-stream', body: '\u0000\u0001\u00ff\ufffd{{{<<' },
  ];
  const generated = fc.sample(wrongGrantType, { seed, numRuns: 5 }).map((g): Malformed => ({
    label: `grant_type=${JSON.stringify(g)}`,
    contentType: 'application/x-www-form-urlencoded',
    body: `grant_type=${encodeURIComponent(g)}`,
  }));
  return [...fixed, ...generated];
}

ruleTest('ERR-07', 'malformed token requests get an error response in time, never a hang or a dropped connection', async (ctx) => {
  const run = runConfig();
  const timeoutMs = Math.min(run.requestTimeoutMs, 3_000);
  for (const m of malformedRequests(run.seed)) {
    let res: HttpResponse;
    try {
      res = await requestToken(ctx, 'cert', { contentType: m.contentType, body: m.body, timeoutMs });
    } catch (err) {
      if (err instanceof TransportError && (err.code === 'TIMEOUT' || err.code === 'CONNECTION_DROPPED')) {
        throw new CheckFailure(`a token request with ${m.label} got no answer`, {
          code: err.code,
          expected: `an error response within ${timeoutMs} ms`,
          actual: err.code === 'TIMEOUT' ? `no answer within ${timeoutMs} ms` : 'the connection was dropped',
        });
      }
      throw err;
    }
    expectThat(res.status >= 400 && res.status < 500, `a token request with ${m.label} was not answered with a client error`, {
      expected: 'a 4xx status',
      actual: res.status,
    });
  }
});
