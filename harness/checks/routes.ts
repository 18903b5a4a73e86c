import { createHash } from 'node:crypto';
import { attribute, type Factor } from '../classify/index.ts';
import { knownRoute, learnRoute } from './registry.ts';
import { runConfig } from './target.ts';
import { ENVIRONMENTS, GRANT_TYPE, type Environment } from '../catalog/index.ts';
import { TransportError, type Account, type HttpResponse } from '../targets/index.ts';
import { accessTokenOf, describeTokenAnswer, requestToken } from './rest.ts';
import { PrerequisiteFailed } from './errors.ts';
import type { CheckContext } from './rule-test.ts';
import { inSomeEnvironment } from './environments.ts';
import { callRest } from './probe.ts';

export { inSomeEnvironment };
import { obtainSoapToken } from './soap.ts';

/**
 * Every route to a token before a check gives up. A check that needs *a* token asks for one here: every declared
 * environment with its account, and for each the document's request as it is and with its optional form field
 * (`source_ip`). A refusal of one route that a one-factor variant of it was served says which factor the service
 * refused (attribution by difference); none served gives a `skipped` whose reason lists every route tried and what
 * each answered.
 */

/** A documentation address (RFC 5737): the value of the optional `source_ip` form field the harness sends. */
export const SOURCE_IP = '192.0.2.10';

/** The document's token request body, and the same with its optional form field. */
export const PLAIN_FORM = `grant_type=${GRANT_TYPE}`;
export const SOURCE_IP_FORM = `grant_type=${GRANT_TYPE}&source_ip=${SOURCE_IP}`;

/** One route tried, and what it answered (no secret: the answer's status and error code only). */
export interface RouteTried {
  readonly route: string;
  readonly answer: string;
}

/** A route that got a successful token answer. */
export interface RestTokenAnswer {
  readonly env: Environment;
  readonly account: Account;
  /** The form that was served: the document's, or the same with `source_ip`. */
  readonly body: string;
  readonly response: HttpResponse;
  /** The access token, when the answer has one. */
  readonly token: string | undefined;
  /** `CERT, the configured account, grant_type only`: for messages. */
  readonly route: string;
  /** Every route tried before, and this one. */
  readonly tried: readonly RouteTried[];
  /**
   * The same request without `source_ip` was refused while this one was served: the service refused the form (what
   * REST-02 judges), not the credentials.
   */
  readonly formRefused?: { readonly factor: Factor; readonly because: string };
}

export interface RouteOptions {
  /** Only this environment (a check of that environment); default: every environment with an account, CERT first. */
  readonly env?: Environment;
  /** Only this account (in `env`); default: each environment's configured account. */
  readonly account?: Account;
  /** A 2xx answer without an access token is not enough (default true): the check uses the token. */
  readonly needToken?: boolean;
  /**
   * The check judges the token endpoint's answer, not what the token may call: after the environments' configured
   * accounts, the other accounts the target declares (a CERT-only one, another agency's, one without the amendment)
   * are routes too.
   */
  readonly anyAccount?: boolean;
}

const describeForm = (body: string) => (body === PLAIN_FORM ? 'grant_type only' : 'grant_type and source_ip');

/** The environments and accounts to try, in order. */
function candidates(ctx: CheckContext, options: RouteOptions): { env: Environment; account: Account; whose: string }[] {
  const envs = options.env ? [options.env] : ENVIRONMENTS.filter((e) => ctx.target.environments[e] && ctx.target.accounts[e]);
  const out: { env: Environment; account: Account; whose: string }[] = [];
  for (const env of envs) {
    const account = options.account ?? ctx.target.accounts[env];
    if (!ctx.target.environments[env] || !account) continue;
    out.push({ env, account, whose: options.account ? `the account ${options.account.epr}` : 'the configured account' });
  }
  if (options.anyAccount && !options.account && (!options.env || options.env === 'cert') && ctx.target.environments.cert) {
    const d = ctx.target.declared;
    const others: [Account | undefined, string][] = [[d.certOnly, 'the declared CERT-only account'], [d.otherAgency?.account, 'the declared other agency\'s account'], [d.noAmendment?.account, 'the declared account without the amendment']];
    for (const [account, whose] of others) if (account) out.push({ env: 'cert', account, whose });
  }
  if (out.length === 0) return ctx.notApplicable(options.env ? `the target has no ${options.env.toUpperCase()} environment and account configured` : 'the target has no environment with an account configured');
  return out;
}

const ok = (res: HttpResponse) => res.status >= 200 && res.status < 300;
/** 429 and 5xx say nothing about the request: a variant of it is not tried against them. */
const transient = (res: HttpResponse) => res.status === 429 || res.status >= 500;

/** A route's key in the run's knowledge: a hash of the target, environment, account and form (no account value). */
function routeKey(ctx: CheckContext, env: Environment, account: Account, body: string): string {
  const base = ctx.target.environments[env]?.restBaseUrl ?? '';
  return createHash('sha256').update(JSON.stringify([base, env, account.epr, account.pcc, account.restDomain, account.password, body])).digest('hex').slice(0, 32);
}

/**
 * The first route whose token request was served. Throws `PrerequisiteFailed` (after CRED-03, or REST-03 when 2xx
 * answers carried no token) listing every route tried, when none was; a transport failure on every route is
 * rethrown (an `error`: the target could not be reached).
 */
export async function restTokenAnswer(ctx: CheckContext, options: RouteOptions = {}): Promise<RestTokenAnswer> {
  const needToken = options.needToken ?? true;
  const tried: RouteTried[] = [];
  let transportError: unknown;
  let reachedAny = false;
  let tokenless = false;
  const run = runConfig();
  for (const { env, account, whose } of candidates(ctx, options)) {
    /** The document's request as this route answered it (its answer in words), when it was refused. */
    let plainRefused: string | undefined;
    for (const body of [PLAIN_FORM, SOURCE_IP_FORM]) {
      // The variant with source_ip is tried only where the document's request was refused for what it is.
      if (body === SOURCE_IP_FORM && plainRefused === undefined) break;
      const route = `${env.toUpperCase()}, ${whose}, ${describeForm(body)}`;
      // What the run already knows of this route is not asked again (a budget never decides a verdict).
      const key = routeKey(ctx, env, account, body);
      const known = await knownRoute(run, ctx.target, key);
      if (known) {
        reachedAny = true;
        tried.push({ route, answer: `${known.answer} (known from earlier in the run)` });
        if (known.kind === 'tokenless') tokenless = true;
        if (body === PLAIN_FORM && known.kind === 'refused') plainRefused = known.answer;
        continue;
      }
      let res: HttpResponse;
      try {
        res = await requestToken(ctx, env, { account, ...(body !== PLAIN_FORM && { body }) });
      } catch (err) {
        // A throttle that never let up says nothing about this route, and would say the same of every other one.
        if (!(err instanceof TransportError) || err.code === 'RATE_LIMITED') throw err;
        transportError ??= err;
        tried.push({ route, answer: `no answer (${err.code})` });
        break;
      }
      reachedAny = true;
      tried.push({ route, answer: describeTokenAnswer(res) });
      if (body === PLAIN_FORM && !ok(res) && !transient(res)) plainRefused = describeTokenAnswer(res);
      const token = accessTokenOf(res);
      // A refusal (a 4xx) or a success without a token is what this route does: the whole run knows it from now on.
      if (!ok(res) && res.status >= 400 && res.status < 500) await learnRoute(run, ctx.target, key, { kind: 'refused', answer: describeTokenAnswer(res) });
      if (ok(res) && token === undefined) await learnRoute(run, ctx.target, key, { kind: 'tokenless', answer: describeTokenAnswer(res) });
      if (ok(res) && (token !== undefined || !needToken)) {
        const found: RestTokenAnswer = { env, account, body, response: res, token, route, tried };
        if (tried.length > 1) ctx.note(`a token from ${route} (routes tried: ${tried.map((t) => `${t.route}: ${t.answer}`).join('; ')})`);
        if (body === PLAIN_FORM || plainRefused === undefined) return found;
        const verdict = attribute(
          { outcome: 'other', line: `POST ${env.toUpperCase()} /v2/auth/token with ${describeForm(PLAIN_FORM)} → ${plainRefused}` },
          'form',
          [{ outcome: 'served', line: `the same with source_ip=${SOURCE_IP} → ${res.status}` }],
        );
        if (verdict.kind !== 'refused' || verdict.by !== 'difference') return found;
        ctx.note(`the form was refused, not the credentials: ${verdict.because} (REST-02 judges it)`);
        return { ...found, formRefused: { factor: 'form', because: verdict.because } };
      }
      if (ok(res)) tokenless = true;
    }
  }
  if (!reachedAny && transportError) throw transportError;
  const list = tried.map((t) => `${t.route}: ${t.answer}`).join('; ');
  if (tokenless) throw new PrerequisiteFailed(`no token request was answered with an access_token (routes tried: ${list})`, ['REST-03']);
  throw new PrerequisiteFailed(`no route obtained a REST token (routes tried: ${list})`, ['CRED-03']);
}

/** A REST access token from the first route that gives one (see {@link restTokenAnswer}), with where it came from. */
export async function restTokenRoute(ctx: CheckContext, options: Omit<RouteOptions, 'needToken'> = {}): Promise<RestTokenAnswer & { readonly token: string }> {
  const found = await restTokenAnswer(ctx, options);
  return found as RestTokenAnswer & { readonly token: string };
}

/**
 * A token for later checks of `env` (with `acct`, else the environment's configured account): the document's request,
 * or the same with `source_ip` where that alone was served. None makes the calling check `skipped` naming the routes
 * tried: the credentials are CRED-03's to judge, the answer's shape REST-03's.
 */
export async function obtainToken(ctx: CheckContext, env: Environment, acct?: Account): Promise<string> {
  return (await restTokenRoute(ctx, { env, ...(acct && { account: acct }) })).token;
}

/**
 * A sessionless token to send as a REST bearer token in `env`: a REST token by any form the document allows, else a
 * TokenCreateRQ token of the same account (the document: "A sessionless token obtained through REST can also be used
 * to call SOAP APIs, and the reverse"), noted as such. None by either route: `skipped`, naming both.
 */
export async function bearerToken(ctx: CheckContext, env: Environment, acct?: Account): Promise<{ token: string; via: 'rest' | 'soap' }> {
  try {
    return { token: await obtainToken(ctx, env, acct), via: 'rest' };
  } catch (err) {
    if (!(err instanceof PrerequisiteFailed)) throw err;
    let token: string;
    try {
      token = await obtainSoapToken(ctx, env, acct);
    } catch (soapErr) {
      if (!(soapErr instanceof PrerequisiteFailed)) throw soapErr;
      throw new PrerequisiteFailed(`no sessionless token in ${env.toUpperCase()} by any route: ${err.reason}; TokenCreateRQ: ${soapErr.reason}`, [...new Set([...err.after, ...soapErr.after])]);
    }
    // The stand-in has a control of its own: the REST probe serves a token of its kind (another one, so that the
    // stand-in reaches the check unused). Refused there, it is XPROTO-02's to judge, and no answer to the stand-in
    // would say anything about the check's own rule.
    const { answer, line } = await callRest(ctx, env, `Bearer ${await obtainSoapToken(ctx, env, acct)}`);
    if (answer.kind !== 'success') {
      throw new PrerequisiteFailed(`no REST token in ${env.toUpperCase()} (${err.reason}), and the TokenCreateRQ token that would stand in was not served by the REST probe (${line})`, [...new Set([...err.after, 'XPROTO-02' as const])]);
    }
    ctx.note(`no REST token in ${env.toUpperCase()} (${err.reason}): a TokenCreateRQ token of the same account stands in as the bearer token (the REST probe serves it)`);
    return { token, via: 'soap' };
  }
}
