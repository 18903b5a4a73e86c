import { clientProperty, explainFailure, type ClientContext } from '../../harness/checks/client.ts';
import { CheckFailure, expectEqual, expectThat, validateEnvelope } from '../../harness/checks/index.ts';
import { envelopeExcerpt, missingHeaderElements } from '../../harness/soap/index.ts';
import { envelopes } from './support/events.ts';
import { runSoapWorkload, runSoapWorkloadSettled, soapWorkload } from './support/workload.ts';

const TOKEN_CREATING = new Set(['TokenCreateRQ', 'SessionCreateRQ']);

/**
 * After the requests the client sent were judged: the failure of the workload, explained (a token or a call the
 * service refused for what another rule judges makes the check `skipped`, naming that rule).
 */
async function settle(ctx: ClientContext, failure: unknown, rule: 'SOAP-01' | 'SOAP-03' | 'SOAP-05'): Promise<void> {
  if (failure !== undefined) throw explainFailure(failure, await ctx.events(), 'token', [rule], await ctx.history());
}

clientProperty(
  'SOAP-01',
  'every SOAP request carries a complete eb:MessageHeader and a wsse Security header, and validates against the schemas',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    // What the client sent is judged even when the workload failed: a request that breaks this rule fails it.
    const { failure } = await runSoapWorkloadSettled(ctx, workload);
    const sent = envelopes(await ctx.events());
    if (failure === undefined) expectThat(sent.length > 0, 'the client sent no SOAP request', { expected: 'SOAP requests', actual: 'none' });
    for (const { event, envelope } of sent) {
      const verdict = await validateEnvelope(event.body, 'request');
      const h = envelope?.messageHeader;
      const what = `the ${h?.action ?? 'SOAP'} request`;
      const missing = [
        ...missingHeaderElements(h),
        ...(envelope && envelope.security.kind === 'none' && !envelope.security.securityHeader ? ['wsse:Security'] : []),
      ];
      expectThat(missing.length === 0, `${what} lacks ${missing.join(', ')}`, { expected: 'every element the interface document lists', actual: envelopeExcerpt(event.body, { element: 'Header', maxLength: 800 }) ?? event.body.slice(0, 300) });
      if (!verdict.valid) throw new CheckFailure(`${what} does not validate against the request schema`, { expected: 'a valid envelope (fixtures/xsd/request.xsd)', actual: `${verdict.code}: ${verdict.errors.slice(0, 2).join('; ')}` });
    }
    await settle(ctx, failure, 'SOAP-01');
  },
  { numRuns: 5, clauses: ["SOAP-01.message-header", "SOAP-01.security-header", "SOAP-01.schema"] },
);

clientProperty(
  'SOAP-03',
  'token-creating requests carry a UsernameToken (Username = EPR, Password, Organization = PCC, Domain) and a manifest with one reference',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    const { failure } = await runSoapWorkloadSettled(ctx, workload);
    const account = ctx.target.accounts.cert!;
    const creating = envelopes(await ctx.events()).filter((x) => TOKEN_CREATING.has(x.envelope?.action ?? ''));
    if (failure === undefined) expectThat(creating.length > 0, 'the client sent no TokenCreateRQ or SessionCreateRQ', { expected: 'a token-creating request', actual: 'none' });
    for (const { envelope } of creating) {
      const s = envelope!.security;
      const what = envelope!.action!;
      if (s.kind !== 'usernameToken') throw new CheckFailure(`${what} carries no UsernameToken (alone) in wsse:Security`, { expected: 'a UsernameToken', actual: s.kind });
      expectEqual(`Username of ${what} (the EPR)`, s.username, account.epr);
      expectThat(s.password === account.password, `Password of ${what} is not the account password`, { expected: 'the account password', actual: s.password === undefined ? '(absent)' : 'another value' });
      expectEqual(`Organization of ${what} (the PCC)`, s.organization, account.pcc);
      expectThat(Boolean(s.domain), `${what} carries no Domain`, { expected: 'a Domain', actual: s.domain });
      expectEqual(`number of manifest references in ${what}`, envelope!.body.manifest?.references.length ?? 0, 1);
    }
    await settle(ctx, failure, 'SOAP-03');
  },
  { numRuns: 4, clauses: ["SOAP-03.username-token", "SOAP-03.manifest"] },
);

clientProperty(
  'SOAP-04',
  'every later call carries the token in wsse:BinarySecurityToken and the called API\'s action code in eb:Action',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    const asked = await runSoapWorkload(ctx, workload);
    const events = await ctx.events();
    const issued = new Set(events.flatMap((e) => (e.tokenIssued ? [e.tokenIssued] : [])));
    const later = envelopes(events).filter((x) => !TOKEN_CREATING.has(x.envelope?.action ?? ''));
    for (const { envelope, event } of later) {
      const s = envelope?.security;
      const what = `the ${envelope?.action ?? '?'} request`;
      if (s?.kind !== 'binarySecurityToken') throw new CheckFailure(`${what} does not carry the token in wsse:BinarySecurityToken`, { expected: 'a BinarySecurityToken', actual: s?.kind ?? 'no envelope' });
      expectThat(issued.has(s.token), `${what} carries a token the service did not issue`, { expected: 'a token from TokenCreateRQ or SessionCreateRQ', actual: event.tokenUsed ? 'another value' : '(none)' });
    }
    const calls = later.map((x) => x.envelope?.action).filter((a) => a !== 'SessionCloseRQ');
    const missing = asked.filter((a) => !calls.includes(a));
    expectThat(missing.length === 0, 'eb:Action does not carry the called API\'s action code', { expected: asked.join(', '), actual: calls.join(', ') });
  },
  { numRuns: 4, clauses: ["SOAP-04.binary-security-token", "SOAP-04.action-code"], needs: 'token' },
);

clientProperty(
  'SOAP-05',
  'eb:CPAId is the caller\'s PCC, and one workflow (a session) keeps one eb:ConversationId',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    const { failure } = await runSoapWorkloadSettled(ctx, workload);
    const account = ctx.target.accounts.cert!;
    const sent = envelopes(await ctx.events());
    for (const { envelope } of sent) expectEqual(`eb:CPAId of ${envelope?.action ?? 'a request'}`, envelope?.messageHeader?.cpaId, account.pcc);
    const create = sent.find((x) => x.envelope?.action === 'SessionCreateRQ');
    const token = create?.event.tokenIssued;
    const inSession = sent.filter((x) => token && x.envelope?.security.kind === 'binarySecurityToken' && x.envelope.security.token === token);
    const ids = new Set([create, ...inSession].map((x) => x?.envelope?.messageHeader?.conversationId));
    expectThat(ids.size === 1, 'the requests of one session carry more than one ConversationId', { expected: 'one ConversationId for the session', actual: [...ids].join(', ') });
    await settle(ctx, failure, 'SOAP-05');
  },
  { numRuns: 4, clauses: ["SOAP-05.cpaid", "SOAP-05.conversation-id"] },
);
