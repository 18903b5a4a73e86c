import { accepted, callApi, obtainToken, requestToken } from '../../harness/checks/rest.ts';
import { businessCall, excerpt, expectThat, isFault, obtainSoapToken, responseToken, ruleTest, tokenCreate } from '../../harness/checks/index.ts';
import { bargainFinderMaxRQBody } from '../../harness/soap/index.ts';
import { restEndpoints, soapActions } from '../../harness/spec/index.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
const sessionlessAction = soapActions.find((a) => a.purpose === 'business' && a.accepts.includes('sessionless'))!;

ruleTest('XPROTO-01', 'a token from POST /v2/auth/token is accepted in wsse:BinarySecurityToken by a SOAP API that accepts sessionless tokens', async (ctx) => {
  const token = await obtainToken(ctx, 'cert');
  const x = await businessCall(ctx, 'cert', sessionlessAction.action, bargainFinderMaxRQBody(), token);
  expectThat(!isFault(x), `${sessionlessAction.action} refused a REST token`, { expected: `${sessionlessAction.action.replace(/RQ$/, 'RS')}`, actual: x.envelope?.fault ? `${x.envelope.fault.faultcode}: ${x.envelope.fault.faultstring}` : excerpt(x) });
});

ruleTest('XPROTO-02', 'a token from TokenCreateRQ is accepted as a REST bearer token', async (ctx) => {
  const token = await obtainSoapToken(ctx, 'cert');
  const res = await callApi(ctx, 'cert', themes, token);
  expectThat(accepted(res), 'a REST API refused a TokenCreateRQ token', { expected: '2xx', actual: `${res.status} ${res.body.slice(0, 160)}` });
});

ruleTest('XPROTO-03', 'the same account (PCC, EPR, password) authenticates on REST and on SOAP, with its own domain each', async (ctx) => {
  const rest = await requestToken(ctx, 'cert');
  expectThat(rest.status === 200, 'the account obtains no REST token', { expected: 200, actual: rest.status });
  const soap = await tokenCreate(ctx, 'cert');
  expectThat(!isFault(soap) && responseToken(soap) !== undefined, 'the same account obtains no SOAP token', {
    expected: 'TokenCreateRS with a token',
    actual: soap.envelope?.fault ? `${soap.envelope.fault.faultcode}: ${soap.envelope.fault.faultstring}` : excerpt(soap),
  });
});
