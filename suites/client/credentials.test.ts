import fc from 'fast-check';
import { clientProperty, clientTest, ConfigurationRefused, op, type ClientContext } from '../../harness/checks/client.ts';
import { CheckFailure, failOn, PrerequisiteFailed, registerPassword } from '../../harness/checks/index.ts';
import { actualShape, clientIdShape, expectedShape, type ShapeAccount } from '../../harness/clients/credential-shape.ts';
import { decodeAuthorization } from '../../harness/credentials/index.ts';
import { cred01Problems, cred04Problem, readCred02 } from '../../harness/judges/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, limits, restEndpoints, type Environment } from '../../harness/catalog/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { tokenRequests } from './support/events.ts';
import { stringArbitrary, stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
const tricky = fc.constantFrom(':', '+', '/', '=', ' ', 'é', 'ß', '中', '🙂', 'a:b');
const text = fc.tuple(stringArbitrary({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }), tricky, stringArbitrary({ unit: 'grapheme', maxLength: 6 })).map(([a, t, b]) => `${a}${t}${b}`);
/** No space at either end: the document says nothing of such user IDs and passwords, so a client may trim them. */
const untrimmed = (s: string) => s.trim() === s;
const account = fc.record({
  epr: fc.oneof(text, stringMatchingArbitrary(/^[A-Z0-9]{3,8}$/)).filter(untrimmed),
  pcc: stringMatchingArbitrary(/^[A-Z0-9]{3,5}$/),
  password: fc.oneof(text, stringArbitrary({ unit: 'grapheme', minLength: 1, maxLength: 16 })).filter(untrimmed),
});

/**
 * Accounts every run tries first, whatever the seed, so that a deterministic client gets the same verdict with every
 * seed: a plain one, and one with what trips encoders (":" in the user ID; ":", "+", "/", "=", a space and non-ASCII
 * characters in the password).
 */
const EXAMPLES = [
  { epr: 'PLAIN7', pcc: 'PL4N', password: 'plain-Passw0rd' },
  { epr: 'us:er', pcc: 'TR1C', password: 'pä:ss wörd+/=€' },
];

const shapeOf = (acct: Account, omitDomain = false): ShapeAccount => ({ epr: acct.epr, pcc: acct.pcc, password: acct.password, domain: omitDomain ? DEFAULT_REST_DOMAIN : acct.restDomain });

/**
 * The Authorization header of the client's token request for a REST call. A client that refuses the account at
 * configuration fails the credential rule being checked: the account is one the interface document allows.
 */
async function tokenRequestHeader(ctx: ClientContext, acct: Account, omitDomains = false, env: Environment = 'cert'): Promise<string | undefined> {
  await ctx.sim.addAccount(env, acct);
  registerPassword(acct.password);
  try {
    await ctx.configure({ accounts: { [env]: acct }, omitDomains, environments: [env] });
  } catch (err) {
    if (!(err instanceof ConfigurationRefused)) throw err;
    throw new CheckFailure(`the client refused a valid account at configuration (error kind "${err.kind}"): ${err.clientMessage}`, {
      code: 'CONFIGURATION_REFUSED',
      expected: `a token request with ${expectedShape(shapeOf(acct, omitDomains))}`,
      actual: 'no token request: the client refused the account',
    });
  }
  await op('rest.call', () => ctx.client.restCall({ environment: env, method: 'GET', path: themes.path })).catch((err: unknown) => {
    if (err instanceof PrerequisiteFailed) throw err;
  });
  const request = tokenRequests(await ctx.events()).filter((e) => e.env === env)[0];
  if (!request) throw new PrerequisiteFailed('the client sent no token request for a REST call', ['REST-01']);
  return request.headers.authorization;
}

const asAccount = (a: { epr: string; pcc: string; password: string }): Account => ({ ...a, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN });

clientProperty(
  'CRED-02',
  'the client sends Authorization: Basic base64(base64(ClientID):base64(password)), for any account',
  account,
  async (ctx, generated) => {
    const acct = asAccount(generated);
    const header = await tokenRequestHeader(ctx, acct);
    const shapes = { expected: expectedShape(shapeOf(acct)), actual: actualShape(header, shapeOf(acct)) };
    // The judge observe uses too (harness/judges): the scheme, then both base64 layers, and the secret (known here).
    const reading = readCred02(header, generated.password);
    if (!reading.ok) throw new CheckFailure(reading.problem.clause === 'CRED-02.basic-scheme' ? reading.problem.message : `${reading.problem.message}: ${reading.problem.actual}`, shapes);
  },
  { numRuns: 10, examples: EXAMPLES, clauses: ["CRED-02.inner-layer", "CRED-02.outer-layer", "CRED-02.basic-scheme"] },
);

clientTest('CRED-02', 'configured for CERT and PROD, the client sends each environment\'s token requests with that environment\'s own password', async (ctx) => {
  await ctx.configure();
  const envs = (['cert', 'prod'] as const).filter((env) => ctx.target.accounts[env] && ctx.target.environments[env]);
  if (envs.length < 2) return ctx.notApplicable('needs CERT and PROD, each with an account');
  // A call refused for the credentials is the evidence itself: the requests are judged whatever came back.
  for (const env of envs) await op('rest.call', () => ctx.client.restCall({ environment: env, method: 'GET', path: themes.path })).catch(() => undefined);
  const requests = tokenRequests(await ctx.events());
  for (const env of envs) {
    const mine = requests.filter((e) => e.env === env);
    if (mine.length === 0) throw new PrerequisiteFailed(`the client sent no token request to ${env.toUpperCase()} for a REST call there`, ['REST-01']);
    // "A token must be requested from the environment it is used in": with that environment's credentials.
    for (const request of mine) {
      const reading = readCred02(request.headers.authorization, ctx.target.accounts[env]!.password);
      if (!reading.ok) throw new CheckFailure(`${env.toUpperCase()}'s token request: ${reading.problem.message}`, { expected: `${env.toUpperCase()}'s account (${reading.problem.expected})`, actual: reading.problem.actual });
    }
  }
}, { clauses: ["CRED-02.inner-layer"] });

clientProperty(
  'CRED-01',
  'the Client ID is V1:<userid>:<group>:<domain>, for any account',
  account,
  async (ctx, generated) => {
    const acct = asAccount(generated);
    const header = await tokenRequestHeader(ctx, acct);
    const layers = readCred02(header);
    // Judged wherever the Client ID half decodes, even when the secret half does not (that is CRED-02's).
    if (layers.clientId === undefined) throw new PrerequisiteFailed(`the credentials cannot be decoded (${actualShape(header, shapeOf(acct))})`, ['CRED-02']);
    // The judge observe uses too (harness/judges), the account's values masked in what it shows.
    failOn(cred01Problems(layers.clientId, acct, (text) => clientIdShape(text, shapeOf(acct)))[0]);
  },
  { numRuns: 10, examples: EXAMPLES, clauses: ["CRED-01.v1-literal", "CRED-01.fields"] },
);

/**
 * Every token request the configured client sends, refreshes included: a call in each environment, the token's
 * lifetime passed, and a call again (a blind client built its refreshes' Client ID without the domain, and only
 * first requests were judged). Judged whatever came back: a refresh refused for its credentials is the evidence.
 */
async function allTokenRequests(ctx: ClientContext): Promise<{ env: Environment; authorization: string | undefined; what: string }[]> {
  await ctx.configure();
  const envs = (['cert', 'prod'] as const).filter((env) => ctx.target.accounts[env] && ctx.target.environments[env]);
  const call = (env: Environment) => op('rest.call', () => ctx.client.restCall({ environment: env, method: 'GET', path: themes.path })).catch(() => undefined);
  for (const env of envs) await call(env);
  await ctx.sim.advanceClock(limits.accessTokenLifetimeSeconds + 60);
  for (const env of envs) await call(env);
  const requests = tokenRequests(await ctx.events());
  if (requests.length === 0) throw new PrerequisiteFailed('the client sent no token request for a REST call', ['REST-01']);
  return requests.map((e, i) => ({ env: e.env, authorization: e.headers.authorization, what: `token request ${i + 1} of ${requests.length} (${e.env.toUpperCase()}${i > 0 ? ', after the first' : ''})` }));
}

clientTest('CRED-01', 'every token request, refreshes included, has the Client ID V1:<userid>:<group>:<domain>', async (ctx) => {
  for (const r of await allTokenRequests(ctx)) {
    const acct = ctx.target.accounts[r.env]!;
    const layers = readCred02(r.authorization);
    if (layers.clientId === undefined) throw new PrerequisiteFailed(`${r.what}: the credentials cannot be decoded (${actualShape(r.authorization, shapeOf(acct))})`, ['CRED-02']);
    const problem = cred01Problems(layers.clientId, acct, (text) => clientIdShape(text, shapeOf(acct)))[0];
    if (problem) failOn({ ...problem, message: `${r.what}: ${problem.message}` });
  }
}, { clauses: ['CRED-01.v1-literal', 'CRED-01.fields'], needs: 'token' });

clientTest('CRED-02', 'every token request, refreshes included, has Authorization: Basic base64(base64(ClientID):base64(password))', async (ctx) => {
  for (const r of await allTokenRequests(ctx)) {
    const acct = ctx.target.accounts[r.env]!;
    const reading = readCred02(r.authorization, acct.password);
    if (!reading.ok) throw new CheckFailure(`${r.what}: ${reading.problem.clause === 'CRED-02.basic-scheme' ? reading.problem.message : `${reading.problem.message}: ${reading.problem.actual}`}`, { expected: expectedShape(shapeOf(acct)), actual: actualShape(r.authorization, shapeOf(acct)) });
  }
}, { clauses: ['CRED-02.inner-layer', 'CRED-02.outer-layer', 'CRED-02.basic-scheme'], needs: 'token' });

/** CRED-04 in `env` (in each environment: a blind client used another default in PROD alone). */
async function defaultDomainIn(ctx: ClientContext, env: Environment): Promise<void> {
  const acct = asAccount({ epr: `NODOMAIN${env === 'cert' ? 1 : 2}`, pcc: 'ND01', password: `no-domain-secret-${env}` });
  const header = await tokenRequestHeader(ctx, acct, true, env);
  const decoded = decodeAuthorization(header);
  if (!decoded.ok) throw new PrerequisiteFailed(`the credentials cannot be decoded (${actualShape(header, shapeOf(acct, true))})`, ['CRED-02', 'CRED-01']);
  // The judge observe uses too (harness/judges), the account's values masked in what it shows.
  failOn(cred04Problem(decoded.clientId, (text) => clientIdShape(text, shapeOf(acct, true))));
}

clientTest('CRED-04', 'with no domain configured, the client uses the default domain AA', (ctx) => defaultDomainIn(ctx, 'cert'), { clauses: ["CRED-04.default-domain"] });

clientTest('CRED-04', 'in PROD too: with no domain configured, the client uses the default domain AA', (ctx) => defaultDomainIn(ctx, 'prod'), { clauses: ["CRED-04.default-domain"] });
