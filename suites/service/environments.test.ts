import { accepted, callApi, isRecord, jsonBody, obtainToken, requestToken } from '../../harness/checks/rest.ts';
import {
  businessCall, expectThat, isFault, obtainSoapToken, openSession, ping, responseToken, ruleTest, sessionClose, sessionCreate, tokenCreate,
  type CheckContext,
} from '../../harness/checks/index.ts';
import { bargainFinderMaxRQBody } from '../../harness/soap/index.ts';
import { otherEnvironment, restEndpoints, type Environment } from '../../harness/spec/index.ts';
import type { Account } from '../../harness/targets/index.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;

function needBoth(ctx: CheckContext): void {
  if (!ctx.target.environments.cert || !ctx.target.environments.prod || !ctx.target.accounts.cert || !ctx.target.accounts.prod) {
    ctx.notApplicable('needs both environments and an account for each in the target config');
  }
}

ruleTest('ENV-01', 'a token obtained in one environment is refused by the other, as a REST bearer and as a SOAP BinarySecurityToken', async (ctx) => {
  needBoth(ctx);
  for (const from of ['cert', 'prod'] as const) {
    const to: Environment = otherEnvironment(from);
    const rest = await obtainToken(ctx, from);
    const api = await callApi(ctx, to, themes, rest);
    expectThat(!accepted(api), `a REST token from ${from.toUpperCase()} was accepted by a ${to.toUpperCase()} API`, { expected: 'a refusal', actual: api.status });
    const soapToken = await obtainSoapToken(ctx, from);
    const soap = await businessCall(ctx, to, 'BargainFinderMaxRQ', bargainFinderMaxRQBody(), soapToken);
    expectThat(isFault(soap), `a SOAP token from ${from.toUpperCase()} was accepted by ${to.toUpperCase()} SOAP`, { expected: 'a SOAP fault', actual: soap.envelope?.action });
    const session = await openSession(ctx, from);
    try {
      const x = await ping(ctx, to, session.token, session.conversationId);
      expectThat(isFault(x), `a session token from ${from.toUpperCase()} was accepted by ${to.toUpperCase()} SOAP`, { expected: 'a SOAP fault', actual: x.envelope?.action });
    } finally {
      await sessionClose(ctx, session);
    }
  }
});

/** An account that exists in `in` only: on the simulator a CERT-only account; live, each environment's own account. */
function singleEnvironmentAccount(ctx: CheckContext, env: Environment): Account {
  if (ctx.target.control && env === 'cert') return ctx.target.control.extraAccounts.certOnly;
  return ctx.target.accounts[env]!;
}

ruleTest('ENV-03', 'credentials valid in only one environment obtain no token in the other', async (ctx) => {
  needBoth(ctx);
  for (const env of ['cert', 'prod'] as const) {
    const account = singleEnvironmentAccount(ctx, env);
    const other = otherEnvironment(env);
    const own = await requestToken(ctx, env, { account });
    expectThat(own.status === 200, `the ${env.toUpperCase()} account obtains no token in its own environment`, { expected: 200, actual: own.status });
    const rest = await requestToken(ctx, other, { account });
    const body = jsonBody(rest);
    expectThat(!(rest.status === 200 && isRecord(body) && typeof body.access_token === 'string'), `${env.toUpperCase()} credentials obtained a REST token in ${other.toUpperCase()}`, { expected: 'invalid_client', actual: rest.status });
    const soap = await tokenCreate(ctx, other, account);
    expectThat(isFault(soap) && !responseToken(soap), `${env.toUpperCase()} credentials obtained a SOAP token in ${other.toUpperCase()}`, { expected: 'a SOAP fault', actual: soap.envelope?.action });
    const session = await sessionCreate(ctx, other, account);
    if (session.session) await sessionClose(ctx, session.session);
    expectThat(!session.session, `${env.toUpperCase()} credentials opened a session in ${other.toUpperCase()}`, { expected: 'a SOAP fault', actual: session.envelope?.action });
  }
});
