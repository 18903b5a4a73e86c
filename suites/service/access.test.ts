import { accessTokenOf, describeTokenAnswer, requestToken } from '../../harness/checks/rest.ts';
import { bearerToken, obtainToken, SOURCE_IP_FORM } from '../../harness/checks/routes.ts';
import { freshAccountLike } from '../../harness/checks/fresh-account.ts';
import { callApiRef, describeAnswer, expectAccepted, expectRefused, verdictOf, type Answer, type Control } from '../../harness/checks/probe.ts';
import {
  CheckFailure, inClause, Inconclusive, obtainSoapToken, openSession, PrerequisiteFailed, registerPassword, registerSecret, ruleTest, sessionClose, type CheckContext, type OpenSession,
} from '../../harness/checks/index.ts';
import type { Environment, TokenKind } from '../../harness/catalog/index.ts';
import { parseApiRef, type Account, type ApiRef } from '../../harness/targets/index.ts';
import { auditExchanges } from './support/audits.ts';

const DECLARE = 'declare it in the target config (see docs/target-config.md: tokenKinds, access)';

/**
 * A way to get a token of a kind for an API of a protocol: REST APIs take REST tokens, SOAP APIs TokenCreateRQ ones.
 * A SOAP API that takes no sessionless token must refuse a REST one too ("A sessionless token obtained through REST can
 * also be used to call SOAP APIs": it is a sessionless token): `refuseOnly`, since whether a SOAP API that takes
 * sessionless tokens serves a REST one is XPROTO-01's to judge.
 */
interface TokenSource {
  readonly kind: TokenKind;
  readonly via: string;
  readonly refuseOnly?: boolean;
  /** Set by `get`: the last token was a TokenCreateRQ token standing in for a REST one the account could not get. */
  standIn?: boolean;
  /** A fresh token (and the session it belongs to, for a session token: closed by the caller). */
  get(): Promise<{ token: string; session?: OpenSession }>;
}

function sourcesFor(ctx: CheckContext, api: ApiRef, env: Environment = 'cert'): TokenSource[] {
  const isRest = parseApiRef(api).kind === 'rest';
  return [
    isRest ? restSource(ctx, env) : { kind: 'sessionless', via: 'TokenCreateRQ', get: async () => ({ token: await obtainSoapToken(ctx, env) }) },
    ...(isRest ? [] : [{ kind: 'sessionless', via: 'POST /v2/auth/token (a REST token)', refuseOnly: true, get: async () => ({ token: await restTokenForSoap(ctx, env) }) } as const]),
    { kind: 'session', via: 'SessionCreateRQ', get: async () => {
      const session = await openSession(ctx, env);
      return { token: session.token, session };
    } },
  ];
}

/**
 * A REST API's sessionless source: a REST token (the configured account's, else — on the simulator — a fresh account's
 * of the same agency), or a TokenCreateRQ token where neither gets one (`standIn`): a refusal of a stand-in cannot be
 * told from a refusal of its origin, so every REST route comes first.
 */
function restSource(ctx: CheckContext, env: Environment): TokenSource {
  const source: TokenSource = {
    kind: 'sessionless',
    via: 'POST /v2/auth/token',
    get: async () => {
      try {
        return { token: await restTokenForSoap(ctx, env) };
      } catch (err) {
        if (!(err instanceof NoToken)) throw err;
      }
      const { token, via } = await bearerToken(ctx, env);
      source.standIn = via === 'soap';
      return { token };
    },
  };
  return source;
}

/** No token of a source's kind by any route: the clause it would exercise stays unchecked, naming what was tried. */
class NoToken extends Error {}

/**
 * A sessionless token obtained through REST (for a SOAP API, or as a REST API's own source): the configured account's (by any form the document
 * allows), else, where the target can make accounts (the simulator), a fresh account's of the same agency. A
 * TokenCreateRQ token standing in for it (as bearerToken would give) is no REST token: it would be the TokenCreateRQ
 * case again.
 */
async function restTokenForSoap(ctx: CheckContext, env: Environment): Promise<string> {
  let reason: string;
  try {
    return await obtainToken(ctx, env);
  } catch (err) {
    if (!(err instanceof PrerequisiteFailed)) throw err;
    reason = err.reason;
  }
  const control = ctx.target.control;
  const main = ctx.target.accounts[env];
  if (!control || !main) throw new NoToken(`no REST token in ${env.toUpperCase()} (${reason})`);
  const fresh = await freshAccountLike(control, env, main, 'access');
  try {
    const token = await obtainToken(ctx, env, fresh);
    ctx.note(`no REST token for the configured account (${reason}): a fresh account of the simulator with the same PCC gave one`);
    return token;
  } catch (err) {
    if (!(err instanceof PrerequisiteFailed)) throw err;
    throw new NoToken(`no REST token in ${env.toUpperCase()}, for the configured account (${reason}) or a fresh one of the same agency (${err.reason})`);
  }
}

/** Calls `api` in `env` with a fresh token of `env` from `source`, closing the session it opened. */
async function callWith(ctx: CheckContext, api: ApiRef, source: TokenSource, env: Environment = 'cert'): Promise<Answer> {
  const { token, session } = await source.get();
  try {
    return await callApiRef(ctx, env, api, token, session?.conversationId);
  } finally {
    if (session) await sessionClose(ctx, session);
  }
}

/**
 * A way an account's token reaches an API: "A sessionless token obtained through REST can also be used to call SOAP
 * APIs, and the reverse", so an API that takes sessionless tokens is reached by REST tokens and by TokenCreateRQ ones
 * (its own protocol's first), and one that takes session tokens by a session. An access rule ("with a wrong PCC the
 * agency-specific APIs are not accessible", an API that needs an amendment) holds on each of them: a blind service
 * checked the PCC of REST tokens only, and the amendment of sessionless tokens only.
 */
type AccessRoute = 'rest' | 'soap-token' | 'session';

const ROUTE_NAMES: Readonly<Record<AccessRoute, string>> = { rest: 'a REST token', 'soap-token': 'a TokenCreateRQ token', session: 'a session token' };

/** The routes to `api`: by the token kinds it declares (sessionless where it declares none). */
function accessRoutes(ctx: CheckContext, api: ApiRef): AccessRoute[] {
  const kinds = ctx.target.declared.tokenKinds[api] ?? ['sessionless'];
  const sessionless: AccessRoute[] = parseApiRef(api).kind === 'rest' ? ['rest', 'soap-token'] : ['soap-token', 'rest'];
  return [...(kinds.includes('sessionless') ? sessionless : []), ...(kinds.includes('session') ? ['session' as const] : [])];
}

/** Calls `api` as `account` with a fresh token of `route` (the first route `api` takes when none is given). */
async function callAs(ctx: CheckContext, account: Account | undefined, api: ApiRef, route: AccessRoute = accessRoutes(ctx, api)[0] ?? 'rest'): Promise<Answer> {
  if (route === 'session') {
    const session = await openSession(ctx, 'cert', account);
    try {
      return await callApiRef(ctx, 'cert', api, session.token, session.conversationId);
    } finally {
      await sessionClose(ctx, session);
    }
  }
  const isRest = parseApiRef(api).kind === 'rest';
  const token = route === 'soap-token' ? await obtainSoapToken(ctx, 'cert', account)
    : isRest ? (await bearerToken(ctx, 'cert', account)).token
    : await obtainToken(ctx, 'cert', account);
  return callApiRef(ctx, 'cert', api, token);
}

type MainAnswer = { readonly ok: true; readonly control: Control } | { readonly ok: false; readonly refused: boolean; readonly why: string };

/**
 * The main account's call of `api`: served, it is the control that makes another account's refusal mean what it says
 * (the two requests differ in the account's token alone); else why there is none, and whether it was a refusal.
 */
async function mainAccountControl(ctx: CheckContext, api: ApiRef, declaredAs: string, route?: AccessRoute): Promise<MainAnswer> {
  const answer = await callAs(ctx, undefined, api, route);
  if (answer.answer.kind === 'success') return { ok: true, control: { factor: 'account', before: answer, again: () => callAs(ctx, undefined, api, route) } };
  return {
    ok: false,
    refused: answer.answer.kind === 'refused' || answer.answer.kind === 'forbidden',
    why: `${api}, declared as ${declaredAs}, answered ${describeAnswer(answer)} to the main account${route ? ` with ${ROUTE_NAMES[route]}` : ''}, so its answer to another account says nothing; check that declaration`,
  };
}

/**
 * Each of `apis` whose control holds (the main account may call it: {@link mainAccountControl}) is judged by
 * `judge`; one whose control fails says nothing about another account and is passed over (noted), so that one API the
 * main account may not call does not hide the others. None judged: the main account's refusals are ACCESS-01's
 * deviation (a declared token kind refused, or a declaration to check); other answers say nothing.
 */
async function forEachControlledApi(ctx: CheckContext, apis: readonly ApiRef[], declaredAs: string, judge: (api: ApiRef, route: AccessRoute, control: Control) => Promise<void>): Promise<void> {
  const passedOver: Extract<MainAnswer, { ok: false }>[] = [];
  /** Routes by which the main account or the other got no token: a token that cannot be had reaches no API that way. */
  const noToken: PrerequisiteFailed[] = [];
  let tried = 0;
  // Every route to every API: the same account reaching the API one way and not another is the deviation.
  for (const api of apis) {
    for (const route of accessRoutes(ctx, api)) {
      tried++;
      let main: MainAnswer;
      try {
        main = await mainAccountControl(ctx, api, declaredAs, route);
      } catch (err) {
        // No token of the main account by this route: the others may have one (a REST token refused, a TokenCreateRQ one not).
        if (!(err instanceof PrerequisiteFailed)) throw err;
        noToken.push(err);
        continue;
      }
      if (!main.ok) {
        passedOver.push(main);
        continue;
      }
      try {
        await judge(api, route, main.control);
      } catch (err) {
        if (!(err instanceof PrerequisiteFailed)) throw err;
        noToken.push(err);
      }
    }
  }
  // No route judged for want of the other account's tokens: the check's prerequisite is missing.
  if (noToken.length > 0 && noToken.length + passedOver.length === tried) throw noToken[0]!;
  if (noToken.length > 0) ctx.note(`no token by some routes (they reach no API that way): ${noToken.map((e) => e.reason).join('; ')}`);
  if (passedOver.length === 0) return;
  const whys = passedOver.map((p) => p.why).join('; ');
  if (passedOver.length < tried) return ctx.note(`passed over (the main account's call says nothing): ${whys}`);
  if (passedOver.every((p) => p.refused)) throw new PrerequisiteFailed(`every API ${declaredAs} refused the main account's token: ${whys}`, ['ACCESS-01']);
  throw new Inconclusive(whys);
}

ruleTest('ACCESS-01', 'each API accepts the token kinds it declares and refuses the others (a session-only API refuses sessionless tokens)', async (ctx) => {
  const declared = Object.entries(ctx.target.declared.tokenKinds);
  if (declared.length === 0) return ctx.notApplicable(`needs the token kinds of the target's APIs: ${DECLARE}`);
  if (!declared.some(([, kinds]) => !kinds.includes('sessionless'))) ctx.unchecked('ACCESS-01.sessionless-refused', 'no declared API is session-only ("tokenKinds" with ["session"])');
  for (const [api, kinds] of declared) {
    const answers = new Map<TokenSource, Answer>();
    for (const source of sourcesFor(ctx, api).filter((s) => !(s.refuseOnly && kinds.includes(s.kind)))) {
      try {
        answers.set(source, await callWith(ctx, api, source));
      } catch (err) {
        if (!(err instanceof NoToken)) throw err;
        ctx.unchecked('ACCESS-01.sessionless-refused', `${api} was not called with a sessionless token obtained through REST: ${err.message}`);
      }
    }
    const sources = [...answers.keys()];
    // The control of a kind the API must refuse: the same call with a token of a kind it declares, served.
    const served = sources.find((source) => kinds.includes(source.kind) && answers.get(source)!.answer.kind === 'success');
    const control: Control | undefined = served && { factor: 'token', before: answers.get(served)!, again: () => callWith(ctx, api, served) };
    for (const source of sources) {
      const what = `${api} (declared to accept ${kinds.join(' and ')} tokens) with a fresh ${source.kind} token from ${source.via}`;
      if (kinds.includes(source.kind)) {
        // A TokenCreateRQ token standing in for a REST token, refused: by its kind (this rule's) or by its origin
        // (XPROTO-02's)? With no REST token to compare, nothing tells them apart.
        const answer = answers.get(source)!;
        if (source.standIn && verdictOf(answer) === 'refused') {
          throw new PrerequisiteFailed(`${api} refused a TokenCreateRQ token standing in for a REST token (the account got none): whether for its kind or for its origin, no REST token tells`, ['XPROTO-02', 'CRED-03']);
        }
        await expectAccepted(answer, what, 'check the "tokenKinds" declaration of that API');
      }
      else await expectRefused(answers.get(source)!, what, 'check the "tokenKinds" declaration of that API', 'a refusal', control);
    }
  }
  // PROD's APIs refuse the kinds they do not declare too (a blind service's session-only API took sessionless tokens
  // in PROD alone): each session-only API there, against the same call with a PROD session, served. Opt-in on a live
  // target, whose PROD only opt-in rules use.
  if (ctx.target.environments.prod && ctx.target.accounts.prod && ctx.target.allowOptIn) await sessionOnlyRefused(ctx, 'prod', declared);
}, { clauses: ['ACCESS-01.sessionless-refused', 'ACCESS-01.declared-kinds-accepted'], where: 'any' });

/** ACCESS-01.sessionless-refused in `env`: every declared session-only API refuses sessionless tokens of `env`. */
async function sessionOnlyRefused(ctx: CheckContext, env: Environment, declared: readonly [string, readonly TokenKind[]][]): Promise<void> {
  for (const [api, kinds] of declared.filter(([, k]) => !k.includes('sessionless'))) {
    const sources = sourcesFor(ctx, api, env);
    const session = sources.find((s) => s.kind === 'session')!;
    let control: Control | undefined;
    try {
      const served = await callWith(ctx, api, session, env);
      if (served.answer.kind !== 'success') {
        ctx.note(`ACCESS-01 in ${env.toUpperCase()}: ${api} answered ${describeAnswer(served)} to a session token there, so its refusals say nothing; not judged there`);
        continue;
      }
      control = { factor: 'token', before: served, again: () => callWith(ctx, api, session, env) };
    } catch (err) {
      if (!(err instanceof PrerequisiteFailed)) throw err;
      ctx.note(`ACCESS-01 in ${env.toUpperCase()}: no session there (${err.reason})`);
      return;
    }
    for (const source of sources.filter((s) => s.kind === 'sessionless')) {
      let answer: Answer;
      try {
        answer = await callWith(ctx, api, source, env);
      } catch (err) {
        if (!(err instanceof PrerequisiteFailed) && !(err instanceof NoToken)) throw err;
        ctx.note(`ACCESS-01 in ${env.toUpperCase()}: ${api} not called with a sessionless token from ${source.via} (${err.message})`);
        continue;
      }
      await inClause('ACCESS-01.sessionless-refused', () => expectRefused(answer, `${api} in ${env.toUpperCase()} (declared to accept ${kinds.join(' and ')} tokens) with a fresh sessionless token from ${source.via}`, 'check the "tokenKinds" declaration of that API', 'a refusal', control));
    }
  }
}

ruleTest('ACCESS-02', 'agency-specific APIs refuse tokens obtained with another agency\'s PCC', async (ctx) => {
  const other = ctx.target.declared.otherAgency;
  if (!other) return ctx.notApplicable(`needs another agency's account and the agency-specific APIs: ${DECLARE} ("access.otherAgency")`);
  registerPassword(other.account.password);
  await forEachControlledApi(ctx, other.agencyApis, 'agency-specific', async (api, route, control) => {
    await expectRefused(await callAs(ctx, other.account, api, route), `${api} called with ${ROUTE_NAMES[route]} of another agency (PCC ${other.account.pcc})`, 'check "access.otherAgency" in the target config', 'a refusal', control);
  });
}, { clauses: ['ACCESS-02.other-agency-refused'] });

ruleTest('ACCESS-03', 'developer-portal test credentials reach only the public REST APIs of CERT', async (ctx) => {
  const portal = ctx.target.declared.portal;
  if (!portal) return ctx.notApplicable(`needs developer-portal credentials and which APIs are public: ${DECLARE} ("access.portal")`);
  registerPassword(portal.account.password);
  const token = await obtainToken(ctx, 'cert', portal.account);
  for (const api of portal.publicApis) {
    await inClause('ACCESS-03.public-reached', async () => {
      const answer = await callApiRef(ctx, 'cert', api, token);
      if (answer.answer.kind === 'refused' || answer.answer.kind === 'forbidden') {
        // By difference: the same API with the main account's token, right after. Refused too, the refusal is not the
        // developer-portal token's (a gateway that answered a refusal from a cache made this warn for a blind service).
        const main = await mainAccountControl(ctx, api, 'public');
        if (!main.ok) throw new Inconclusive(`the public API ${api} refused a developer-portal token, and ${main.why}`);
      }
      await expectAccepted(answer, `the public API ${api} with a developer-portal token`, 'check "access.portal.publicApis"');
    });
  }
  for (const api of portal.otherApis) {
    await inClause('ACCESS-03.only-public', async () => {
      const answer = await callApiRef(ctx, 'cert', api, token);
      if (answer.answer.kind === 'success') throw new CheckFailure(`${api}, not a public API, accepted a developer-portal token`, { expected: 'a refusal', actual: describeAnswer(answer) });
      // The control: the main account's token served by the same API (the two calls differ in the account alone).
      const control = answer.answer.kind === 'refused' ? undefined : await mainAccountControl(ctx, api, 'not public').then((m) => (m.ok ? m.control : undefined));
      await expectRefused(answer, `the non-public API ${api} with a developer-portal token`, 'check "access.portal.otherApis"', 'a refusal', control);
    });
  }
  // "… only reach the publicly available REST APIs of the test environment": PROD gives them no token, or its APIs
  // accept none it gives.
  if (!ctx.target.environments.prod) return ctx.unchecked('ACCESS-03.cert-only', 'the target config has no PROD environment to try the developer-portal credentials in');
  let res = await requestToken(ctx, 'prod', { account: portal.account });
  // The document's request refused: a refusal of the credentials, or of the form (a service that wants source_ip,
  // which the document makes optional)? The same request with source_ip tells them apart.
  if (res.status >= 400 && res.status < 500 && res.status !== 429) {
    const withSourceIp = await requestToken(ctx, 'prod', { account: portal.account, body: SOURCE_IP_FORM });
    if (withSourceIp.status < 400 || withSourceIp.status >= 500 || withSourceIp.status === 429) res = withSourceIp;
  }
  const prodToken = accessTokenOf(res);
  registerSecret(prodToken);
  if (prodToken === undefined) {
    // Only a refusal says PROD gave them nothing; a server error says nothing.
    if (res.status < 400 || res.status >= 500) ctx.unchecked('ACCESS-03.cert-only', `PROD answered the developer-portal credentials' token request ${describeTokenAnswer(res)}: neither a token nor a refusal`);
    return;
  }
  for (const api of [...portal.publicApis, ...portal.otherApis]) {
    const answer = await callApiRef(ctx, 'prod', api, prodToken);
    if (answer.answer.kind === 'success') {
      throw new CheckFailure(`the developer-portal credentials obtained a token in PROD, and ${api} there accepted it`, { expected: 'no token in PROD, or none a PROD API accepts', actual: describeAnswer(answer), clause: 'ACCESS-03.cert-only' });
    }
  }
}, { clauses: ['ACCESS-03.public-reached', 'ACCESS-03.only-public', 'ACCESS-03.cert-only'] });

ruleTest('ACCESS-04', 'an API that needs a contractual amendment refuses tokens of accounts without it', async (ctx) => {
  const without = ctx.target.declared.noAmendment;
  if (!without) return ctx.notApplicable(`needs an account without the amendment and the APIs that need it: ${DECLARE} ("access.noAmendment")`);
  registerPassword(without.account.password);
  await forEachControlledApi(ctx, without.amendmentApis, 'needing an amendment the main account has', async (api, route, control) => {
    await expectRefused(await callAs(ctx, without.account, api, route), `${api} called with ${ROUTE_NAMES[route]} of an account without the amendment`, 'check "access.noAmendment" in the target config', 'a refusal', control);
  });
}, { clauses: ['ACCESS-04.amendment-refused'], where: 'any' });

auditExchanges('access checks');
