import { accessTokenOf, describeTokenAnswer, obtainToken, requestToken } from '../../harness/checks/rest.ts';
import { callRest, callSessionProbe, callSoap, describeAnswer, expectRefused, PROBE_HINTS, rest, soap, soapAnswerOf } from '../../harness/checks/probe.ts';
import {
  CheckFailure, Inconclusive, obtainSoapToken, openSession, PrerequisiteFailed, registerSecret, responseToken, ruleTest, sessionClose, sessionCreate,
  tokenCreate, type CheckContext,
} from '../../harness/checks/index.ts';
import { otherEnvironment, type Environment } from '../../harness/spec/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { auditExchanges } from './support/audits.ts';

function needBoth(ctx: CheckContext): void {
  if (!ctx.target.environments.cert || !ctx.target.environments.prod || !ctx.target.accounts.cert || !ctx.target.accounts.prod) {
    ctx.notApplicable('needs both environments and an account for each in the target config');
  }
}

const up = (env: Environment) => env.toUpperCase();

ruleTest('ENV-01', 'a token obtained in one environment is refused by the other, as a REST bearer and as a SOAP BinarySecurityToken', async (ctx) => {
  needBoth(ctx);
  for (const from of ['cert', 'prod'] as const) {
    const to: Environment = otherEnvironment(from);
    // A refusal passes and an acceptance fails whatever else is true; only an answer that is neither is inconclusive.
    const restToken = await obtainToken(ctx, from);
    expectRefused(rest((await callRest(ctx, to, `Bearer ${restToken}`)).answer), `a REST token from ${up(from)} as a bearer token in ${up(to)}`, PROBE_HINTS.rest);
    const soapToken = await obtainSoapToken(ctx, from);
    const sessionless = await callSoap(ctx, to, soapToken);
    expectRefused(soap(sessionless.answer), `a TokenCreateRQ token from ${up(from)} in ${up(to)}'s ${sessionless.request.action}`, PROBE_HINTS.soapSessionless);
    const session = await openSession(ctx, from);
    try {
      const x = await callSessionProbe(ctx, to, session.token);
      expectRefused(soap(x.answer), `a session token from ${up(from)} in ${up(to)}'s ${x.request.action}`, PROBE_HINTS.soapSession);
    } finally {
      await sessionClose(ctx, session);
    }
  }
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
    registerSecret(account.password);
    const other = otherEnvironment(env);
    const own = await requestToken(ctx, env, { account });
    if (!accessTokenOf(own)) throw new PrerequisiteFailed(`the ${up(env)}-only account obtains no token in ${up(env)} (${describeTokenAnswer(own)})`, ['CRED-03']);
    const res = await requestToken(ctx, other, { account });
    const token = accessTokenOf(res);
    registerSecret(token);
    if (token) throw new CheckFailure(`${up(env)}-only credentials obtained a REST token in ${up(other)}`, { expected: 'no token (invalid_client)', actual: describeTokenAnswer(res) });
    const x = await tokenCreate(ctx, other, account);
    const answer = soapAnswerOf(ctx, x);
    if (answer.kind === 'success' && responseToken(x)) throw new CheckFailure(`${up(env)}-only credentials obtained a SOAP token in ${up(other)}`, { expected: 'a SOAP fault, no token', actual: describeAnswer(soap(answer)) });
    if (answer.kind === 'busy') throw new Inconclusive(`TokenCreateRQ in ${up(other)} got ${describeAnswer(soap(answer))}`);
    const session = await sessionCreate(ctx, other, account);
    if (session.session) {
      await sessionClose(ctx, session.session);
      throw new CheckFailure(`${up(env)}-only credentials opened a session in ${up(other)}`, { expected: 'a SOAP fault, no session', actual: 'SessionCreateRS with a session token' });
    }
  }
}, { clauses: ['ENV-03.rest', 'ENV-03.soap'] });

auditExchanges('environment checks');
