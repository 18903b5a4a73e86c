import { accessTokenOf, describeTokenAnswer, requestToken } from '../../harness/checks/rest.ts';
import { PLAIN_FORM, restTokenAnswer, SOURCE_IP, SOURCE_IP_FORM } from '../../harness/checks/routes.ts';
import { inEveryEnvironment } from '../../harness/checks/environments.ts';
import { CheckFailure, Inconclusive, PrerequisiteFailed, registerPassword, registerSecret, ruleProperty, ruleTest, runConfig, show, type CheckContext } from '../../harness/checks/index.ts';
import { CORRELATION_HEADER } from '../../harness/checks/trace-config.ts';
import { classifyRest } from '../../harness/classify/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, ENVIRONMENTS, type Environment } from '../../harness/catalog/index.ts';
import type { Account, HttpResponse } from '../../harness/targets/index.ts';
import { accountArbitrary } from './support/arbitraries.ts';
import { auditExchanges } from './support/audits.ts';

/**
 * CRED-03 asks that correctly built credentials obtain a token: a refusal fails it; an answer that says nothing about
 * the credentials (rate limiting, a server error) is inconclusive. Where the document's request is refused but the
 * same with its optional source_ip is served, the credentials were accepted and the form refused (REST-02's to judge):
 * attribution by difference. The token's shape is REST-03's, its use API-01's.
 */
async function expectTokenFor(ctx: CheckContext, acct: Account, whose: string, env: Environment = 'cert'): Promise<void> {
  const res = await requestToken(ctx, env, { account: acct });
  registerSecret(accessTokenOf(res));
  if (res.status >= 200 && res.status < 300) return;
  const inconclusive = (r: HttpResponse) => {
    const answer = classifyRest(r.status);
    return answer.kind === 'rate-limited' || answer.kind === 'server-error' || answer.kind === 'not-found' || answer.kind === 'unexpected';
  };
  if (inconclusive(res)) {
    throw new Inconclusive(`the token request of ${whose} got ${describeTokenAnswer(res)}, which says nothing about the credentials; check the target's REST base URL and try again`);
  }
  const variant = await requestToken(ctx, env, { account: acct, body: SOURCE_IP_FORM });
  registerSecret(accessTokenOf(variant));
  if (variant.status >= 200 && variant.status < 300) {
    ctx.note(`the request of ${whose} without source_ip got ${describeTokenAnswer(res)}, the same with source_ip=${SOURCE_IP} a token: the credentials were accepted, the form refused (REST-02)`);
    return;
  }
  // The one factor the harness adds to every request: its correlation header. The same request without it, served,
  // says the target (or a gateway in front) refuses the header, not the credentials.
  const header = runConfig().trace?.header ?? CORRELATION_HEADER;
  if (header !== false && classifyRest(res.status).kind !== 'refused') {
    const bare = await requestToken(ctx, env, { account: acct, withoutCorrelationHeader: true });
    registerSecret(accessTokenOf(bare));
    if (bare.status >= 200 && bare.status < 300) {
      throw new Inconclusive(`the target refuses requests that carry the harness's correlation header ${header} (the token request of ${whose} got ${describeTokenAnswer(res)} with it, a token without it): run with --no-correlation-header (or "correlationHeader": false in the target config)`);
    }
  }
  throw new CheckFailure(`correctly built credentials of ${whose} obtained no token in ${env.toUpperCase()}`, {
    expected: '2xx with an access_token',
    actual: `${describeTokenAnswer(res)} (and with source_ip: ${describeTokenAnswer(variant)})`,
  });
}

ruleTest('CRED-03', 'the configured account obtains a token with correctly built credentials', async (ctx) => {
  const envs = ENVIRONMENTS.filter((env) => ctx.target.accounts[env] && ctx.target.environments[env]);
  if (envs.length === 0) return ctx.notApplicable('the target has no account configured');
  ctx.note('if an account in the target config is not right (EPR, PCC, password, REST domain), this fails too: check it first');
  for (const env of envs) await expectTokenFor(ctx, ctx.target.accounts[env]!, `the configured ${env.toUpperCase()} account`, env);
}, { clauses: ['CRED-03.configured-account'] });

ruleProperty(
  'CRED-03',
  'any account, with ":", "+", "/", "=", spaces or non-ASCII in user ID and password, obtains a token',
  accountArbitrary,
  async (ctx, generated) => {
    const control = ctx.target.control;
    if (!control) return ctx.notApplicable('generating accounts needs a target that can create them (the simulator)');
    registerPassword(generated.password);
    await control.addAccount('cert', generated);
    const acct: Account = { ...generated, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
    ctx.note(`account: epr ${show(generated.epr)}, pcc ${show(generated.pcc)}`);
    await expectTokenFor(ctx, acct, `the account ${show(generated.epr)}`);
  },
  {
    clauses: ['CRED-03.tricky-characters'],
    // Tried first whatever the seed: a ":" in the user ID (a service that splits the Client ID on every ":" refuses
    // it), and "+", "/", "=", a space and non-ASCII in the password.
    examples: [{ epr: 'AB:CD', pcc: 'X1Y2', password: 'p+/= é:1' }],
  },
);

ruleTest('CRED-05', 'credentials with the account\'s iPCC or organization as the Client ID\'s group obtain a token', async (ctx) => {
  const declaredIn = ENVIRONMENTS.filter((env) => (ctx.target.accounts[env]?.groupAlternatives ?? []).length > 0 && ctx.target.environments[env]);
  if (declaredIn.length === 0) {
    return ctx.notApplicable('the account\'s iPCC or organization is not declared: give it in the target config as accounts.cert.groupAlternatives (e.g. ["7TZA"])');
  }
  // In every environment that declares them ("Check a rule on every exchange where it applies": a blind service refused
  // them in PROD alone). The control: where the account obtains a token with its own group (by any form the document
  // allows), the same request with the group alone changed.
  await inEveryEnvironment(ctx, async (env) => {
    if (!declaredIn.includes(env)) throw new PrerequisiteFailed(`no groupAlternatives declared for the ${env.toUpperCase()} account`);
    const route = await restTokenAnswer(ctx, { env, needToken: false });
    const acct = route.account;
    for (const group of acct.groupAlternatives ?? []) {
      ctx.note(`group ${show(group)} instead of ${show(acct.pcc)}, in ${route.env.toUpperCase()}`);
      const res = await requestToken(ctx, route.env, { account: { ...acct, pcc: group }, ...(route.body !== PLAIN_FORM && { body: route.body }) });
      registerSecret(accessTokenOf(res));
      if (res.status >= 200 && res.status < 300) continue;
      if (classifyRest(res.status).kind === 'rate-limited' || res.status >= 500) throw new Inconclusive(`the token request with ${show(group)} as the group got ${describeTokenAnswer(res)}, which says nothing about the credentials`);
      throw new CheckFailure(`credentials with ${show(group)} as the Client ID's group obtained no token in ${route.env.toUpperCase()}, while the same request with ${show(acct.pcc)} did (${route.route})`, {
        expected: '2xx with an access_token',
        actual: describeTokenAnswer(res),
      });
    }
  });
}, { clauses: ['CRED-05.group-alternatives'] });

auditExchanges('credential checks');
