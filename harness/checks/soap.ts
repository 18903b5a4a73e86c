import {
  buildRequest, createValidator, makeRequestHeader, maskEnvelope, otaPingRQBody, parseEnvelope, sessionCloseRQBody, sessionCreateRQBody,
  tokenCreateRQBody, usernameToken, type EnvelopeValidator, type ParsedEnvelope, type RequestSecurity, type RequestStyle, type SoapBody,
  type Verdict,
} from '../soap/index.ts';
import type { Environment } from '../spec/index.ts';
import type { Account, HttpResponse } from '../targets/index.ts';
import { CheckFailure } from './failure.ts';
import type { CheckContext } from './rule-test.ts';
import { PrerequisiteFailed } from './rule-test.ts';

let sequence = 0;
const next = () => `${process.pid}-${++sequence}`;

export function newConversationId(): string {
  return `tds-conformance-${next()}`;
}

export interface SoapCall {
  readonly action: string;
  readonly security: RequestSecurity;
  readonly body: SoapBody;
  readonly conversationId?: string;
  readonly cpaId?: string;
  readonly messageId?: string;
  readonly version?: '1.0' | '2.0.0';
  readonly style?: RequestStyle;
  readonly timeoutMs?: number;
}

export interface SoapExchange {
  readonly request: { readonly xml: string; readonly conversationId: string; readonly messageId: string; readonly cpaId: string };
  readonly response: HttpResponse;
  /** The parsed response; `undefined` when it is not a SOAP envelope (the reason in `parseError`). */
  readonly envelope: ParsedEnvelope | undefined;
  readonly parseError: string | undefined;
}

export function soapUrl(ctx: CheckContext, env: Environment): string {
  const e = ctx.target.environments[env];
  if (!e) return ctx.notApplicable(`the target has no ${env.toUpperCase()} environment configured`);
  return e.soapUrl;
}

export function soapAccount(ctx: CheckContext, env: Environment): Account {
  const a = ctx.target.accounts[env];
  if (!a) return ctx.notApplicable(`the target has no ${env.toUpperCase()} account configured`);
  return a;
}

/** Posts one SOAP request to the environment's SOAP URL and parses the answer. */
export async function soapCall(ctx: CheckContext, env: Environment, call: SoapCall): Promise<SoapExchange> {
  const conversationId = call.conversationId ?? newConversationId();
  const messageId = call.messageId ?? `${next()}@tds-conformance`;
  const cpaId = call.cpaId ?? ctx.target.accounts[env]?.pcc ?? 'UNKNOWN';
  const header = makeRequestHeader({ action: call.action, cpaId, conversationId, messageId, now: new Date(), ...(call.version && { version: call.version }) });
  const xml = buildRequest({ header, security: call.security, body: call.body, ...(call.style && { style: call.style }) });
  const x = await postEnvelope(ctx, env, xml, { conversationId, messageId, cpaId }, call.timeoutMs);
  // What the call created on the target, for the report's resource counts.
  if (!x.envelope?.fault && responseToken(x)) {
    if (call.action === 'TokenCreateRQ') ctx.created({ tokens: 1 });
    if (call.action === 'SessionCreateRQ') ctx.created({ sessionsOpened: 1 });
  }
  return x;
}

/** Posts a raw body (any text) to the SOAP URL: for malformed requests. */
export async function postEnvelope(
  ctx: CheckContext,
  env: Environment,
  xml: string,
  ids: { conversationId: string; messageId: string; cpaId: string } = { conversationId: '', messageId: '', cpaId: '' },
  timeoutMs?: number,
): Promise<SoapExchange> {
  const response = await ctx.http.request({
    method: 'POST',
    url: soapUrl(ctx, env),
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'OTA' },
    body: xml,
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
  const parsed = parseEnvelope(response.body);
  return {
    request: { xml, ...ids },
    response,
    envelope: parsed.ok ? parsed.envelope : undefined,
    parseError: parsed.ok ? undefined : `${parsed.code}: ${parsed.message}`,
  };
}

/** The token in the response's BinarySecurityToken, if any. */
export function responseToken(x: SoapExchange): string | undefined {
  const s = x.envelope?.security;
  return s?.kind === 'binarySecurityToken' ? s.token : s?.kind === 'both' ? s.binarySecurityToken.token : undefined;
}

/** A response envelope excerpt for evidence, passwords and tokens masked. */
export function excerpt(x: SoapExchange): string {
  return maskEnvelope(x.response.body).slice(0, 1500);
}

export function credentialsOf(account: Account): RequestSecurity {
  return usernameToken({ username: account.epr, password: account.password, organization: account.pcc, domain: account.soapDomain });
}

export async function tokenCreate(ctx: CheckContext, env: Environment, account: Account = soapAccount(ctx, env), call: Partial<SoapCall> = {}): Promise<SoapExchange> {
  return soapCall(ctx, env, { action: 'TokenCreateRQ', security: credentialsOf(account), body: tokenCreateRQBody(), cpaId: account.pcc, ...call });
}

/** A sessionless SOAP token for later checks; a target that gives none makes the check `skipped` (prerequisite). */
export async function obtainSoapToken(ctx: CheckContext, env: Environment, account?: Account): Promise<string> {
  const x = await tokenCreate(ctx, env, account);
  const token = responseToken(x);
  if (x.envelope?.fault || !token) throw new PrerequisiteFailed(`no token from TokenCreateRQ in ${env.toUpperCase()}; see STOK-01`);
  return token;
}

export interface OpenSession {
  readonly env: Environment;
  readonly token: string;
  readonly conversationId: string;
  readonly cpaId: string;
}

/** Sessions this worker opened and has not closed: closed at the end of each test file, also after a failure. */
const openSessions = new Map<string, { ctx: CheckContext; session: OpenSession }>();

export async function sessionCreate(ctx: CheckContext, env: Environment, account: Account = soapAccount(ctx, env), call: Partial<SoapCall> = {}): Promise<SoapExchange & { session?: OpenSession }> {
  const conversationId = call.conversationId ?? newConversationId();
  const x = await soapCall(ctx, env, { action: 'SessionCreateRQ', security: credentialsOf(account), body: sessionCreateRQBody({ pseudoCityCode: account.pcc }), cpaId: account.pcc, conversationId, ...call });
  const token = x.envelope?.fault ? undefined : responseToken(x);
  if (!token) return x;
  const session: OpenSession = { env, token, conversationId, cpaId: account.pcc };
  openSessions.set(token, { ctx, session });
  return { ...x, session };
}

/** Opens a session for later checks; none makes the check `skipped` (prerequisite). */
export async function openSession(ctx: CheckContext, env: Environment, account?: Account): Promise<OpenSession> {
  const x = await sessionCreate(ctx, env, account);
  if (!x.session) throw new PrerequisiteFailed(`no session from SessionCreateRQ in ${env.toUpperCase()}; see STOK-02${x.envelope?.fault ? ` (fault ${x.envelope.fault.faultcode})` : ''}`);
  return x.session;
}

export async function sessionClose(ctx: CheckContext, session: OpenSession): Promise<SoapExchange> {
  const x = await soapCall(ctx, session.env, {
    action: 'SessionCloseRQ',
    security: { kind: 'binarySecurityToken', token: session.token },
    body: sessionCloseRQBody({ pseudoCityCode: session.cpaId, timeStamp: new Date().toISOString().slice(0, 19) + 'Z' }),
    conversationId: session.conversationId,
    cpaId: session.cpaId,
  });
  openSessions.delete(session.token);
  ctx.created({ sessionsClosed: 1 });
  return x;
}

/** The keep-alive ping (the Refresh Session API) with a token. */
export async function ping(ctx: CheckContext, env: Environment, token: string, conversationId?: string): Promise<SoapExchange> {
  return soapCall(ctx, env, { action: 'OTA_PingRQ', security: { kind: 'binarySecurityToken', token }, body: otaPingRQBody(), ...(conversationId && { conversationId }) });
}

/** A business SOAP action with a token in the BinarySecurityToken. */
export async function businessCall(ctx: CheckContext, env: Environment, action: string, body: SoapBody, token: string, conversationId?: string): Promise<SoapExchange> {
  return soapCall(ctx, env, { action, security: { kind: 'binarySecurityToken', token }, body, ...(conversationId && { conversationId }) });
}

export function isFault(x: SoapExchange): boolean {
  return x.envelope?.fault !== undefined;
}

/** Fails unless the answer is a SOAP envelope (not garbage). */
export function expectEnvelope(x: SoapExchange, what: string): ParsedEnvelope {
  if (!x.envelope) throw new CheckFailure(`the answer to ${what} is not a SOAP envelope`, { expected: 'a SOAP 1.1 envelope', actual: `${x.response.status} ${x.parseError}` });
  return x.envelope;
}

/** Closes every session this worker still has open (end of a test file, interruption). Never throws. */
export async function closeOpenSessions(): Promise<number> {
  let closed = 0;
  for (const { ctx, session } of [...openSessions.values()]) {
    try {
      await sessionClose(ctx, session);
      closed++;
    } catch {
      openSessions.delete(session.token);
    }
  }
  return closed;
}

export function openSessionCount(): number {
  return openSessions.size;
}

let validator: Promise<EnvelopeValidator> | undefined;

/** Validates an envelope against the harness's schemas (fast path: one JVM per worker, started on first use). */
export async function validateEnvelope(xml: string, schema: 'request' | 'response'): Promise<Verdict> {
  validator ??= createValidator();
  return (await validator).validate(xml, schema);
}

export async function closeValidator(): Promise<void> {
  const v = validator;
  validator = undefined;
  if (v) await (await v.catch(() => undefined))?.close();
}
