import fc from 'fast-check';
import { restTokenRoute } from '../../harness/checks/routes.ts';
import type { Environment } from '../../harness/catalog/index.ts';
import { callRest, describeAnswer, expectAccepted, expectRefused, PROBE_HINTS, rest, restAnswer, type Answer, type Control } from '../../harness/checks/probe.ts';
import { Inconclusive, PrerequisiteFailed, ruleProperty, type CheckContext } from '../../harness/checks/index.ts';
import { parseApiRef, type RestProbe, type Target } from '../../harness/targets/index.ts';
import { auditExchanges } from './support/audits.ts';
import { stringArbitrary, stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

/** REST APIs the main account may call with a sessionless token: the target's probe, and the APIs it declares so. */
function sessionlessRestApis(target: Target): RestProbe[] {
  const declared = Object.entries(target.declared.tokenKinds)
    .filter(([, kinds]) => kinds.includes('sessionless'))
    .map(([ref]) => parseApiRef(ref))
    .flatMap((api): RestProbe[] => (api.kind === 'rest' ? [{ method: api.method, path: api.path, ...(api.query && { query: api.query }) }] : []));
  const probe = target.probes.rest;
  return [probe, ...declared.filter((a) => a.path !== probe.path || a.method !== probe.method)];
}

const label = (api: RestProbe) => `${api.method} ${api.path}`;

ruleProperty(
  'API-01',
  'a bearer token keeps working for many requests to the published APIs',
  fc.array(fc.nat(), { minLength: 2, maxLength: 12 }),
  async (ctx, picks) => {
    const apis = sessionlessRestApis(ctx.target);
    // A token from any route (every environment with its account): the APIs are called in the environment it came from.
    const { token, env } = await restTokenRoute(ctx);
    for (const [i, pick] of picks.entries()) {
      const api = i === 0 ? apis[0]! : apis[pick % apis.length]!;
      const { answer } = await callRest(ctx, env, `Bearer ${token}`, api);
      const hint = api === ctx.target.probes.rest ? PROBE_HINTS.rest : `the target declares ${label(api)} in "tokenKinds" as accepting sessionless tokens: check that declaration`;
      await expectAccepted(rest(answer), `request ${i + 1} of ${picks.length} (${label(api)}) with a valid token${i === 0 ? '' : ', used before'}`, hint);
    }
  },
  { numRuns: 10, clauses: ['API-01.accepted', 'API-01.reused'] },
);

type BadBearer = { readonly kind: 'missing' | 'malformed' | 'unknown'; readonly label: string; readonly authorization: string | null };

const malformed: fc.Arbitrary<(token: string) => BadBearer> = fc.constantFrom(
  () => ({ kind: 'malformed', label: 'the scheme only', authorization: 'Bearer' }) as const,
  () => ({ kind: 'malformed', label: 'an empty token', authorization: 'Bearer ' }) as const,
  (t: string) => ({ kind: 'malformed', label: 'the token under Basic', authorization: `Basic ${t}` }) as const,
  (t: string) => ({ kind: 'malformed', label: 'no space after Bearer', authorization: `Bearer${t}` }) as const,
);

const unknown: fc.Arbitrary<(token: string) => BadBearer> = fc.oneof(
  stringMatchingArbitrary(/^[A-Za-z0-9+/]{20,60}\*$/).map((s) => () => ({ kind: 'unknown', label: 'an unknown T1RLAQ… token', authorization: `Bearer T1RLAQ${s}` }) as const),
  stringArbitrary({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).filter((s) => !/\s/.test(s)).map((s) => () => ({ kind: 'unknown', label: 'a garbage token', authorization: `Bearer ${s}` }) as const),
  fc.nat().map((i) => (t: string) => {
    const at = 6 + (i % Math.max(1, t.length - 7));
    const flipped = t[at] === 'A' ? 'B' : 'A';
    return { kind: 'unknown', label: 'a tampered token (one character changed)', authorization: `Bearer ${t.slice(0, at)}${flipped}${t.slice(at + 1)}` } as const;
  }),
);

const controls = new WeakMap<CheckContext, Promise<{ token: string; env: Environment; served: Answer }>>();

/** A token the REST probe accepts (from any route): the same request with a bad token then differs only by the token. */
function acceptedToken(ctx: CheckContext): Promise<{ token: string; env: Environment; served: Answer }> {
  let control = controls.get(ctx);
  if (!control) {
    control = restTokenRoute(ctx).then(async ({ token, env }) => {
      const result = await callRest(ctx, env, `Bearer ${token}`);
      const { answer } = result;
      if (answer.kind === 'refused' || answer.kind === 'forbidden') throw new PrerequisiteFailed(`the REST probe refuses a valid token (${describeAnswer(rest(answer))})`, ['API-01']);
      if (answer.kind !== 'success') throw new Inconclusive(`the REST probe answered ${describeAnswer(rest(answer))} to a valid token, so its refusals say nothing; ${PROBE_HINTS.rest}`);
      return { token, env, served: restAnswer(result) };
    });
    controls.set(ctx, control);
  }
  return control;
}

ruleProperty(
  'API-02',
  'a missing, malformed or unknown bearer token is refused',
  fc.tuple(malformed, unknown),
  async (ctx, [makeMalformed, makeUnknown]) => {
    const { token, env, served } = await acceptedToken(ctx);
    const cases: BadBearer[] = [{ kind: 'missing', label: 'no Authorization header', authorization: null }, makeMalformed(token), makeUnknown(token)];
    // The control: the same request with the valid token, served (before, and again when an answer needs attributing):
    // the requests differ in the Authorization header alone, so any answer but a success refuses the bad one.
    const control: Control = { factor: 'header', before: served, again: async () => restAnswer(await callRest(ctx, env, `Bearer ${token}`)) };
    for (const bad of cases) {
      const trial = await callRest(ctx, env, bad.authorization);
      await expectRefused(restAnswer(trial), `an API request with ${bad.label}`, PROBE_HINTS.rest, 'a refusal (publicly seen: 401 ERR.2SG.SEC.INVALID_CREDENTIALS)', control);
    }
  },
  { numRuns: 10, clauses: ['API-02.missing', 'API-02.malformed', 'API-02.unknown'] },
);

auditExchanges('REST API checks');
