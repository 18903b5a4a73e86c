import { accepted, callApi, jsonBody, isRecord, requestToken } from '../../harness/checks/rest.ts';
import { expectThat, registerSecret, ruleProperty, ruleTest, show, type CheckContext } from '../../harness/checks/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, restEndpoints } from '../../harness/spec/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { accountArbitrary } from './support/arbitraries.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;

async function expectTokenFor(ctx: CheckContext, acct: Account): Promise<void> {
  const res = await requestToken(ctx, 'cert', { account: acct });
  const body = jsonBody(res);
  const token = isRecord(body) ? body.access_token : undefined;
  expectThat(res.status === 200 && typeof token === 'string' && token.length > 0, 'a correctly built credential string obtained no token', {
    expected: '200 with an access_token',
    actual: `${res.status} ${res.body.slice(0, 200)}`,
  });
  registerSecret(token);
  const api = await callApi(ctx, 'cert', themes, token);
  expectThat(accepted(api), 'the token obtained with the credentials is refused by an API', { expected: '2xx', actual: api.status });
}

ruleTest('CRED-03', 'the configured account obtains a token with correctly built credentials', async (ctx) => {
  const acct = ctx.target.accounts.cert;
  if (!acct) return ctx.notApplicable('the target has no CERT account configured');
  await expectTokenFor(ctx, acct);
});

ruleProperty(
  'CRED-03',
  'any account, with ":", "+", "/", "=", spaces or non-ASCII in user ID and password, obtains a token',
  accountArbitrary,
  async (ctx, generated) => {
    const control = ctx.target.control;
    if (!control) return ctx.notApplicable('generating accounts needs a target that can create them (the simulator)');
    registerSecret(generated.password);
    await control.addAccount('cert', generated);
    const acct: Account = { ...generated, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
    ctx.note(`account: epr ${show(generated.epr)}, pcc ${show(generated.pcc)}`);
    await expectTokenFor(ctx, acct);
  },
);
