/**
 * Fidelity, measured: the same probe exchanges sent to a target and to the stand-in serving its learned profile,
 * each answer read for what a client may depend on (status, content type, JSON keys and value types, token shape,
 * exact texts, SOAP prefixes, action, fault codes and texts, header names), compared aspect by aspect. The figure of a
 * kind is the share of its aspects that match; every mismatch is shown side by side.
 */
import { basicAuthorization } from '../credentials/index.ts';
import { GRANT_TYPE, type Environment } from '../catalog/index.ts';
import {
  actionBody, buildRequest, makeRequestHeader, NS, parseEnvelope, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody, usernameToken, type SoapBody, type XmlElement,
} from '../soap/index.ts';
import type { Account, HttpRequest, HttpResponse, Transport } from '../targets/index.ts';
import type { TokenShape } from '../sim/token-shape.ts';
import { messageIdForm, prefixOf, stackTracePlacementOf, timestampForm } from './facts.ts';
import { parseXmlTree } from '../soap/xml-tree.ts';

/** One side of a calibration: where to send, and with which account. */
export interface CalibrationSide {
  readonly restBaseUrl: string;
  readonly soapUrl: string;
  readonly account: Account;
  readonly transport: Transport;
}

/** The kinds of probe exchange, in the order they are sent. */
export const PROBE_KINDS = [
  'token', 'token-missing-credentials', 'token-wrong-secret', 'token-wrong-grant-type', 'api-call', 'api-refused',
  'soap-token-create', 'soap-invalid-token', 'soap-session-create', 'soap-session-close', 'soap-garbage',
] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

/** What one answer showed, aspect by aspect (values comparable across targets: no token, no ID, no time). */
export type Aspects = Readonly<Record<string, string>>;

const VOLATILE_HEADERS = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'etag', 'last-modified', 'x-conformance-check']);

function headerNames(res: HttpResponse): string {
  return Object.keys(res.headers).filter((h) => !VOLATILE_HEADERS.has(h)).sort().join(', ');
}

function jsonShape(body: string): { keys: string; types: string; value: Record<string, unknown> | undefined } {
  try {
    const v = JSON.parse(body) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { keys: '(not an object)', types: '', value: undefined };
    const o = v as Record<string, unknown>;
    return { keys: Object.keys(o).join(', '), types: Object.entries(o).map(([k, x]) => `${k}: ${x === null ? 'null' : typeof x}`).join(', '), value: o };
  } catch {
    return { keys: '(no JSON)', types: '', value: undefined };
  }
}

/** A token's look, as a shape would make it: its length, and the prefix and suffix of the shape when it has them. */
export function tokenLook(token: string, shape?: TokenShape): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token)) return 'uuid';
  const jwt = /^([\w-]+)\.([\w-]+)\.([\w-]*)$/.exec(token);
  if (jwt) return `jwt, header ${jwt[1]}, ${jwt[2]!.length}+${jwt[3]!.length} characters`;
  // The random part's characters differ from token to token (one token may hold no "+", the next one does): not an
  // aspect. Its length, and the fixed prefix and suffix, are.
  const prefix = shape?.kind === 'chars' && token.startsWith(shape.prefix) ? shape.prefix : '';
  const suffix = shape?.kind === 'chars' && token.endsWith(shape.suffix) ? shape.suffix : '';
  return `${token.length} characters, prefix ${JSON.stringify(prefix)}, suffix ${JSON.stringify(suffix)}`;
}

function restAspects(res: HttpResponse, opts: { token?: TokenShape } = {}): Record<string, string> {
  const shape = jsonShape(res.body);
  const out: Record<string, string> = {
    status: String(res.status),
    'content type': res.headers['content-type'] ?? '(none)',
    'JSON keys': shape.keys,
    'JSON value types': shape.types,
    'header names': headerNames(res),
  };
  const v = shape.value;
  if (typeof v?.error === 'string') out.error = v.error;
  if (typeof v?.error_description === 'string') out.error_description = v.error_description;
  if (typeof v?.token_type === 'string') out.token_type = v.token_type;
  if (v?.expires_in !== undefined) out.expires_in = JSON.stringify(v.expires_in);
  if (typeof v?.access_token === 'string') out['token shape'] = tokenLook(v.access_token, opts.token);
  return out;
}

/** The aspects of a SOAP answer calibrate compares (exported for its tests). */
export function soapAspects(res: HttpResponse, sentToken?: string): Record<string, string> {
  const parsed = parseEnvelope(res.body);
  const out: Record<string, string> = { status: String(res.status), 'content type': res.headers['content-type'] ?? '(none)', 'header names': headerNames(res) };
  if (!parsed.ok) return { ...out, envelope: '(no SOAP envelope)' };
  const e = parsed.envelope;
  out['envelope prefix'] = prefixOf(res.body, 'Envelope') ?? '';
  out['ebXML prefix'] = prefixOf(res.body, 'MessageHeader') ?? '';
  out.action = e.action ?? '(none)';
  const id = e.messageHeader?.messageData?.messageId;
  if (id) out['MessageId form'] = messageIdForm(id);
  const ts = e.messageHeader?.messageData?.timestamp;
  if (ts) out['Timestamp form'] = { utc: 'with zone', 'utc-basic': 'with zone (basic form)', zoneless: 'without zone' }[timestampForm(ts)];
  const bst = /<(?:[\w.-]+:)?BinarySecurityToken([^>]*)>/.exec(res.body);
  if (bst) out['BinarySecurityToken attributes'] = (bst[1] ?? '').replace(/\s+/g, ' ').trim().replace(/="[^"]*"/g, '') || '(none)';
  // The freedoms of soap-header-details and soap-response-bodies a profile holds: eb:version, the other header
  // blocks, and the shape of the body (its element, attributes and children; a business body's content is free).
  out['eb:version'] = e.messageHeader?.version ?? '(none)';
  out['header blocks'] = headerBlocks(res.body);
  if (!e.fault) out.body = e.body.root ? bodyShape(e.body.root) : '(empty)';
  if (e.fault) {
    out.faultcode = e.fault.faultcode;
    out.faultstring = sentToken ? (e.fault.faultstring ?? '').split(sentToken).join('<token>') : (e.fault.faultstring ?? '');
    out.StackTrace = e.fault.stackTrace ?? '(none)';
    out['StackTrace placement'] = stackTracePlacementOf(res.body) ?? '(none)';
  }
  return out;
}

/** The local names of the SOAP Header's children, in order. */
function headerBlocks(xml: string): string {
  const tree = parseXmlTree(xml);
  const header = tree.ok ? tree.root.children.find((c) => c.namespace === NS.soapEnv && c.localName === 'Header') : undefined;
  return header?.children.map((c) => c.localName).join(', ') || '(none)';
}

/** A body element's name, its attribute names and its children's names (not their values: those are the service's). */
function bodyShape(root: XmlElement): string {
  const attributes = root.attributes.map((a) => a.localName).sort();
  return `${root.localName} [${attributes.join(' ')}] (${root.children.map((c) => c.localName).join(', ')})`;
}

const TOKEN_NOBODY_ISSUED = 'T1RLAQ-tds-conformance-calibration-unknown-token';

function soapCall(side: CalibrationSide, action: string, security: Parameters<typeof buildRequest>[0]['security'], body: SoapBody, conversationId = `calibrate-${Date.now()}@tds-conformance`): HttpRequest {
  const header = makeRequestHeader({ action, cpaId: side.account.pcc, conversationId, messageId: `${Math.random().toString(16).slice(2)}@tds-conformance`, now: new Date() });
  return { method: 'POST', url: side.soapUrl, headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'OTA' }, body: buildRequest({ header, security, body }) };
}

/**
 * Sends the probe exchanges to one side and reads each answer's aspects. A session it opens it closes. 4 token- or
 * session-creating requests in all (a token, a TokenCreateRQ, a SessionCreateRQ; the refused token requests create
 * nothing).
 */
export async function probe(side: CalibrationSide, options: { readonly tokenShape?: TokenShape; readonly restProbePath?: string } = {}): Promise<Partial<Record<ProbeKind, Aspects>>> {
  const out: Partial<Record<ProbeKind, Aspects>> = {};
  const tokenUrl = `${side.restBaseUrl}/v2/auth/token`;
  const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const good = basicAuthorization({ userid: side.account.epr, group: side.account.pcc, domain: side.account.restDomain, password: side.account.password });
  const send = (req: HttpRequest) => side.transport.request(req);

  const tokenRes = await send({ method: 'POST', url: tokenUrl, headers: { ...form, authorization: good }, body: `grant_type=${GRANT_TYPE}` });
  out.token = restAspects(tokenRes, options.tokenShape ? { token: options.tokenShape } : {});
  out['token-missing-credentials'] = restAspects(await send({ method: 'POST', url: tokenUrl, headers: form, body: `grant_type=${GRANT_TYPE}` }));
  const wrong = basicAuthorization({ userid: side.account.epr, group: side.account.pcc, domain: side.account.restDomain, password: `${side.account.password}-not-it` });
  out['token-wrong-secret'] = restAspects(await send({ method: 'POST', url: tokenUrl, headers: { ...form, authorization: wrong }, body: `grant_type=${GRANT_TYPE}` }));
  const grant = restAspects(await send({ method: 'POST', url: tokenUrl, headers: { ...form, authorization: good }, body: 'grant_type=password' }));
  // The description of another token error is the service's own text, not one the profile holds.
  const { error_description: _free, ...grantAspects } = grant;
  out['token-wrong-grant-type'] = grantAspects;

  const token = (jsonShape(tokenRes.body).value?.access_token as string | undefined) ?? '';
  const api = `${side.restBaseUrl}${options.restProbePath ?? '/v1/lists/supported/shop/themes'}`;
  const called = await send({ method: 'GET', url: api, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  out['api-call'] = { status: String(called.status), 'content type': called.headers['content-type'] ?? '(none)' };
  const refused = await send({ method: 'GET', url: api, headers: { authorization: `Bearer ${TOKEN_NOBODY_ISSUED}`, accept: 'application/json' } });
  const refusedShape = jsonShape(refused.body);
  out['api-refused'] = {
    status: String(refused.status), 'content type': refused.headers['content-type'] ?? '(none)', 'JSON keys': refused.body.trim() === '' ? '(empty)' : refusedShape.keys,
  };

  const credentials = usernameToken({ username: side.account.epr, password: side.account.password, organization: side.account.pcc, domain: side.account.soapDomain });
  out['soap-token-create'] = soapAspects(await send(soapCall(side, 'TokenCreateRQ', credentials, tokenCreateRQBody())));
  out['soap-invalid-token'] = soapAspects(await send(soapCall(side, 'OTA_PingRQ', { kind: 'binarySecurityToken', token: TOKEN_NOBODY_ISSUED }, actionBody('OTA_PingRQ'))), TOKEN_NOBODY_ISSUED);
  const conversationId = `calibrate-session-${Date.now()}@tds-conformance`;
  const created = await send(soapCall(side, 'SessionCreateRQ', credentials, sessionCreateRQBody(), conversationId));
  out['soap-session-create'] = soapAspects(created);
  const sessionToken = /<(?:[\w.-]+:)?BinarySecurityToken[^>]*>\s*([^<\s]+)\s*</.exec(created.body)?.[1];
  if (sessionToken) {
    const body = sessionCloseRQBody({ pseudoCityCode: side.account.pcc, timeStamp: new Date().toISOString().slice(0, 19) + 'Z' });
    out['soap-session-close'] = soapAspects(await send(soapCall(side, 'SessionCloseRQ', { kind: 'binarySecurityToken', token: sessionToken }, body, conversationId)));
  }
  out['soap-garbage'] = soapAspects(await send({ method: 'POST', url: side.soapUrl, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: 'this is not XML' }));
  return out;
}

export interface KindFidelity {
  readonly kind: ProbeKind;
  /** Aspects compared, and those equal on both sides. */
  readonly compared: number;
  readonly matched: number;
  readonly differences: readonly { readonly aspect: string; readonly target: string; readonly standIn: string }[];
}

/** Compares the two sides' aspects, kind by kind (a kind one side did not reach is not compared). */
export function compareProbes(target: Partial<Record<ProbeKind, Aspects>>, standIn: Partial<Record<ProbeKind, Aspects>>): KindFidelity[] {
  const out: KindFidelity[] = [];
  for (const kind of PROBE_KINDS) {
    const a = target[kind];
    const b = standIn[kind];
    if (!a || !b) continue;
    const aspects = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    const differences = aspects.filter((k) => a[k] !== b[k]).map((k) => ({ aspect: k, target: a[k] ?? '(absent)', standIn: b[k] ?? '(absent)' }));
    out.push({ kind, compared: aspects.length, matched: aspects.length - differences.length, differences });
  }
  return out;
}

export const fidelityOf = (k: Pick<KindFidelity, 'compared' | 'matched'>) => (k.compared === 0 ? 100 : (100 * k.matched) / k.compared);

export type { Environment };
