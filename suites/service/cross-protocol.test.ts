import { describeTokenAnswer, obtainToken, requestToken } from '../../harness/checks/rest.ts';
import { callRest, callSoap, describeAnswer, expectAccepted, PROBE_HINTS, rest, soap, soapAnswerOf, soapProbe } from '../../harness/checks/probe.ts';
import { CheckFailure, Inconclusive, obtainSoapToken, PrerequisiteFailed, responseToken, ruleTest, tokenCreate } from '../../harness/checks/index.ts';
import { acceptedRestToken, acceptedSoapToken } from './support/fresh-tokens.ts';
import { auditExchanges } from './support/audits.ts';

ruleTest('XPROTO-01', 'a token from POST /v2/auth/token is accepted in wsse:BinarySecurityToken by a SOAP API that accepts the TokenCreateRQ token', async (ctx) => {
  const { action } = await soapProbe(ctx, 'soapSessionless');
  const restToken = await obtainToken(ctx, 'cert');
  // The control: the same action accepts a sessionless token of SOAP's own.
  await acceptedSoapToken(ctx, 'cert');
  const x = await callSoap(ctx, 'cert', restToken);
  expectAccepted(soap(x.answer), `a REST token in wsse:BinarySecurityToken of ${action} (which accepts the TokenCreateRQ token)`, PROBE_HINTS.soapSessionless);
}, { clauses: ['XPROTO-01.rest-token-in-soap'] });

ruleTest('XPROTO-02', 'a token from TokenCreateRQ is accepted as a bearer token by a REST API that accepts the REST token', async (ctx) => {
  const probe = ctx.target.probes.rest;
  const soapToken = await obtainSoapToken(ctx, 'cert');
  await acceptedRestToken(ctx, 'cert');
  const { answer } = await callRest(ctx, 'cert', `Bearer ${soapToken}`);
  expectAccepted(rest(answer), `a TokenCreateRQ token as the bearer token of ${probe.method} ${probe.path} (which accepts the REST token)`, PROBE_HINTS.rest);
}, { clauses: ['XPROTO-02.soap-token-in-rest'] });

ruleTest('XPROTO-03', 'the same account (PCC, EPR, password) authenticates on REST and on SOAP, with its own domain each', async (ctx) => {
  const res = await requestToken(ctx, 'cert');
  if (res.status < 200 || res.status >= 300) throw new PrerequisiteFailed(`the account obtains no REST token (${describeTokenAnswer(res)})`, ['CRED-03']);
  const x = await tokenCreate(ctx, 'cert');
  const answer = soapAnswerOf(ctx, x);
  if (answer.kind === 'refused') {
    throw new CheckFailure('the account that obtains a REST token is refused by TokenCreateRQ', { expected: 'TokenCreateRS with a token', actual: describeAnswer(soap(answer)) });
  }
  if (answer.kind !== 'success') throw new Inconclusive(`TokenCreateRQ of the account got ${describeAnswer(soap(answer))}, neither a token nor a refusal of the credentials`);
  if (!responseToken(x)) throw new PrerequisiteFailed('TokenCreateRQ of the account answered without a token', ['STOK-01']);
}, { clauses: ['XPROTO-03.same-account'] });

auditExchanges('cross-protocol checks');
