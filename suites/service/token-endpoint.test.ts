import fc from 'fast-check';
import { accessTokenOf, describeTokenAnswer, requestToken } from '../../harness/checks/rest.ts';
import { callRest, expectAccepted, PROBE_HINTS, restAnswer } from '../../harness/checks/probe.ts';
import { PLAIN_FORM, restTokenAnswer, type RestTokenAnswer } from '../../harness/checks/routes.ts';
import {
  expectEqual, Inconclusive, PrerequisiteFailed, registerSecret, ruleProperty, ruleTest, type CheckContext,
} from '../../harness/checks/index.ts';
import type { HttpResponse } from '../../harness/targets/index.ts';
import { GRANT_TYPE } from '../../harness/catalog/index.ts';
import { expectTokenResponse, expectTokenResponseShape } from './support/token-answers.ts';
import { auditExchanges } from './support/audits.ts';

/**
 * A successful token answer from the first route that gives one (every environment with its account, the document's
 * form and the same with source_ip: harness/checks/routes.ts): the answer's shape is what these checks judge, the
 * acceptance of the credentials CRED-03's, of the form REST-02's. None makes the check `skipped`, naming the routes.
 */
async function validTokenAnswer(ctx: CheckContext): Promise<RestTokenAnswer> {
  return restTokenAnswer(ctx, { needToken: false, anyAccount: true });
}

ruleTest('REST-03', 'a valid request gets access_token, token_type "bearer" and expires_in 604800', async (ctx) => {
  expectTokenResponse((await validTokenAnswer(ctx)).response);
}, { clauses: ['REST-03.json-object', 'REST-03.access-token', 'REST-03.token-type', 'REST-03.expires-in'] });

ruleProperty(
  'REST-02',
  'a valid request is answered the same with or without source_ip',
  // A client's address ("Client source IP address"): unicast IPv4 outside "this network" (0/8), loopback, multicast and
  // reserved space, or global unicast IPv6 (2000::/3), since a service may refuse the others as no client's.
  // The form's fields in either order: the document fixes none (a blind service refused source_ip before grant_type).
  fc.tuple(fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 223 }).filter((a) => a !== 127), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((o) => o.join('.')),
    fc.tuple(fc.integer({ min: 0x2000, max: 0x3fff }), fc.array(fc.nat(0xffff), { minLength: 7, maxLength: 7 })).map(([head, rest]) => [head, ...rest].map((h) => h.toString(16)).join(':')),
  ), fc.boolean()),
  async (ctx, [sourceIp, sourceIpFirst]) => {
    // The environment and account of a route that is served (with or without source_ip): there, both forms are sent.
    const { env, account } = await validTokenAnswer(ctx);
    const without = await requestToken(ctx, env, { account });
    const fields = [`grant_type=${GRANT_TYPE}`, `source_ip=${encodeURIComponent(sourceIp)}`];
    const withIp = await requestToken(ctx, env, { account, body: (sourceIpFirst ? fields.reverse() : fields).join('&') });
    const served = (res: HttpResponse) => res.status >= 200 && res.status < 300;
    if (!served(without) && !served(withIp)) throw new PrerequisiteFailed(`the account obtained no token in ${env.toUpperCase()} with or without source_ip (${describeTokenAnswer(without)})`, ['CRED-03']);
    const statusClass = (res: HttpResponse) => `${Math.floor(res.status / 100)}xx`;
    const differs = served(withIp) !== served(without) ? ` (the two requests differ in source_ip alone: ${describeTokenAnswer(without)} without it, ${describeTokenAnswer(withIp)} with it)` : '';
    expectEqual(`status class with source_ip (the same as without)${differs}`, statusClass(withIp), statusClass(without));
    // What a served answer holds is REST-03's, judged on every token answer (with source_ip or not) by the file's
    // audit: compared here, a service whose every fourth token said "Bearer" failed REST-02 as well, for a field that
    // varied from one answer to the next whatever the form.
  },
  { numRuns: 10, clauses: ['REST-02.source-ip'], examples: [['81.2.69.160', false], ['2a00:1450:4001:81b::200e', true]] as [string, boolean][] },
);

ruleProperty(
  'REST-04',
  'N token calls yield N distinct tokens, each of them usable',
  fc.integer({ min: 2, max: 6 }),
  async (ctx, n) => {
    const route = await validTokenAnswer(ctx);
    const { env, account, body } = route;
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = i === 0 ? route.response : await requestToken(ctx, env, { account, ...(body !== PLAIN_FORM && { body }) });
      if (res.status < 200 || res.status >= 300) throw new Inconclusive(`token call ${i + 1} of ${n} in ${env.toUpperCase()} got ${describeTokenAnswer(res)} after the first was served`);
      const token = accessTokenOf(res);
      if (token === undefined) throw new PrerequisiteFailed(`token call ${i + 1} of ${n} gave no access_token`, ['REST-03']);
      registerSecret(token);
      tokens.push(token);
    }
    expectEqual(`number of distinct tokens from ${n} calls`, new Set(tokens).size, n);
    // The newest token is the control: a service that refuses it refuses every token (API-01's to judge).
    const newest = await callRest(ctx, env, `Bearer ${tokens.at(-1)}`);
    if (newest.answer.kind !== 'success') {
      if (newest.answer.kind === 'refused' || newest.answer.kind === 'forbidden') throw new PrerequisiteFailed(`the newest of ${n} tokens is refused by ${ctx.target.probes.rest.path}`, ['API-01']);
      throw new Inconclusive(`the REST probe ${ctx.target.probes.rest.method} ${ctx.target.probes.rest.path} answered ${newest.response.status} to the newest token; ${PROBE_HINTS.rest}`);
    }
    for (const [i, token] of tokens.slice(0, -1).entries()) {
      const api = await callRest(ctx, env, `Bearer ${token}`);
      await expectAccepted(restAnswer(api), `token ${i + 1} of ${n} (the newest one is accepted)`, PROBE_HINTS.rest, 'accepted: one call yields one token, and each stays usable', {
        factor: 'token',
        before: restAnswer(newest),
        again: async () => restAnswer(await callRest(ctx, env, `Bearer ${tokens.at(-1)}`)),
      });
    }
  },
  { numRuns: 8, clauses: ['REST-04.distinct', 'REST-04.usable'] },
);

ruleTest('REST-05', 'a successful token response has status 200 and a JSON content type', async (ctx) => {
  expectTokenResponseShape((await validTokenAnswer(ctx)).response);
}, { clauses: ['REST-05.status-200', 'REST-05.json-content-type'] });

auditExchanges('token endpoint checks');
