import fc from 'fast-check';
import { restTokenRoute } from '../../harness/checks/routes.ts';
import type { Environment } from '../../harness/catalog/index.ts';
import { callRest, describeAnswer, expectAccepted, expectRefused, PROBE_HINTS, rest, restAnswer, settled, verdictOf, type Answer, type Control } from '../../harness/checks/probe.ts';
import { inClause, Inconclusive, PrerequisiteFailed, ruleProperty, runConfig, type CheckContext } from '../../harness/checks/index.ts';
import { scaledRuns } from '../../harness/checks/rule-test.ts';
import type { RestProbe } from '../../harness/targets/index.ts';
import { auditExchanges } from './support/audits.ts';
import { journalFreshRefusal } from '../../harness/checks/journal.ts';
import { sessionlessRestApis } from './support/rest-apis.ts';
import { stringArbitrary, stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

const label = (api: RestProbe) => `${api.method} ${api.path}`;

/** API-01's count, over the runs of its property (one check context): the runs made, and the reuses judged. */
const api01Judged = new WeakMap<CheckContext, { runs: number; reused: number; silent: Set<string> }>();
const API01_RUNS = 10;

ruleProperty(
  'API-01',
  'a bearer token keeps working for many requests to the published APIs',
  fc.array(fc.nat(), { minLength: 2, maxLength: 12 }),
  async (ctx, picks) => {
    const apis = sessionlessRestApis(ctx.target);
    let judged = api01Judged.get(ctx);
    if (!judged) api01Judged.set(ctx, (judged = { runs: 0, reused: 0, silent: new Set() }));
    judged.runs++;
    // A token from any route (every environment with its account): the APIs are called in the environment it came from.
    const { token, env } = await restTokenRoute(ctx);
    for (const [i, pick] of picks.entries()) {
      const api = i === 0 ? apis[0]! : apis[pick % apis.length]!;
      // Before the second use, the same API is sent another, unknown token (its answer is API-02's to judge, not
      // looked at here): the valid token keeps working whatever else the API was sent (a gateway that cached a 401
      // without regard to the token refused it next).
      if (i === 1) await callRest(ctx, env, tampered(0)(token).authorization, api);
      const used = i === 0 ? '' : i === 1 ? ', used before, after a request with an unknown token' : ', used before';
      const what = `request ${i + 1} of ${picks.length} (${label(api)}) with a valid token${used}`;
      const answer = restAnswer(await callRest(ctx, env, `Bearer ${token}`, api));
      const clause = i === 0 ? 'API-01.accepted' : 'API-01.reused';
      if (api === ctx.target.probes.rest) {
        await inClause(clause, () => expectAccepted(answer, what, PROBE_HINTS.rest));
      } else {
        // A declared API is called bare: its payload is outside the document, so an answer that neither serves nor
        // refuses the token (a 400 for the payload, a 404) says nothing about the token; only a refusal is evidence.
        const a = await settled(answer);
        if (verdictOf(a) === undefined) {
          if (!judged.silent.has(label(api))) ctx.note(`${what}: ${describeAnswer(a)}, which says nothing about the token: not judged`);
          judged.silent.add(label(api));
          continue;
        }
        if (verdictOf(a) === 'refused') {
          // Whether that API takes the account's sessionless tokens at all is its declaration's (ACCESS-01's): the same
          // call with a fresh token tells a refusal of a used token (this rule's) from a refusal of any.
          const fresh = await restTokenRoute(ctx, { env });
          const control = await settled(restAnswer(await callRest(ctx, env, `Bearer ${fresh.token}`, api)));
          if (verdictOf(control) !== 'accepted') {
            if (!judged.silent.has(label(api))) ctx.note(`${what}: refused, and a fresh token too (${describeAnswer(control)}): not about reuse (whether ${label(api)} takes these tokens is ACCESS-01's): not judged`);
            judged.silent.add(label(api));
            continue;
          }
        }
        await inClause(clause, () => expectAccepted(a, what, `the target declares ${label(api)} in "tokenKinds" as accepting sessionless tokens: check that declaration`));
      }
      if (i > 0) judged.reused++;
    }
    // After the last run: when no request with a used token was judged (every one went to APIs whose answers say
    // nothing about the token), the reuse is unchecked, never passed.
    if (judged.runs === scaledRuns(API01_RUNS, runConfig().runs) && judged.reused === 0) {
      ctx.unchecked('API-01.reused', `no request with a used token got an answer that says something about the token (${[...judged.silent].join(", ")} said nothing about a used token: neither a success nor a refusal, or a fresh token refused too)`);
    }
  },
  {
    numRuns: API01_RUNS,
    clauses: ['API-01.accepted', 'API-01.reused'],
    // "Reused for many requests until it expires", whatever the seed: one token for 25 calls to the probe (a blind
    // service refused a token after its 12th use, which random runs of at most 12 calls did not reach).
    examples: [Array.from({ length: 25 }, () => 0)],
  },
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
  fc.nat().map(tampered),
);

/**
 * The token with one character changed (the `i`-th after the first six, wrapping; with a negative `i`, the `-i`-th from
 * the end), to one whose lower case differs from the original's: under any case folding (a UUID or hex token is
 * case-insensitive, and a service may canonicalise it) the result is another token, never the same one in another case.
 */
function tampered(i: number): (token: string) => BadBearer {
  return (t: string) => {
    const at = i < 0 ? Math.max(0, t.length + i) : 6 + (i % Math.max(1, t.length - 7));
    const flipped = (t[at] ?? '').toLowerCase() === 'a' ? 'B' : 'A';
    return { kind: 'unknown', label: 'a tampered token (one character changed)', authorization: `Bearer ${t.slice(0, at)}${flipped}${t.slice(at + 1)}` } as const;
  };
}

const controls = new WeakMap<CheckContext, Promise<{ token: string; env: Environment; served: Answer }>>();

/** A token the REST probe accepts (from any route): the same request with a bad token then differs only by the token. */
function acceptedToken(ctx: CheckContext): Promise<{ token: string; env: Environment; served: Answer }> {
  let control = controls.get(ctx);
  if (!control) {
    control = restTokenRoute(ctx).then(async ({ token, env }) => {
      const result = await callRest(ctx, env, `Bearer ${token}`);
      const { answer } = result;
      if (answer.kind === 'refused' || answer.kind === 'forbidden') {
        const what = `the REST probe refused a valid token from ${env.toUpperCase()} right after it was issued (${describeAnswer(rest(answer))})`;
        journalFreshRefusal({ token, what, response: result.response });
        throw new PrerequisiteFailed(what, ['API-01']);
      }
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
      await inClause(`API-02.${bad.kind}`, () => expectRefused(restAnswer(trial), `an API request with ${bad.label}`, PROBE_HINTS.rest, 'a refusal (publicly seen: 401 ERR.2SG.SEC.INVALID_CREDENTIALS)', control));
    }
  },
  {
    numRuns: 10,
    clauses: ['API-02.missing', 'API-02.malformed', 'API-02.unknown'],
    // A tampered token (the case closest to a valid one) is tried whatever the seed and the number of runs, changed
    // near its start and near its end: a service that compares only a prefix of the token (or a suffix) is caught on
    // every seed, not on the seeds whose random position falls in the part it reads.
    examples: [
      [(t: string): BadBearer => ({ kind: 'malformed', label: 'the token under Basic', authorization: `Basic ${t}` }), tampered(0)],
      [(t: string): BadBearer => ({ kind: 'malformed', label: 'no space after Bearer', authorization: `Bearer${t}` }), tampered(-2)],
    ] as [(t: string) => BadBearer, (t: string) => BadBearer][],
  },
);

auditExchanges('REST API checks');
