import fc from 'fast-check';
import { accepted, callApi, obtainToken } from '../../harness/checks/rest.ts';
import { expectThat, ruleProperty } from '../../harness/checks/index.ts';
import { publicApiAuthError, restEndpoints, type RestEndpoint } from '../../harness/spec/index.ts';
import type { Target } from '../../harness/targets/index.ts';

/** APIs the main account may call with a sessionless token: all of them on the simulator, the public lookup live. */
function callableEndpoints(target: Target): RestEndpoint[] {
  const sessionless = restEndpoints.filter((e) => e.accepts.includes('sessionless'));
  return target.control ? sessionless : sessionless.filter((e) => e.public);
}

ruleProperty(
  'API-01',
  'a bearer token keeps working for many requests to the published APIs',
  fc.array(fc.nat(), { minLength: 2, maxLength: 12 }),
  async (ctx, picks) => {
    const endpoints = callableEndpoints(ctx.target);
    const token = await obtainToken(ctx, 'cert');
    for (const [i, pick] of picks.entries()) {
      const endpoint = endpoints[pick % endpoints.length]!;
      const res = await callApi(ctx, 'cert', endpoint, token);
      expectThat(accepted(res), `request ${i + 1} of ${picks.length} (${endpoint.method ?? 'GET'} ${endpoint.path}) refused a valid token`, {
        expected: '2xx',
        actual: `${res.status} ${res.body.slice(0, 120)}`,
      });
    }
  },
  { numRuns: 10 },
);

type BadBearer = { readonly label: string; readonly authorization: string | null };

const badBearer: fc.Arbitrary<(token: string) => BadBearer> = fc.oneof(
  fc.constant(() => ({ label: 'no Authorization header', authorization: null })),
  fc.constant(() => ({ label: 'scheme only', authorization: 'Bearer' })),
  fc.constant(() => ({ label: 'empty token', authorization: 'Bearer ' })),
  fc.constant((t: string) => ({ label: 'token as Basic', authorization: `Basic ${t}` })),
  fc.constant((t: string) => ({ label: 'no space after Bearer', authorization: `Bearer${t}` })),
  fc.stringMatching(/^[A-Za-z0-9+/]{20,60}\*$/).map((s) => () => ({ label: 'unknown token', authorization: `Bearer T1RLAQ${s}` })),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).filter((s) => !/\s/.test(s)).map((s) => () => ({ label: 'garbage token', authorization: `Bearer ${s}` })),
  fc.nat().map((i) => (t: string) => {
    const at = 6 + (i % (t.length - 7));
    const flipped = t[at] === 'A' ? 'B' : 'A';
    return { label: 'tampered token', authorization: `Bearer ${t.slice(0, at)}${flipped}${t.slice(at + 1)}` };
  }),
);

ruleProperty(
  'API-02',
  'a missing, malformed or unknown bearer token is refused',
  badBearer,
  async (ctx, make) => {
    const token = await obtainToken(ctx, 'cert');
    const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
    const bad = make(token);
    const res = await callApi(ctx, 'cert', themes, undefined, { authorization: bad.authorization });
    expectThat(!accepted(res), `an API accepted a request with ${bad.label}`, { expected: 'a refusal (publicly seen: 401 ' + publicApiAuthError.errorCode + ')', actual: `${res.status}` });
  },
  { numRuns: 30 },
);
