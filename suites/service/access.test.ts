import { accepted, callApi, obtainToken } from '../../harness/checks/rest.ts';
import {
  businessCall, expectThat, isFault, obtainSoapToken, openSession, ruleTest, sessionClose, type CheckContext,
} from '../../harness/checks/index.ts';
import { bargainFinderMaxRQBody, hotelAvailLLSRQBody, type SoapBody } from '../../harness/soap/index.ts';
import { restEndpoints, soapActions, type TokenKind } from '../../harness/spec/index.ts';
import type { Account } from '../../harness/targets/index.ts';

const bodies: Record<string, () => SoapBody> = { OTA_HotelAvailLLSRQ: hotelAvailLLSRQBody, BargainFinderMaxRQ: bargainFinderMaxRQBody };

/** A token of each kind: sessionless from REST and from TokenCreateRQ, and a session token. */
async function withTokens(ctx: CheckContext, account: Account | undefined, use: (tokens: { kind: TokenKind; via: string; token: string }[]) => Promise<void>): Promise<void> {
  const session = await openSession(ctx, 'cert', account);
  try {
    await use([
      { kind: 'sessionless', via: 'POST /v2/auth/token', token: await obtainToken(ctx, 'cert', account) },
      { kind: 'sessionless', via: 'TokenCreateRQ', token: await obtainSoapToken(ctx, 'cert', account) },
      { kind: 'session', via: 'SessionCreateRQ', token: session.token },
    ]);
  } finally {
    await sessionClose(ctx, session);
  }
}

ruleTest('ACCESS-01', 'each SOAP API accepts the token kinds it declares and refuses the others (a session-only API refuses sessionless tokens)', async (ctx) => {
  await withTokens(ctx, undefined, async (tokens) => {
    for (const action of soapActions.filter((a) => a.purpose === 'business')) {
      for (const t of tokens) {
        const x = await businessCall(ctx, 'cert', action.action, bodies[action.action]!(), t.token);
        const shouldAccept = action.accepts.includes(t.kind);
        expectThat(isFault(x) !== shouldAccept, `${action.action} ${shouldAccept ? 'refused' : 'accepted'} a ${t.kind} token (from ${t.via})`, {
          expected: shouldAccept ? 'accepted' : 'a SOAP fault',
          actual: isFault(x) ? x.envelope?.fault?.faultcode : x.envelope?.action,
        });
      }
    }
  });
});

ruleTest('ACCESS-02', 'agency-specific APIs refuse tokens obtained with another agency\'s PCC', async (ctx) => {
  const other = ctx.target.control?.extraAccounts.otherAgency;
  if (!other) return ctx.notApplicable('needs a second agency\'s account, which only the simulator provides');
  const agencyApi = restEndpoints.find((e) => !e.public && !e.amendment && e.accepts.includes('sessionless'))!;
  const token = await obtainToken(ctx, 'cert', other);
  const res = await callApi(ctx, 'cert', agencyApi, token);
  expectThat(!accepted(res), `${agencyApi.api} accepted a token of another agency (PCC ${other.pcc})`, { expected: 'a refusal (publicly seen: 403)', actual: res.status });
  const own = await callApi(ctx, 'cert', agencyApi, await obtainToken(ctx, 'cert'));
  expectThat(accepted(own), `${agencyApi.api} refused the agency's own token`, { expected: '2xx', actual: own.status });
  const session = await openSession(ctx, 'cert', other);
  try {
    const x = await businessCall(ctx, 'cert', 'OTA_HotelAvailLLSRQ', hotelAvailLLSRQBody(), session.token);
    expectThat(isFault(x), 'OTA_HotelAvailLLSRQ accepted a session of another agency', { expected: 'a SOAP fault', actual: x.envelope?.action });
  } finally {
    await sessionClose(ctx, session);
  }
});

ruleTest('ACCESS-03', 'developer-portal test credentials reach only the public REST APIs of CERT', async (ctx) => {
  const portal = ctx.target.control?.extraAccounts.portal;
  if (!portal) return ctx.notApplicable('needs developer-portal credentials, which only the simulator provides');
  const token = await obtainToken(ctx, 'cert', portal);
  for (const e of restEndpoints.filter((x) => x.accepts.includes('sessionless'))) {
    const res = await callApi(ctx, 'cert', e, token);
    expectThat(accepted(res) === e.public, `${e.api} ${e.public ? 'refused' : 'accepted'} a developer-portal token`, {
      expected: e.public ? '2xx (a public API)' : 'a refusal (not a public API)',
      actual: res.status,
    });
  }
});

ruleTest('ACCESS-04', 'an API that needs a contractual amendment refuses tokens of accounts without it', async (ctx) => {
  const without = ctx.target.control?.extraAccounts.noAmendment;
  if (!without) return ctx.notApplicable('needs an account without the amendment, which only the simulator provides');
  const token = await obtainToken(ctx, 'cert', without);
  for (const e of restEndpoints.filter((x) => x.accepts.includes('sessionless'))) {
    const res = await callApi(ctx, 'cert', e, token);
    expectThat(accepted(res) === !e.amendment, `${e.api} ${e.amendment ? 'accepted a token of an account without the amendment' : 'refused a token it needs no amendment for'}`, {
      expected: e.amendment ? 'a refusal' : '2xx',
      actual: res.status,
    });
  }
  const soapToken = await obtainSoapToken(ctx, 'cert', without);
  const x = await businessCall(ctx, 'cert', 'BargainFinderMaxRQ', bargainFinderMaxRQBody(), soapToken);
  expectThat(isFault(x), 'BargainFinderMaxRQ (air low-fare shop) accepted a token of an account without the amendment', { expected: 'a SOAP fault', actual: x.envelope?.action });
});
