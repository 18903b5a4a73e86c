import { accessTokenOf, describeTokenAnswer, requestToken } from '../../harness/checks/rest.ts';
import { bearerToken, PLAIN_FORM, restTokenRoute } from '../../harness/checks/routes.ts';
import {
  callApiRef, callRest, callSessionProbe, callSoap, describeAnswer, expectRefused, PROBE_HINTS, restAnswer, soap, soapAnswer, soapAnswerOf, UNKNOWN_TOKEN, type Answer,
} from '../../harness/checks/probe.ts';
import {
  CheckFailure, closeRequest, inClause, Inconclusive, obtainSoapToken, openSession, PrerequisiteFailed, registerPassword, registerSecret, responseToken, ruleTest, sessionClose, sessionCreate,
  tokenCreate, type CheckContext, type OpenSession,
} from '../../harness/checks/index.ts';
import { otherEnvironment, type Environment } from '../../harness/catalog/index.ts';
import { parseApiRef, type Account } from '../../harness/targets/index.ts';
import { auditExchanges } from './support/audits.ts';

function needBoth(ctx: CheckContext): void {
  if (!ctx.target.environments.cert || !ctx.target.environments.prod || !ctx.target.accounts.cert || !ctx.target.accounts.prod) {
    ctx.notApplicable('needs both environments and an account for each in the target config');
  }
}

const up = (env: Environment) => env.toUpperCase();

/** How one direction of an ENV-01 clause went: judged, no token of `from` by any route, or the token not served in `from`. */
type Direction = 'judged' | 'no-token' | 'not-served';

/** A token of an environment, the call that uses it in an environment, and what closes it. */
type Held = { token: string; close?: () => Promise<unknown>; call: (env: Environment) => Promise<Answer> };

/**
 * A token of `from`, served by the same call in `from` (so that it is a good token), then the same call in `to` (the
 * trial). A success there fails, a refusal passes. An answer that is neither (a 400, a 500, a page) is read by
 * difference in the token: the same call in `to` with a token of `to`, served, makes it `to`'s refusal of `from`'s
 * token; not served (`to` answers every call so), it says nothing. No token of `from` by any route, a token its own
 * environment does not serve, or such an answer with no served control leaves the clause unchecked in that
 * direction, not the whole rule.
 */
async function crossEnvironment(
  ctx: CheckContext,
  clause: string,
  [fromEnv, toEnv]: readonly [Environment, Environment],
  hint: string,
  get: (env: Environment) => Promise<Held>,
): Promise<Direction> {
  const what = `${up(fromEnv)} → ${up(toEnv)}`;
  const held = async (env: Environment): Promise<Held | undefined> => {
    try {
      return await get(env);
    } catch (err) {
      if (!(err instanceof PrerequisiteFailed)) throw err;
      ctx.note(`${clause}, ${what}: no token of ${up(env)} (${err.reason})`);
      return undefined;
    }
  };
  const got = await held(fromEnv);
  if (!got) return 'no-token';
  try {
    const before = await got.call(fromEnv);
    if (before.answer.kind !== 'success') {
      ctx.note(`${clause}, ${what}: the token was not served in its own environment (${describeAnswer(before)}), so a refusal in ${up(toEnv)} would say nothing about the environment: not judged in this direction`);
      return 'not-served';
    }
    const trial = await got.call(toEnv);
    const trialWhat = `a ${clause.split('.')[1]} token from ${up(fromEnv)} in ${up(toEnv)}`;
    if (trial.answer.kind === 'success' || trial.answer.kind === 'refused') {
      await inClause(clause, () => expectRefused(trial, trialWhat, hint));
      return 'judged';
    }
    const own = await held(toEnv);
    if (!own) return 'not-served';
    try {
      const control = await own.call(toEnv);
      if (control.answer.kind !== 'success') {
        ctx.note(`${clause}, ${what}: ${up(toEnv)} answered the token of ${up(fromEnv)} ${describeAnswer(trial)}, and its own token ${describeAnswer(control)}: the answer is not about the token's environment, not judged in this direction`);
        return 'not-served';
      }
      await inClause(clause, () => expectRefused(trial, trialWhat, hint, 'a refusal', { factor: 'token', before: control, again: () => own.call(toEnv) }));
      return 'judged';
    } finally {
      await own.close?.();
    }
  } finally {
    await got.close?.();
  }
}

/** How a clause's token kind reads in a message. */
const KIND_NAMES: Readonly<Record<string, string>> = {
  'ENV-01.rest-bearer': 'REST token (as a bearer token)',
  'ENV-01.soap-sessionless': 'TokenCreateRQ token',
  'ENV-01.soap-session': 'session token',
};

/**
 * Every API the target declares (tokenKinds), but the probes crossEnvironment already judged, called in `to` with a
 * token of `from` of a kind it takes (a REST token for a REST API, TokenCreateRQ's for a SOAP one, else a session's).
 * An acceptance fails the clause of that token kind, unless the API accepts a token nobody issued too (then it says
 * nothing about the environment: API-02's or ERR-04's to judge). Any other answer passes over the API: the probes
 * made the clause's evidence, and a refusal here adds none a control would need.
 */
async function declaredApisRefuse(ctx: CheckContext, from: Environment, to: Environment): Promise<void> {
  const probes = ctx.target.probes;
  const isProbe = (api: ReturnType<typeof parseApiRef>) => (api.kind === 'rest'
    ? api.path === probes.rest.path && api.method === (probes.rest.method ?? 'GET')
    : api.action === probes.soapSession.action || api.action === probes.soapSessionless.action);
  const apis = Object.entries(ctx.target.declared.tokenKinds).filter(([api]) => !isProbe(parseApiRef(api)));
  if (apis.length === 0) return;
  const tokens = new Map<string, Promise<{ token: string; conversationId?: string } | undefined>>();
  const sessions: OpenSession[] = [];
  const tokenOf = (clause: string, get: () => Promise<{ token: string; conversationId?: string }>) => {
    let t = tokens.get(clause);
    if (!t) {
      t = get().catch((err: unknown) => {
        if (!(err instanceof PrerequisiteFailed)) throw err;
        ctx.note(`${clause}, ${up(from)} → ${up(to)} on the declared APIs: no token of ${up(from)} (${err.reason})`);
        return undefined;
      });
      tokens.set(clause, t);
    }
    return t;
  };
  try {
    for (const [api, kinds] of apis) {
      const ref = parseApiRef(api);
      const clause = kinds.includes('sessionless') ? (ref.kind === 'rest' ? 'ENV-01.rest-bearer' : 'ENV-01.soap-sessionless') : 'ENV-01.soap-session';
      const held = await tokenOf(clause, async () => {
        if (clause === 'ENV-01.rest-bearer') return { token: (await bearerToken(ctx, from)).token };
        if (clause === 'ENV-01.soap-sessionless') return { token: await obtainSoapToken(ctx, from) };
        const session = await openSession(ctx, from);
        sessions.push(session);
        return { token: session.token, conversationId: session.conversationId };
      });
      if (!held) continue;
      const trial = await callApiRef(ctx, to, api, held.token, held.conversationId);
      if (trial.answer.kind !== 'success') continue;
      // The control: a token nobody issued, which tells an API that takes any token from one taking another environment's.
      const control = await callApiRef(ctx, to, api, UNKNOWN_TOKEN, held.conversationId);
      if (control.answer.kind === 'success') {
        ctx.note(`${api} in ${up(to)} accepted a token of ${up(from)}, and a token nobody issued too: not about the environment`);
        continue;
      }
      throw new CheckFailure(`${api} in ${up(to)} accepted a ${KIND_NAMES[clause]} obtained in ${up(from)} (a token nobody issued is refused there)`, {
        expected: 'a refusal: a token is only valid in the environment where it was obtained', actual: describeAnswer(trial), clause,
      });
    }
  } finally {
    for (const session of sessions) await sessionClose(ctx, session).catch(() => undefined);
  }
}

/**
 * SessionCloseRQ in `to` with the token of a session of `from`: the token is not valid there, so the session stays
 * open. By difference in the session's own environment: the session probe serves the token before the close and
 * refuses it after, so the close in the other environment ended it (a blind service's close took any environment's
 * session tokens). An acknowledgement that changes nothing is not judged: the close's answer is "not shown".
 */
async function closeRefused(ctx: CheckContext, from: Environment, to: Environment): Promise<void> {
  let session: OpenSession;
  try {
    session = await openSession(ctx, from);
  } catch (err) {
    if (!(err instanceof PrerequisiteFailed)) throw err;
    return ctx.note(`ENV-01.soap-session, SessionCloseRQ in ${up(to)}: no session of ${up(from)} (${err.reason})`);
  }
  try {
    const before = await callSessionProbe(ctx, from, session.token, session.conversationId);
    if (before.answer.kind !== 'success') return ctx.note(`ENV-01.soap-session, SessionCloseRQ in ${up(to)}: the session probe in ${up(from)} answered ${describeAnswer(soap(before.answer))} to a session of ${up(from)}, so whether a close elsewhere ended it cannot be seen`);
    const close = await closeRequest(ctx, to, session.token, session.conversationId, session.cpaId);
    const after = await callSessionProbe(ctx, from, session.token, session.conversationId);
    const failure = (then: string) => new CheckFailure(`SessionCloseRQ in ${up(to)} with the token of a session of ${up(from)} ended that session: the session probe in ${up(from)} served the token before it and ${then}`, {
      expected: `the token refused in ${up(to)}, and the session left open in ${up(from)}`,
      actual: `SessionCloseRQ in ${up(to)}: ${describeAnswer(soap(soapAnswerOf(ctx, close)))}; then the probe in ${up(from)}: ${describeAnswer(soap(after.answer))}`,
      clause: 'ENV-01.soap-session',
    });
    if (after.answer.kind === 'refused') throw failure('refuses it after');
    if (after.answer.kind === 'success') return;
    // Neither (a gateway's page in place of every fault): by difference, against the same probe with a session of
    // `from` opened after the close, served; the session's own token not served says it was ended.
    const fresh = await openSession(ctx, from).catch((err: unknown) => {
      if (err instanceof PrerequisiteFailed) return undefined;
      throw err;
    });
    if (!fresh) return ctx.note(`ENV-01.soap-session, SessionCloseRQ in ${up(to)}: the probe in ${up(from)} answered ${describeAnswer(soap(after.answer))} after it, and no session of ${up(from)} could be opened to compare`);
    try {
      const control = await callSessionProbe(ctx, from, fresh.token, fresh.conversationId);
      if (control.answer.kind === 'success') throw failure('does not serve it after, while it serves a session opened after the close');
      ctx.note(`ENV-01.soap-session, SessionCloseRQ in ${up(to)}: the probe in ${up(from)} answered ${describeAnswer(soap(after.answer))} after it, and ${describeAnswer(soap(control.answer))} to a session opened after: not judged`);
    } finally {
      await sessionClose(ctx, fresh).catch(() => undefined);
    }
  } finally {
    await sessionClose(ctx, session).catch(() => undefined);
  }
}

/** Why an ENV-01 clause judged in neither direction went unchecked. */
function uncheckedReason(directions: readonly Direction[]): string {
  return directions.includes('not-served')
    ? 'no token of this kind was served by the probe where a control needed it (in its own environment, or in the other where that one answered neither an acceptance nor a refusal), so no answer could be told to be about the environment (see the notes)'
    : 'neither environment gave a token of this kind by any route (see the notes)';
}

ruleTest('ENV-01', 'a token obtained in one environment is refused by the other, as a REST bearer and as a SOAP BinarySecurityToken', async (ctx) => {
  needBoth(ctx);
  const judged = new Map<string, Direction[]>();
  const count = (clause: string, how: Direction) => judged.set(clause, [...(judged.get(clause) ?? []), how]);
  for (const from of ['cert', 'prod'] as const) {
    const to: Environment = otherEnvironment(from);
    // A REST token of `from` by any route; failing that, a TokenCreateRQ token of `from` (the document: "A sessionless
    // token obtained through REST can also be used to call SOAP APIs, and the reverse").
    count('ENV-01.rest-bearer', await crossEnvironment(ctx, 'ENV-01.rest-bearer', [from, to], PROBE_HINTS.rest, async (of) => {
      const { token } = await bearerToken(ctx, of);
      return { token, call: async (env) => restAnswer(await callRest(ctx, env, `Bearer ${token}`)) };
    }));
    count('ENV-01.soap-sessionless', await crossEnvironment(ctx, 'ENV-01.soap-sessionless', [from, to], PROBE_HINTS.soapSessionless, async (of) => {
      const token = await obtainSoapToken(ctx, of);
      return { token, call: async (env) => soapAnswer(await callSoap(ctx, env, token)) };
    }));
    count('ENV-01.soap-session', await crossEnvironment(ctx, 'ENV-01.soap-session', [from, to], PROBE_HINTS.soapSession, async (of) => {
      const session = await openSession(ctx, of);
      return { token: session.token, close: () => sessionClose(ctx, session), call: async (env) => soapAnswer(await callSessionProbe(ctx, env, session.token)) };
    }));
  }
  // "A token is only valid in the environment where it was obtained": on every API the target declares, not on the
  // probes alone (a gateway route of one API may reach the other environment's service), and SessionCloseRQ too.
  for (const from of ['cert', 'prod'] as const) await declaredApisRefuse(ctx, from, otherEnvironment(from));
  for (const from of ['cert', 'prod'] as const) await closeRefused(ctx, from, otherEnvironment(from));
  const none = [...judged].filter(([, how]) => !how.includes('judged'));
  if (none.length === judged.size && none.every(([, how]) => how.every((h) => h === 'no-token'))) {
    throw new PrerequisiteFailed('no environment gave a token by any route (REST, TokenCreateRQ, SessionCreateRQ in CERT and PROD): see the notes', ['CRED-03', 'STOK-01', 'STOK-02']);
  }
  for (const [clause, how] of none) ctx.unchecked(clause, uncheckedReason(how));
}, { clauses: ['ENV-01.rest-bearer', 'ENV-01.soap-sessionless', 'ENV-01.soap-session'] });

/** The declared accounts that are valid in one environment only. */
function singleEnvironmentAccounts(ctx: CheckContext): { account: Account; env: Environment }[] {
  const certOnly = ctx.target.declared.certOnly;
  return certOnly ? [{ account: certOnly, env: 'cert' }] : [];
}

ruleTest('ENV-03', 'credentials valid in only one environment obtain no token in the other', async (ctx) => {
  needBoth(ctx);
  const accounts = singleEnvironmentAccounts(ctx);
  if (accounts.length === 0) return ctx.notApplicable('needs an account valid in one environment only: declare it as "access.certOnly" in the target config');
  for (const { account, env } of accounts) {
    registerPassword(account.password);
    const other = otherEnvironment(env);
    // The control: the account obtains a token in its own environment (by any form the document allows); the trial is
    // the same request in the other environment.
    const own = await restTokenRoute(ctx, { env, account });
    const res = await requestToken(ctx, other, { account, ...(own.body !== PLAIN_FORM && { body: own.body }) });
    const token = accessTokenOf(res);
    registerSecret(token);
    if (token) throw new CheckFailure(`${up(env)}-only credentials obtained a REST token in ${up(other)}`, { expected: 'no token (invalid_client)', actual: describeTokenAnswer(res), clause: 'ENV-03.rest' });
    // The SOAP control: the account obtains a SOAP token (TokenCreateRQ) in its own environment. Without it, a refusal
    // in the other environment may be about the credentials on SOAP, not the environment: ENV-03.soap is unchecked
    // (a token or session obtained in the other environment still fails, whatever the control).
    let soapControl: string | undefined;
    try {
      soapControl = await obtainSoapToken(ctx, env, account);
      registerSecret(soapControl);
    } catch (err) {
      if (!(err instanceof PrerequisiteFailed)) throw err;
      ctx.note(`ENV-03.soap: the ${up(env)}-only account obtained no SOAP token in ${up(env)} (${err.reason})`);
    }
    const x = await tokenCreate(ctx, other, account);
    const answer = soapAnswerOf(ctx, x);
    if (answer.kind === 'success' && responseToken(x)) throw new CheckFailure(`${up(env)}-only credentials obtained a SOAP token in ${up(other)}`, { expected: 'a SOAP fault, no token', actual: describeAnswer(soap(answer)), clause: 'ENV-03.soap' });
    if (answer.kind === 'busy') throw new Inconclusive(`TokenCreateRQ in ${up(other)} got ${describeAnswer(soap(answer))}`);
    const session = await sessionCreate(ctx, other, account);
    if (session.session) {
      await sessionClose(ctx, session.session);
      throw new CheckFailure(`${up(env)}-only credentials opened a session in ${up(other)}`, { expected: 'a SOAP fault, no session', actual: 'SessionCreateRS with a session token', clause: 'ENV-03.soap' });
    }
    if (soapControl === undefined) {
      ctx.unchecked('ENV-03.soap', `the ${up(env)}-only account obtained no SOAP token in its own environment (the control), so its refusal in ${up(other)} says nothing about the environment (see the notes)`);
    }
  }
}, { clauses: ['ENV-03.rest', 'ENV-03.soap'] });

auditExchanges('environment checks');
