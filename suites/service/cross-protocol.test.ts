import { obtainToken, restTokenAnswer, restTokenRoute } from '../../harness/checks/routes.ts';
import { inEveryEnvironment } from '../../harness/checks/environments.ts';
import { callRest, callSoap, describeAnswer, expectAccepted, PROBE_HINTS, restAnswer, settled, soap, soapAnswer, soapAnswerOf, soapProbe, verdictOf } from '../../harness/checks/probe.ts';
import { sessionlessRestApis } from './support/rest-apis.ts';
import { CheckFailure, Inconclusive, obtainSoapToken, PrerequisiteFailed, responseToken, ruleTest, tokenCreate } from '../../harness/checks/index.ts';
import { acceptedRestToken, acceptedSoapToken } from './support/fresh-tokens.ts';
import { auditExchanges } from './support/audits.ts';

ruleTest('XPROTO-01', 'a token from POST /v2/auth/token is accepted in wsse:BinarySecurityToken by a SOAP API that accepts the TokenCreateRQ token', async (ctx) => {
  const { action } = await soapProbe(ctx, 'soapSessionless');
  // In every environment where the account gets both tokens: the REST token is the trial, and the control is the same
  // action with a sessionless token of SOAP's own, so that the two requests differ in the token alone.
  await inEveryEnvironment(ctx, async (env) => {
    const { token: restToken } = await restTokenRoute(ctx, { env });
    const control = await acceptedSoapToken(ctx, env);
    const x = await callSoap(ctx, env, restToken);
    await expectAccepted(soapAnswer(x), `a REST token of ${env.toUpperCase()} in wsse:BinarySecurityToken of ${action} (which accepts the TokenCreateRQ token)`, PROBE_HINTS.soapSessionless, 'accepted', {
      factor: 'token',
      before: control.answer,
      again: async () => soapAnswer(await callSoap(ctx, env, await obtainSoapToken(ctx, env))),
    });
    // "Can also be used": a REST token that has served REST calls too, not only a fresh one (a blind service refused
    // those). The control: the fresh REST token just accepted there.
    const used = await acceptedRestToken(ctx, { env });
    await expectAccepted(soapAnswer(await callSoap(ctx, env, used.token)), `a REST token of ${env.toUpperCase()} that has served a REST call, in wsse:BinarySecurityToken of ${action} (a fresh one was accepted there)`, PROBE_HINTS.soapSessionless, 'accepted', {
      factor: 'token',
      before: soapAnswer(x),
    });
  });
}, { clauses: ['XPROTO-01.rest-token-in-soap'] });

ruleTest('XPROTO-02', 'a token from TokenCreateRQ is accepted as a bearer token by a REST API that accepts the REST token', async (ctx) => {
  const probe = ctx.target.probes.rest;
  // In every environment where the account gets both tokens. The control: the same REST request with a REST token of
  // the same environment, served.
  await inEveryEnvironment(ctx, async (env) => {
    const soapToken = await obtainSoapToken(ctx, env);
    const control = await acceptedRestToken(ctx, { env });
    const trial = await callRest(ctx, env, `Bearer ${soapToken}`);
    await expectAccepted(restAnswer(trial), `a TokenCreateRQ token of ${env.toUpperCase()} as the bearer token of ${probe.method} ${probe.path} (which accepts the REST token)`, PROBE_HINTS.rest, 'accepted', {
      factor: 'token',
      before: control.answer,
      // Again with a fresh REST token: a token of the control's kind, not the same one (a service may take it once only).
      again: async () => restAnswer(await callRest(ctx, env, `Bearer ${await obtainToken(ctx, env)}`)),
    });
    // "And the reverse": a TokenCreateRQ token that has served a SOAP call too, not only a fresh one. The control: the
    // fresh TokenCreateRQ token just accepted there.
    const used = await acceptedSoapToken(ctx, env);
    await expectAccepted(restAnswer(await callRest(ctx, env, `Bearer ${used.token}`)), `a TokenCreateRQ token of ${env.toUpperCase()} that has served a SOAP call, as the bearer token of ${probe.method} ${probe.path} (a fresh one was accepted there)`, PROBE_HINTS.rest, 'accepted', {
      factor: 'token',
      before: restAnswer(trial),
    });
    // Every other REST API the target declares as taking sessionless tokens, with the same two tokens: where the REST
    // token is served, the TokenCreateRQ token must be (a blind service took it on the probe alone). An API whose
    // answer to the REST token says nothing about it (its payload is outside the document) is passed over.
    for (const api of sessionlessRestApis(ctx.target).slice(1)) {
      const before = restAnswer(await callRest(ctx, env, `Bearer ${control.token}`, api));
      if (verdictOf(await settled(before)) !== 'accepted') {
        ctx.note(`${api.method} ${api.path} in ${env.toUpperCase()}: the REST token got ${describeAnswer(before)}, so it says nothing of the TokenCreateRQ token there: passed over`);
        continue;
      }
      await expectAccepted(restAnswer(await callRest(ctx, env, `Bearer ${soapToken}`, api)), `a TokenCreateRQ token of ${env.toUpperCase()} as the bearer token of ${api.method} ${api.path} (which served the REST token)`, `the target declares ${api.method} ${api.path} in "tokenKinds" as accepting sessionless tokens: check that declaration`, 'accepted', {
        factor: 'token',
        before,
      });
    }
  });
}, { clauses: ['XPROTO-02.soap-token-in-rest'] });

ruleTest('XPROTO-03', 'the same account (PCC, EPR, password) authenticates on REST and on SOAP, with its own domain each', async (ctx) => {
  // Judged in every environment where the account obtains a REST token (CRED-03 judges one where it does not).
  await inEveryEnvironment(ctx, async (from) => {
    const env = (await restTokenAnswer(ctx, { env: from, needToken: false })).env;
    const x = await tokenCreate(ctx, env);
    const answer = soapAnswerOf(ctx, x);
    if (answer.kind === 'refused') {
      throw new CheckFailure(`the account that obtains a REST token in ${env.toUpperCase()} is refused by TokenCreateRQ there`, { expected: 'TokenCreateRS with a token', actual: describeAnswer(soap(answer)) });
    }
    if (answer.kind !== 'success') throw new Inconclusive(`TokenCreateRQ of the account in ${env.toUpperCase()} got ${describeAnswer(soap(answer))}, neither a token nor a refusal of the credentials`);
    if (!responseToken(x)) throw new PrerequisiteFailed(`TokenCreateRQ of the account in ${env.toUpperCase()} answered without a token`, ['STOK-01']);
  });
}, { clauses: ['XPROTO-03.same-account'] });

auditExchanges('cross-protocol checks');
