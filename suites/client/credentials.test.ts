import fc from 'fast-check';
import { clientProperty, clientTest, op, type ClientContext } from '../../harness/checks/client.ts';
import { expectEqual, expectThat, PrerequisiteFailed, registerSecret } from '../../harness/checks/index.ts';
import { decodeAuthorization, decodeCredentials } from '../../harness/credentials/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, restEndpoints } from '../../harness/spec/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { tokenRequests } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
const tricky = fc.constantFrom(':', '+', '/', '=', ' ', 'é', 'ß', '中', '🙂', 'a:b');
const text = fc.tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }), tricky, fc.string({ unit: 'grapheme', maxLength: 6 })).map(([a, t, b]) => `${a}${t}${b}`);
const account = fc.record({
  epr: fc.oneof(text, fc.stringMatching(/^[A-Z0-9]{3,8}$/)),
  pcc: fc.stringMatching(/^[A-Z0-9]{3,5}$/),
  password: fc.oneof(text, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 })),
});

/** The Authorization header of the client's token request for a REST call. */
async function tokenRequestHeader(ctx: ClientContext, acct: Account, omitDomains = false): Promise<string | undefined> {
  await ctx.sim.addAccount('cert', acct);
  registerSecret(acct.password);
  await ctx.configure({ accounts: { cert: acct }, omitDomains, environments: ['cert'] });
  await op('rest.call', () => ctx.client.restCall({ environment: 'cert', method: 'GET', path: themes.path })).catch(() => undefined);
  const request = tokenRequests(await ctx.events())[0];
  if (!request) throw new PrerequisiteFailed('the client sent no token request for a REST call (see REST-01)');
  return request.headers.authorization;
}

const asAccount = (a: { epr: string; pcc: string; password: string }): Account => ({ ...a, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN });

clientProperty(
  'CRED-02',
  'the client sends Authorization: Basic base64(base64(ClientID):base64(password)), for any account',
  account,
  async (ctx, generated) => {
    const header = await tokenRequestHeader(ctx, asAccount(generated));
    const match = /^Basic (\S+)$/.exec(header ?? '');
    expectThat(match !== null, 'the token request does not carry "Authorization: Basic <ENCODED_CREDENTIALS>"', { expected: 'Basic <ENCODED_CREDENTIALS>', actual: header?.replace(/\s.*$/, ' …') ?? '(no header)' });
    const layers = decodeCredentials(match![1]!);
    expectThat(layers.ok, 'the credentials are not base64( base64(ClientID) ":" base64(password) )', { expected: 'two layers of base64 (UTF-8)', actual: layers.ok ? '' : layers.reason });
    if (layers.ok) expectThat(layers.password === generated.password, 'the decoded client secret is not the password', { expected: 'the account password', actual: 'another value' });
  },
  { numRuns: 10, clauses: ["CRED-02.inner-layer", "CRED-02.outer-layer", "CRED-02.basic-scheme"] },
);

clientProperty(
  'CRED-01',
  'the Client ID is V1:<userid>:<group>:<domain>, for any account',
  account,
  async (ctx, generated) => {
    const header = await tokenRequestHeader(ctx, asAccount(generated));
    const decoded = /^Basic (\S+)$/.exec(header ?? '')?.[1];
    const layers = decoded ? decodeCredentials(decoded) : undefined;
    if (!layers?.ok) throw new PrerequisiteFailed('the credentials cannot be decoded (see CRED-02)');
    expectEqual('Client ID', layers.clientId, `V1:${generated.epr}:${generated.pcc}:${DEFAULT_REST_DOMAIN}`);
  },
  { numRuns: 10, clauses: ["CRED-01.v1-literal", "CRED-01.fields"] },
);

clientTest('CRED-04', 'with no domain configured, the client uses the default domain AA', async (ctx) => {
  const acct = asAccount({ epr: 'NODOMAIN1', pcc: 'ND01', password: 'no-domain-secret' });
  const header = await tokenRequestHeader(ctx, acct, true);
  const decoded = decodeAuthorization(header);
  if (!decoded.ok) throw new PrerequisiteFailed('the credentials cannot be decoded (see CRED-01, CRED-02)');
  expectEqual('domain of the Client ID when none is configured', decoded.parts.domain, DEFAULT_REST_DOMAIN);
}, { clauses: ["CRED-04.default-domain"] });
