import fc from 'fast-check';
import { accessTokenOf, describeTokenAnswer, requestToken } from '../../harness/checks/rest.ts';
import { inSomeEnvironment, obtainToken, PLAIN_FORM, restTokenRoute } from '../../harness/checks/routes.ts';
import { inEveryEnvironment } from '../../harness/checks/environments.ts';
import { callRest, callSoap, describeAnswer, expectAccepted, expectRefused, PROBE_HINTS, rest, restAnswer, soap, soapAnswer, soapProbe, verdictOf, type Answer } from '../../harness/checks/probe.ts';
import { CheckFailure, obtainSoapToken, PrerequisiteFailed, registerPassword, registerSecret, ruleProperty, ruleTest, type CheckContext } from '../../harness/checks/index.ts';
import { acceptedRestToken, acceptedSoapToken } from './support/fresh-tokens.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, limits, type Environment } from '../../harness/catalog/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { auditExchanges } from './support/audits.ts';

const LIFETIME = limits.accessTokenLifetimeSeconds;

/** A fresh token the REST probe accepts: refused at once is API-01's (or LIFE-02's: an expired token handed out again). */
const freshRestToken = (ctx: CheckContext) => acceptedRestToken(ctx, { refusedBy: ['API-01', 'LIFE-02'] });

ruleProperty(
  'LIFE-01',
  'a sessionless token from POST /v2/auth/token is valid until expires_in seconds after it was issued and refused afterwards',
  // At exactly expires_in either answer conforms (the document does not say which side of the second expiry falls).
  fc.record({ before: fc.integer({ min: 1, max: LIFETIME - 1 }), after: fc.integer({ min: 1, max: LIFETIME }) }),
  async (ctx, { before, after }) => {
    const control = ctx.target.control!;
    // Two tokens of one moment: the first shows the probe takes a fresh token, the second is first used later, so
    // that a token refused once it was used (API-01's to judge) cannot pass for one that expired early.
    const { env } = await freshRestToken(ctx);
    const token = await obtainToken(ctx, env);
    await control.advanceClock(before);
    const early = await callRest(ctx, env, `Bearer ${token}`);
    await expectAccepted(rest(early.answer), `the token, ${before} s after it was issued (before expires_in, ${LIFETIME} s)`, PROBE_HINTS.rest);
    await control.advanceClock(LIFETIME - before + after);
    const late = await callRest(ctx, env, `Bearer ${token}`);
    await expectRefused(rest(late.answer), `the token, ${LIFETIME + after} s after it was issued (past expires_in, ${LIFETIME} s)`, PROBE_HINTS.rest);
  },
  { numRuns: 10, clauses: ['LIFE-01.valid-until-expiry', 'LIFE-01.refused-after-expiry'] },
);

ruleTest('LIFE-01', 'a token is accepted one second before expires_in and refused one second after', async (ctx) => {
  const control = ctx.target.control!;
  const { env } = await freshRestToken(ctx);
  const token = await obtainToken(ctx, env);
  await control.advanceClock(LIFETIME - 1);
  await expectAccepted(rest((await callRest(ctx, env, `Bearer ${token}`)).answer), `the token, ${LIFETIME - 1} s after it was issued`, PROBE_HINTS.rest);
  await control.advanceClock(2);
  await expectRefused(rest((await callRest(ctx, env, `Bearer ${token}`)).answer), `the token, ${LIFETIME + 1} s after it was issued`, PROBE_HINTS.rest);
}, { clauses: ['LIFE-01.valid-until-expiry', 'LIFE-01.refused-after-expiry'] });

ruleTest('LIFE-01', 'a sessionless token from TokenCreateRQ has the same lifetime in SOAP', async (ctx) => {
  const control = ctx.target.control!;
  const env = await inSomeEnvironment(ctx, async (env) => (await acceptedSoapToken(ctx, env)).env);
  const token = await obtainSoapToken(ctx, env);
  await control.advanceClock(LIFETIME - 1);
  await expectAccepted(soap((await callSoap(ctx, env, token)).answer), `the TokenCreateRQ token, ${LIFETIME - 1} s after it was issued`, PROBE_HINTS.soapSessionless);
  await control.advanceClock(2);
  await expectRefused(soap((await callSoap(ctx, env, token)).answer), `the TokenCreateRQ token, ${LIFETIME + 1} s after it was issued`, PROBE_HINTS.soapSessionless);
}, { clauses: ['LIFE-01.soap-sessionless'] });

/**
 * A sessionless token has its lifetime in the other protocol too: the state table's "valid until expires_in" is the
 * token's, and XPROTO-01/02 let it be used on either side. In every environment where the account gets both tokens
 * and each probe takes its own protocol's fresh token, the control is a token used fresh in the other protocol (not
 * accepted: XPROTO-01's or XPROTO-02's to judge, not this rule's); the trial a token issued at the same moment, first
 * used there one second before expires_in (the same request with its token older), then one second after it.
 */
async function otherProtocolLifetime(
  ctx: CheckContext,
  kind: { readonly what: string; readonly where: string; readonly crossRule: 'XPROTO-01' | 'XPROTO-02'; readonly hint: string },
  obtain: (env: Environment) => Promise<string>,
  call: (env: Environment, token: string) => Promise<Answer>,
): Promise<void> {
  const control = ctx.target.control!;
  const trials: { env: Environment; later: string; before: Answer }[] = [];
  await inEveryEnvironment(ctx, async (env) => {
    await acceptedSoapToken(ctx, env);
    await acceptedRestToken(ctx, { env, refusedBy: ['API-01', 'LIFE-02'] });
    const fresh = await obtain(env);
    const later = await obtain(env);
    const before = await call(env, fresh);
    if (verdictOf(before) !== 'accepted') {
      throw new PrerequisiteFailed(`a fresh ${kind.what} of ${env.toUpperCase()} was not accepted ${kind.where} (${describeAnswer(before)})`, [kind.crossRule]);
    }
    trials.push({ env, later, before });
  });
  await control.advanceClock(LIFETIME - 1);
  for (const { env, later, before } of trials) {
    await expectAccepted(await call(env, later), `a ${kind.what} of ${env.toUpperCase()} first used ${kind.where} ${LIFETIME - 1} s after it was issued (before expires_in, ${LIFETIME} s; one issued with it was accepted there fresh)`, kind.hint, 'accepted', { factor: 'token', before });
  }
  await control.advanceClock(2);
  for (const { env, later } of trials) {
    await expectRefused(await call(env, later), `the ${kind.what} of ${env.toUpperCase()} ${kind.where}, ${LIFETIME + 1} s after it was issued (past expires_in, ${LIFETIME} s)`, kind.hint);
  }
}

ruleTest('LIFE-01', 'a REST token has its lifetime in SOAP too: accepted in wsse:BinarySecurityToken until expires_in, refused after', async (ctx) => {
  const { action } = await soapProbe(ctx, 'soapSessionless');
  await otherProtocolLifetime(
    ctx,
    { what: 'REST token', where: `in wsse:BinarySecurityToken of ${action}`, crossRule: 'XPROTO-01', hint: PROBE_HINTS.soapSessionless },
    (env) => obtainToken(ctx, env),
    async (env, token) => soapAnswer(await callSoap(ctx, env, token)),
  );
}, { clauses: ['LIFE-01.rest-token-in-soap'] });

ruleTest('LIFE-01', 'a TokenCreateRQ token has its lifetime on REST too: accepted as a bearer token until expires_in, refused after', async (ctx) => {
  const probe = ctx.target.probes.rest;
  await otherProtocolLifetime(
    ctx,
    { what: 'TokenCreateRQ token', where: `as the bearer token of ${probe.method} ${probe.path}`, crossRule: 'XPROTO-02', hint: PROBE_HINTS.rest },
    (env) => obtainSoapToken(ctx, env),
    async (env, token) => restAnswer(await callRest(ctx, env, `Bearer ${token}`)),
  );
}, { clauses: ['LIFE-01.soap-token-in-rest'] });

let fresh = 0;

/** A new account on the simulator, so that no token an earlier check let expire is around. */
async function newAccount(ctx: CheckContext): Promise<Account> {
  fresh++;
  const account: Account = { epr: `LIFE${process.pid}X${fresh}`, pcc: 'LIF1', password: `life-${fresh}-secret`, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
  registerPassword(account.password);
  await ctx.target.control!.addAccount('cert', account);
  return account;
}

ruleTest('LIFE-02', 'after the old token expired, a newly requested token works', async (ctx) => {
  const control = ctx.target.control!;
  const account = await newAccount(ctx);
  const oldRoute = await restTokenRoute(ctx, { env: 'cert', account });
  const { token: old } = await acceptedRestToken(ctx, { env: 'cert', account, refusedBy: ['API-01'] });
  await control.advanceClock(LIFETIME + 60);
  // The request that obtained the old token (the document's form, or the same with source_ip where only that was served).
  const res = await requestToken(ctx, 'cert', { account, ...(oldRoute.body !== PLAIN_FORM && { body: oldRoute.body }) });
  const token = accessTokenOf(res);
  if (token === undefined) throw new CheckFailure('no new token could be obtained after the old one expired', { expected: 'a new token', actual: `${describeTokenAnswer(res)} (the same request obtained the old token)` });
  registerSecret(token);
  if (token === old) throw new CheckFailure('the token endpoint answered with the expired token again', { expected: 'a new token', actual: 'the expired token' });
  await expectAccepted(rest((await callRest(ctx, 'cert', `Bearer ${token}`)).answer), 'the token requested after the old one expired', PROBE_HINTS.rest);
}, { clauses: ['LIFE-02.new-token-works'] });

auditExchanges('lifetime checks');
