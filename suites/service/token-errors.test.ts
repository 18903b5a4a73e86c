import fc from 'fast-check';
import { account, authorizationFor, describeTokenAnswer, isRecord, jsonBody, requestToken } from '../../harness/checks/rest.ts';
import { PLAIN_FORM, restTokenAnswer, type RestTokenAnswer } from '../../harness/checks/routes.ts';
import {
  CheckFailure, expectEqual, expectThat, failOn, inClause, PrerequisiteFailed, registerPassword, ruleProperty, ruleTest, runConfig, type CheckContext,
} from '../../harness/checks/index.ts';
import { err02DistinguishableProblem, err03Problems, err03Unchecked, err07AnswerProblem, isInvalidClient, serviceSaid, type ServiceSaid } from '../../harness/judges/index.ts';
import { scaledRuns } from '../../harness/checks/rule-test.ts';
import { describes, ENVIRONMENTS, GRANT_TYPE, restTokenErrors, type RestTokenError } from '../../harness/catalog/index.ts';
import { TransportError, type HttpResponse } from '../../harness/targets/index.ts';
import { malformedAuthorizations, wrongGrantType, wrongSecret } from './support/arbitraries.ts';
import { auditExchanges } from './support/audits.ts';
import { stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

const controls = new WeakMap<CheckContext, Promise<RestTokenAnswer>>();

/**
 * A route on which correctly built credentials obtain a token (every environment with its account, the document's form
 * and the same with source_ip). Without one, no answer to bad credentials means anything (the service may refuse
 * everything): the check is skipped naming the routes tried, CRED-03 judges the credentials. The bad requests are
 * sent on that route: the same request with the credentials (or grant_type) alone changed.
 */
function goodCredentialsRoute(ctx: CheckContext): Promise<RestTokenAnswer> {
  let control = controls.get(ctx);
  if (!control) {
    control = restTokenAnswer(ctx, { needToken: false, anyAccount: true });
    controls.set(ctx, control);
  }
  return control;
}

/** A token request on `route` with other credentials (and, where given, another body). */
function onRoute(ctx: CheckContext, route: RestTokenAnswer, req: { authorization: string | null; body?: string; timeoutMs?: number }): Promise<HttpResponse> {
  return requestToken(ctx, route.env, { authorization: req.authorization, body: req.body ?? route.body, ...(req.timeoutMs !== undefined && { timeoutMs: req.timeoutMs }) });
}

/**
 * The `error` and `error_description` of a token error. An answer that is there but is no JSON object (a gateway's
 * HTML page, say) has neither: it breaks ERR-01 and ERR-02 (`error: invalid_client` is due), whoever wrote it, and
 * ERR-03 (a JSON body) as well.
 */
function tokenError(res: HttpResponse, what: string): { error: unknown; description: unknown } {
  const body = jsonBody(res);
  if (!isRecord(body)) {
    throw new CheckFailure(`the answer to ${what} has no "error": it is not a JSON object`, {
      expected: 'a JSON object with "error": "invalid_client" and an "error_description"',
      actual: `${res.status} ${res.headers['content-type'] ?? '(no content type)'}: ${res.body.slice(0, 120)}`,
    });
  }
  return { error: body.error, description: body.error_description };
}

/**
 * ERR-01's answers on `route`, for ERR-02.distinguishable: the same token request with no Authorization header, and
 * with one layer of base64 only (two of ERR-01's cases), sent by the ERR-02 check itself, so that its verdict does not
 * depend on which check ran first. Once per check.
 */
const err01References = new WeakMap<CheckContext, Promise<(ServiceSaid & { what: string })[]>>();
function err01Answers(ctx: CheckContext, route: RestTokenAnswer): Promise<(ServiceSaid & { what: string })[]> {
  let answers = err01References.get(ctx);
  if (!answers) {
    answers = (async () => {
      const cases = fc.sample(malformedAuthorizations(route.account), { seed: 1, numRuns: 1 })[0]!.slice(0, 2);
      const out: (ServiceSaid & { what: string })[] = [];
      for (const m of cases) {
        const res = await onRoute(ctx, route, { authorization: m.header });
        out.push({ ...serviceSaid(res.body, res.status), what: `credentials with ${m.label}` });
      }
      return out;
    })();
    err01References.set(ctx, answers);
  }
  return answers;
}

/** ERR-02's answer must be `invalid_client` saying the ID or secret is wrong, and differ from ERR-01's answers. */
async function expectWrongClient(ctx: CheckContext, route: RestTokenAnswer, res: HttpResponse, what: string): Promise<void> {
  expectInvalidClient(res, what, 'wrong-client');
  failOn(err02DistinguishableProblem(serviceSaid(res.body, res.status), await err01Answers(ctx, route), `the answer to ${what}`));
}

/** A bad token request must not obtain a token, and must be answered `invalid_client` with a description stating `kind`. */
function expectInvalidClient(res: HttpResponse, what: string, kind: RestTokenError['key']): void {
  const body = jsonBody(res);
  expectThat(!(res.status >= 200 && res.status < 300 && isRecord(body) && typeof body.access_token === 'string'), `${what} obtained a token`, {
    expected: `invalid_client (${restTokenErrors[kind].condition.toLowerCase()})`,
    actual: describeTokenAnswer(res),
  });
  const { error, description } = tokenError(res, what);
  expectEqual(`"error" of the answer to ${what}`, error, 'invalid_client');
  const text = typeof description === 'string' ? description : '';
  const other: RestTokenError['key'] = kind === 'wrong-client' ? 'missing-or-syntax' : 'wrong-client';
  // ERR-01's text must state its case; ERR-02's must state its own and not say the credentials are missing or
  // malformed (ERR-02.distinguishable). `describes` reads the words in context, so a text that states a wrong client
  // ID or secret ("No client found for this client ID and secret") is not taken for ERR-01's.
  const ok = describes(text, kind) && (kind === 'missing-or-syntax' || !describes(text, other));
  expectThat(ok, `the "error_description" of the answer to ${what} does not state ${restTokenErrors[kind].describes}${kind === 'wrong-client' ? ' (and only that, to be told apart from a syntax error)' : ''}`, {
    expected: `a text stating ${restTokenErrors[kind].describes} (publicly seen: ${JSON.stringify(restTokenErrors[kind].publicDescription)})`,
    actual: description,
  });
}

ruleProperty(
  'ERR-01',
  'missing or syntactically wrong credentials get invalid_client saying they are missing or malformed',
  (ctx) => malformedAuthorizations(account(ctx, 'cert')),
  async (ctx, cases) => {
    const route = await goodCredentialsRoute(ctx);
    for (const m of cases) {
      ctx.note(`malformed credentials (${m.kind}): ${m.label}`);
      const res = await onRoute(ctx, route, { authorization: m.header });
      await inClause(`ERR-01.${m.kind}`, () => expectInvalidClient(res, `credentials with ${m.label}`, 'missing-or-syntax'));
    }
  },
  { numRuns: 8, clauses: ['ERR-01.missing', 'ERR-01.other-scheme', 'ERR-01.bad-base64', 'ERR-01.no-colon', 'ERR-01.client-id-form'] },
);

ruleProperty(
  'ERR-02',
  'a wrong client secret gets invalid_client saying the client ID or secret is wrong',
  (ctx) => wrongSecret(account(ctx, 'cert').password),
  async (ctx, secret) => {
    const route = await goodCredentialsRoute(ctx);
    registerPassword(secret);
    fc.pre(secret !== route.account.password);
    const res = await onRoute(ctx, route, { authorization: authorizationFor({ ...route.account, password: secret }) });
    await expectWrongClient(ctx, route, res, 'well-formed credentials with a wrong client secret');
  },
  { clauses: ['ERR-02.wrong-secret', 'ERR-02.distinguishable'] },
);

ruleProperty(
  'ERR-02',
  'an unknown client ID gets invalid_client saying the client ID or secret is wrong',
  stringMatchingArbitrary(/^[A-Z0-9]{4,8}$/),
  async (ctx, epr) => {
    const route = await goodCredentialsRoute(ctx);
    fc.pre(epr !== route.account.epr);
    const res = await onRoute(ctx, route, { authorization: authorizationFor({ ...route.account, epr }) });
    await expectWrongClient(ctx, route, res, `well-formed credentials with an unknown client ID (user ID ${epr})`);
  },
  // A user ID outside ASCII too, whatever the seed: the credentials are UTF-8, so it is as well-formed as any (a blind
  // service answered it with the text of a syntax error).
  { numRuns: 10, clauses: ['ERR-02.unknown-client-id', 'ERR-02.distinguishable'], examples: ['ÜNBEKANNT7'] },
);

/**
 * A route in each environment besides the one the properties above judge: the token errors are the same in every
 * environment ("Check a rule on every exchange where it applies": a blind service answered a wrong secret in PROD with
 * the text of a syntax error). One fixed case each there: the properties' random cases stay in the first environment.
 */
async function otherEnvironmentRoutes(ctx: CheckContext): Promise<RestTokenAnswer[]> {
  const first = await goodCredentialsRoute(ctx);
  const others = ENVIRONMENTS.filter((env) => env !== first.env && ctx.target.environments[env] && ctx.target.accounts[env]);
  if (others.length === 0) return ctx.notApplicable(`the target has no environment besides ${first.env.toUpperCase()} with an account`);
  ctx.requireOptIn(`the token errors of ${others.map((e) => e.toUpperCase()).join(' and ')}`);
  const routes: RestTokenAnswer[] = [];
  for (const env of others) {
    try {
      routes.push(await restTokenAnswer(ctx, { env, needToken: false }));
    } catch (err) {
      if (!(err instanceof PrerequisiteFailed)) throw err;
      ctx.note(`in ${env.toUpperCase()}: ${err.reason}`);
    }
  }
  if (routes.length === 0) throw new PrerequisiteFailed(`no route in ${others.map((e) => e.toUpperCase()).join(' or ')} on which correctly built credentials obtain a token (see the notes)`, ['CRED-03']);
  return routes;
}

ruleTest('ERR-01', 'in every environment: a token request with no Authorization header gets invalid_client saying the credentials are missing', async (ctx) => {
  for (const route of await otherEnvironmentRoutes(ctx)) {
    const res = await onRoute(ctx, route, { authorization: null });
    await inClause('ERR-01.missing', () => expectInvalidClient(res, `a token request with no Authorization header in ${route.env.toUpperCase()}`, 'missing-or-syntax'));
  }
}, { clauses: ['ERR-01.missing'] });

ruleTest('ERR-02', 'in every environment: a wrong client secret gets invalid_client saying the client ID or secret is wrong', async (ctx) => {
  for (const route of await otherEnvironmentRoutes(ctx)) {
    const secret = `${route.account.password}-not`;
    registerPassword(secret);
    const res = await onRoute(ctx, route, { authorization: authorizationFor({ ...route.account, password: secret }) });
    await expectWrongClient(ctx, route, res, `well-formed credentials with a wrong client secret in ${route.env.toUpperCase()}`);
  }
}, { clauses: ['ERR-02.wrong-secret', 'ERR-02.distinguishable'] });

/** ERR-03's count of what it judged, over the runs of its property (one check context), and the runs made. */
/** What ERR-03 judged so far in a run: its runs, the error answers and invalid_client ones, the requests that hung. */
const err03Judged = new WeakMap<CheckContext, { runs: number; answers: number; invalidClient: number; hung: Set<string>; hangs: Map<string, number> }>();
/** A kind of request that hung this many times is not sent again in the run: the time limits must not end the check. */
const ERR03_HANGS_PER_KIND = 2;
const ERR03_RUNS = 6;

ruleProperty(
  'ERR-03',
  'every invalid_client answer has status 401, every token error a JSON body, and none echoes the secret',
  (ctx) => fc.record({
    malformed: malformedAuthorizations(account(ctx, 'cert')),
    secret: wrongSecret(account(ctx, 'cert').password).filter((s) => s.length >= 6),
    grantType: wrongGrantType,
  }),
  async (ctx, { malformed, secret, grantType }) => {
    const route = await goodCredentialsRoute(ctx);
    registerPassword(secret);
    const acct = route.account;
    const requests = [
      ...malformed.map((m) => ({ kind: 'malformed', what: `credentials with ${m.label}`, authorization: m.header, body: route.body, secrets: [acct.password] })),
      { kind: 'secret', what: 'a wrong client secret', authorization: authorizationFor({ ...acct, password: secret }), body: route.body, secrets: [secret, acct.password] },
      { kind: 'grant-type', what: `grant_type=${JSON.stringify(grantType)}`, authorization: authorizationFor(acct), body: route.body.replace(`grant_type=${GRANT_TYPE}`, `grant_type=${encodeURIComponent(grantType)}`), secrets: [acct.password] },
    ];
    let judged = err03Judged.get(ctx);
    if (!judged) err03Judged.set(ctx, (judged = { runs: 0, answers: 0, invalidClient: 0, hung: new Set(), hangs: new Map() }));
    judged.runs++;
    for (const r of requests) {
      // A request that got no answer within the time limit is not sent again in this run (ERR-07 judges hangs): the same
      // request, not every one of its kind (a hang on no Authorization header says nothing of a bad base64 one).
      const key = r.kind === 'grant-type' ? r.kind : r.what;
      if (judged.hung.has(key) || (judged.hangs.get(r.kind) ?? 0) >= ERR03_HANGS_PER_KIND) continue;
      let res: HttpResponse;
      try {
        // The whole time limit (latitude timing): an error answer that comes late is still an answer to judge.
        res = await onRoute(ctx, route, { authorization: r.authorization, body: r.body, timeoutMs: runConfig().requestTimeoutMs });
      } catch (err) {
        // No answer at all is ERR-07's to judge; this answer's body cannot be checked.
        if (err instanceof TransportError && (err.code === 'TIMEOUT' || err.code === 'CONNECTION_DROPPED')) {
          if (err.code === 'TIMEOUT') {
            judged.hung.add(key);
            judged.hangs.set(r.kind, (judged.hangs.get(r.kind) ?? 0) + 1);
          }
          continue;
        }
        throw err;
      }
      if (res.status >= 200 && res.status < 300) continue; // not an error: ERR-01, ERR-02 and ERR-07 judge that
      judged.answers++;
      if (isInvalidClient(res)) judged.invalidClient++;
      failOn(err03Problems(res, r.secrets, `the token error for ${r.what}`)[0]);
    }
    // After the last run: a clause no answer exercised (every answer timed out, say) is unchecked, never passed.
    if (judged.runs === scaledRuns(ERR03_RUNS, runConfig().runs)) for (const u of err03Unchecked(judged)) ctx.unchecked(u.clause, u.reason);
  },
  {
    numRuns: ERR03_RUNS,
    clauses: ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret'],
    // At most two hangs of each of the three kinds, each the request time limit, and the answered requests.
    timeout: 3 * ERR03_HANGS_PER_KIND * runConfig().requestTimeoutMs + 120_000,
  },
);

type MalformedRequest = {
  readonly label: string;
  readonly contentType: string | null;
  readonly body: string;
  /** `error`: clearly invalid (no or a wrong grant_type): an error response is due. `any`: a lenient service may serve it. */
  readonly due: 'error' | 'any';
};

/**
 * Malformed token requests: a fixed list plus a few generated wrong grant types (sampled with the run's seed). `extra`:
 * what the served route adds to the form (`&source_ip=…` where only that was served), kept beside a wrong grant_type so
 * that the grant type is the one factor changed.
 */
function malformedRequests(seed: number, extra = ''): MalformedRequest[] {
  const fixed: MalformedRequest[] = [
    // The document requires the form content type of the client, not that the service refuse other ones.
    { label: 'no Content-Type', contentType: null, body: `grant_type=${GRANT_TYPE}`, due: 'any' },
    { label: 'a JSON body', contentType: 'application/json', body: JSON.stringify({ grant_type: GRANT_TYPE }), due: 'any' },
    { label: 'an XML body', contentType: 'text/xml', body: '<grant_type>client_credentials</grant_type>', due: 'error' },
    { label: 'no body', contentType: 'application/x-www-form-urlencoded', body: '', due: 'error' },
    { label: 'binary garbage', contentType: 'application/octet-stream', body: '\u0000\u0001\u00ff\ufffd{{{<<', due: 'error' },
  ];
  const generated = fc.sample(wrongGrantType, { seed, numRuns: 5 }).map((g): MalformedRequest => ({
    label: `grant_type=${JSON.stringify(g)}`,
    contentType: 'application/x-www-form-urlencoded',
    body: `grant_type=${encodeURIComponent(g)}${extra}`,
    due: 'error',
  }));
  return [...fixed, ...generated];
}

ruleTest('ERR-07', 'malformed token requests get an answer in time (an error for clearly invalid ones), never a hang or a dropped connection', async (ctx) => {
  const run = runConfig();
  // Answers may take time within the request time limit (latitude timing): only no answer within it is a hang.
  const timeoutMs = run.requestTimeoutMs;
  const unanswered = (err: unknown): err is TransportError => err instanceof TransportError && (err.code === 'TIMEOUT' || err.code === 'CONNECTION_DROPPED');
  // The requests go where the document's request is served (an environment, an account, the form with source_ip where
  // only that was): an error answer then is the answer to what is wrong with the request, not a refusal of the account
  // or of the form. With no route served, a refusal says nothing, and only a token served for a clearly invalid request is
  // judged.
  const route = await restTokenAnswer(ctx, { needToken: false }).then((r) => (r.response.status >= 200 && r.response.status < 300 ? r : undefined), () => undefined);
  const env = route?.env ?? 'cert';
  const who = route?.account ?? account(ctx, env);
  const extra = route && route.body.startsWith(PLAIN_FORM) ? route.body.slice(PLAIN_FORM.length) : '';
  if (!route) ctx.unchecked('ERR-07.rest-malformed', 'no route served the document\'s token request, so an error answer to a malformed one could be a refusal of the account: only a token served for one is judged');
  for (const m of malformedRequests(run.seed, extra)) {
    let res: HttpResponse | undefined;
    let lost: TransportError | undefined;
    // Sent twice at most: one connection dropped, or one answer lost, may be the network's. A hang or a drop that
    // comes again, while a well-formed request of the same kind is answered (the control: other credentials, so that
    // no token is created), is the service's answer to this request.
    for (let attempt = 1; attempt <= 2 && res === undefined; attempt++) {
      try {
        res = await requestToken(ctx, env, { account: who, contentType: m.contentType, body: m.body, timeoutMs });
      } catch (err) {
        if (!unanswered(err)) throw err;
        lost = err;
      }
    }
    if (res === undefined && lost !== undefined) {
      const control = await requestToken(ctx, env, { authorization: authorizationFor({ ...who, password: `${who.password}-not` }), timeoutMs })
        .catch((err: unknown) => {
          if (unanswered(err)) throw new TransportError(err.code, `the token endpoint did not answer a well-formed request either (${err.message}): the network, not the request, lost the answers`, err.url, { cause: err });
          throw err;
        });
      ctx.note(`the well-formed control (other credentials) was answered ${control.status}, while the request with ${m.label} got no answer twice`);
      throw new CheckFailure(`a token request with ${m.label} got no answer`, {
        code: lost.code,
        expected: `an answer within ${timeoutMs} ms`,
        actual: lost.code === 'TIMEOUT' ? `no answer within ${timeoutMs} ms, twice` : 'the connection was dropped, twice',
      });
    }
    if (res === undefined) continue;
    // A clearly invalid request gets an error: any status of 400 or more (latitude malformed-request-answers).
    if (!route && res.status >= 400) continue;
    failOn(err07AnswerProblem(res.status, m.due, `a token request with ${m.label}`, describeTokenAnswer(res)));
  }
}, {
  clauses: ['ERR-07.rest-malformed'],
  // Every request may take up to the request time limit and still be answered in time (latitude timing), and one
  // without an answer is sent again, with a control.
  timeout: (malformedRequests(runConfig().seed).length + 2) * runConfig().requestTimeoutMs + 30_000,
});

auditExchanges('token error checks');
