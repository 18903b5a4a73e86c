/**
 * What a target showed of itself, exchange by exchange, within the freedoms the document leaves (the latitudes of
 * harness/catalog/latitudes.ts): counted facts, merged across the run's workers and turned into a learned profile
 * (`learn.ts`). Every fact is a value a simulator can reproduce — a text, a status, a prefix, a header name — never a
 * secret: the only secrets held are a few access tokens, whose shape is read from them in the main process and which
 * never leave the harness's processes (they travel over the run's loopback registry, like session tokens).
 */
import { classifySoap, DEFAULT_FAULT_CODES, type FaultCodes } from '../classify/index.ts';
import { decodeAuthorization } from '../credentials/index.ts';
import { jsonObject } from '../judges/token-answer.ts';
import { NS, parseEnvelope, type ParsedEnvelope, type ParsedMessageHeader, type XmlElement } from '../soap/index.ts';
import { parseXmlTree } from '../soap/xml-tree.ts';
import type { HttpRequest, HttpResponse } from '../targets/index.ts';
import { emptyFacts, MAX_DURATIONS, MAX_TOKENS, MAX_VALUES, type ProfileFacts } from './fact-counts.ts';

export { emptyFacts, mergeFacts, type ProfileFacts } from './fact-counts.ts';

/** Response headers every HTTP answer may carry: not the target's own (latitude `extra-response-headers`). */
const PLAIN_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'cache-control', 'server', 'vary', 'accept-ranges', 'etag', 'last-modified', 'www-authenticate', 'retry-after']);

function count(facts: ProfileFacts, name: string, value: string | number | boolean): void {
  const byValue = (facts.counts[name] ??= {});
  const key = String(value);
  if (byValue[key] === undefined && Object.keys(byValue).length >= MAX_VALUES) return;
  byValue[key] = (byValue[key] ?? 0) + 1;
}

/** A request header, whatever the letter case of its name. */
const headerOf = (req: HttpRequest, name: string): string | undefined => Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** The prefix of an element as written in `xml` (`soap-env` of `<soap-env:Envelope`), or '' for none. */
export function prefixOf(xml: string, local: string): string | undefined {
  const m = new RegExp(`<(?:([\\w.-]+):)?${local}[\\s>/]`).exec(xml);
  return m ? (m[1] ?? '') : undefined;
}

const UUIDISH = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** How an eb:MessageId of an answer is written (latitude `soap-header-details`). */
export const messageIdForm = (id: string): 'numeric' | 'uuid' | 'other' => (/^\d+$/.test(id) ? 'numeric' : UUIDISH.test(id) ? 'uuid' : 'other');
/**
 * Whether an eb:Timestamp of an answer names its zone (latitude `soap-header-details`): as xs:dateTime writes it (`Z`,
 * `+00:00`), in ISO 8601's basic form (`+0000`), or not.
 */
export const timestampForm = (ts: string): 'utc' | 'utc-basic' | 'zoneless' => (/(Z|[+-]\d\d:\d\d)$/.test(ts) ? 'utc' : /[+-]\d{4}$/.test(ts) ? 'utc-basic' : 'zoneless');

/** The header blocks of an answer beyond eb:MessageHeader and wsse:Security: `trace` for the simulator's own, `other`. */
export function headerBlockForm(xml: string): 'none' | 'trace' | 'other' {
  const tree = parseXmlTree(xml);
  if (!tree.ok) return 'none';
  const header = tree.root.children.find((c) => c.namespace === NS.soapEnv && c.localName === 'Header');
  const extra = (header?.children ?? []).filter((c) => !(c.namespace === NS.eb && c.localName === 'MessageHeader') && !(c.namespace === NS.wsse && c.localName === 'Security'));
  if (extra.length === 0) return 'none';
  return extra.length === 1 && extra[0]!.namespace === 'urn:trace' && extra[0]!.localName === 'Trace' ? 'trace' : 'other';
}

/**
 * Which of the response header's elements the document does not state an answer writes (latitude
 * soap-header-details): all of From, To, CPAId, Service, MessageId and Timestamp (`full`), none (`minimal`), or some.
 */
export function responseHeaderForm(h: ParsedMessageHeader): 'full' | 'minimal' | 'other' {
  const present = [h.from.length > 0, h.to.length > 0, h.cpaId !== undefined, h.service !== undefined, h.messageData?.messageId !== undefined, h.messageData?.timestamp !== undefined];
  return present.every(Boolean) ? 'full' : present.some(Boolean) ? 'other' : 'minimal';
}

/** Where the StackTrace of a fault sits in `detail` (latitude fault-texts), or undefined where there is none. */
export function stackTracePlacementOf(xml: string): 'plain' | 'namespaced' | 'nested' | undefined {
  const tree = parseXmlTree(xml);
  if (!tree.ok) return undefined;
  const body = tree.root.children.find((c) => c.namespace === NS.soapEnv && c.localName === 'Body');
  const fault = body?.children.find((c) => c.namespace === NS.soapEnv && c.localName === 'Fault');
  const detail = fault?.children.find((c) => c.localName === 'detail');
  if (!detail) return undefined;
  const direct = detail.children.find((c) => c.localName === 'StackTrace');
  if (direct) return direct.namespace === undefined ? 'plain' : 'namespaced';
  return detail.children.some((c) => c.children.some((g) => g.localName === 'StackTrace')) ? 'nested' : undefined;
}

/**
 * What a TokenCreateRS body holds (latitude soap-response-bodies): a child element, else a `status` attribute, else
 * nothing (`empty`); `none`: the Body holds no element at all.
 */
function tokenCreateBodyForm(root: XmlElement | undefined): 'success' | 'status' | 'empty' | 'none' {
  if (root === undefined) return 'none';
  if (root.children.length) return 'success';
  return root?.attributes.some((a) => a.localName === 'status') ? 'status' : 'empty';
}

/** What a SessionCreateRS body holds (latitude soap-response-bodies), as the simulator's `createBody` names it. */
function createBodyForm(root: XmlElement | undefined): 'public' | 'Version' | 'success' | 'Version-success' | 'other' {
  if (root?.localName !== 'SessionCreateRS') return 'other';
  const has = (name: string) => root.attributes.some((a) => a.localName === name);
  const success = root.children.some((c) => c.localName === 'Success');
  if (has('Version') && !has('version')) return success ? 'Version-success' : 'Version';
  if (has('version') && !has('Version')) return success ? 'success' : 'public';
  return 'other';
}
const TOKEN_ERROR_FORM = 'application/x-www-form-urlencoded';

/** Collects the facts of every exchange of a run (in a worker), as the tracing transport hands them over. */
export class FactCollector {
  readonly facts: ProfileFacts = emptyFacts();
  /** Sessionless tokens issued so far (REST or TokenCreateRQ): which business actions took them (`api-token-kinds`). */
  readonly #sessionless = new Set<string>();
  readonly #soapPaths: ReadonlySet<string>;
  readonly #codes: FaultCodes;

  constructor(soapUrls: readonly string[], codes: FaultCodes = DEFAULT_FAULT_CODES) {
    this.#soapPaths = new Set(soapUrls.map(pathOf));
    this.#codes = codes;
  }

  observe(req: HttpRequest, res: HttpResponse): void {
    // A throttle is no answer of the service's: the transport waited it out (it is counted there).
    if (res.status === 429 || res.status === 503) return;
    const path = pathOf(req.url);
    if (this.#soapPaths.has(path)) return this.#soap(req, res);
    if (/\/v2\/auth\/token\/?$/.test(path) && req.method === 'POST') return this.#token(req, res);
    this.#rest(req, res);
  }

  #headers(res: HttpResponse): void {
    count(this.facts, 'answers', 'json');
    for (const name of Object.keys(res.headers)) if (!PLAIN_HEADERS.has(name) && !name.startsWith('x-tds-')) count(this.facts, 'extraHeader', name);
  }

  #duration(kind: 'token' | 'rest' | 'soap', ms: number): void {
    const list = this.facts.durations[kind];
    if (list.length < MAX_DURATIONS) list.push(Math.round(ms * 10) / 10);
  }

  #token(req: HttpRequest, res: HttpResponse): void {
    this.#duration('token', res.durationMs);
    const body = jsonObject(res.body);
    const type = res.headers['content-type'];
    const requestType = headerOf(req, 'content-type');
    const authorization = headerOf(req, 'authorization');
    const credentials = decodeAuthorization(authorization);
    const grantOk = /(?:^|&)grant_type=client_credentials(?:&|$)/.test(req.body ?? '');
    if (body && type) count(this.facts, 'jsonContentType', type);
    if (body) this.#headers(res);
    if (res.status >= 200 && res.status < 300 && body && typeof body.access_token === 'string') {
      // A `source_ip` field in the answer to a request that carried one is the echo's (tokenSourceIpEcho), not an extra field.
      const sourceIp = /(?:^|&)source_ip=/.test(req.body ?? '');
      if (sourceIp) count(this.facts, 'tokenSourceIpEcho', 'source_ip' in body);
      count(this.facts, 'tokenFields', JSON.stringify(Object.keys(body).filter((k) => !(sourceIp && k === 'source_ip'))));
      if (type) count(this.facts, 'tokenContentType', type);
      count(this.facts, 'tokenType', String(body.token_type));
      count(this.facts, 'expiresIn', typeof body.expires_in === 'number' ? body.expires_in : `"${String(body.expires_in)}"`);
      if (this.facts.tokens.length < MAX_TOKENS) this.facts.tokens.push(body.access_token);
      this.#sessionless.add(body.access_token);
      if (requestType === undefined && credentials.ok && grantOk) count(this.facts, 'missingContentType', 'serve');
      return;
    }
    if (res.status < 400 || res.status >= 500) return;
    if (requestType === undefined && credentials.ok && grantOk) count(this.facts, 'missingContentType', 'refuse');
    if (body?.error === 'invalid_client') {
      count(this.facts, 'invalidClientStatus', res.status);
      if (typeof body.error_description === 'string') count(this.facts, credentials.ok ? 'wrongClientDescription' : 'syntaxDescription', body.error_description);
      return;
    }
    if (!credentials.ok || !body || typeof body.error !== 'string') return;
    // Other token errors: a wrong grant_type in the document's form, or a body that is not form-encoded.
    const form = requestType?.toLowerCase().startsWith(TOKEN_ERROR_FORM) ?? false;
    if (form && !grantOk) {
      count(this.facts, 'otherTokenErrorStatus', res.status);
      count(this.facts, 'otherTokenErrorCode.grant', body.error);
    } else if (!form && requestType !== undefined) {
      count(this.facts, 'otherTokenErrorCode.content', body.error);
    }
  }

  #rest(req: HttpRequest, res: HttpResponse): void {
    this.#duration('rest', res.durationMs);
    const authorization = headerOf(req, 'authorization') ?? '';
    if (!/^Bearer \S+$/.test(authorization) || (res.status !== 401 && res.status !== 403)) return;
    count(this.facts, 'apiRefusalStatus', res.status);
    const body = jsonObject(res.body);
    count(this.facts, 'apiRefusalBody', res.body.trim() === '' ? 'empty' : typeof body?.errorCode === 'string' ? 'public' : typeof body?.error === 'string' ? 'oauth' : 'other');
  }

  #soap(req: HttpRequest, res: HttpResponse): void {
    this.#duration('soap', res.durationMs);
    const sent = req.body ?? '';
    const request = parseEnvelope(sent);
    const parsed = parseEnvelope(res.body);
    if (!request.ok) {
      // A body that is not a SOAP envelope (ERR-07's garbage): a fault, or a plain 400 (`malformed-request-answers`).
      if (res.status >= 400 && res.status < 500 && !parsed.ok) count(this.facts, 'garbageAnswer', 'http-400');
      else if (res.status === 500 && !parsed.ok) count(this.facts, 'garbageAnswer', 'http-500');
      else if (parsed.ok && parsed.envelope.fault) count(this.facts, 'garbageAnswer', 'fault');
      return;
    }
    if (!parsed.ok) return;
    const answer = parsed.envelope;
    const env = prefixOf(res.body, 'Envelope');
    const eb = prefixOf(res.body, 'MessageHeader');
    if (env !== undefined) count(this.facts, 'soapEnvPrefix', env);
    if (eb !== undefined) count(this.facts, 'ebPrefix', eb);
    const data = answer.messageHeader?.messageData;
    if (data?.messageId) count(this.facts, 'responseMessageId', messageIdForm(data.messageId));
    if (data?.timestamp) count(this.facts, 'responseTimestamp', timestampForm(data.timestamp));
    // eb:version: the request's echoed, or the service's own value (counted where the request named one).
    const sentVersion = request.envelope.messageHeader?.version;
    const version = answer.messageHeader?.version;
    if (sentVersion && version) count(this.facts, 'ebVersion', version === sentVersion ? 'echo' : version);
    if (answer.messageHeader) count(this.facts, 'headerBlock', headerBlockForm(res.body));
    if (answer.messageHeader) count(this.facts, 'responseHeader', responseHeaderForm(answer.messageHeader));
    const action = request.envelope.action;
    const sentToken = /<(?:[\w.-]+:)?BinarySecurityToken[^>]*>\s*([^<\s]+)\s*</.exec(sent)?.[1];
    if (answer.fault) {
      this.#fault(answer, res, action, sentToken, sent);
      const placement = answer.fault.stackTrace === undefined ? undefined : stackTracePlacementOf(res.body);
      if (placement) count(this.facts, 'stackTracePlacement', placement);
      return;
    }
    const bst = /<(?:[\w.-]+:)?BinarySecurityToken([^>]*)>\s*([^<\s]+)\s*</.exec(res.body);
    if (bst) count(this.facts, 'bstAttributes', /valueType=/.test(bst[1] ?? '') ? 'public' : 'none');
    if (action === 'TokenCreateRQ') {
      // A TokenCreateRS with content (a Success element) or without (an empty element, or nothing).
      count(this.facts, 'tokenCreateBody', tokenCreateBodyForm(answer.body.root));
      if (bst?.[2]) this.#sessionless.add(bst[2]);
    }
    if (action === 'SessionCreateRQ' && bst) count(this.facts, 'createBody', createBodyForm(answer.body.root));
    if (action === 'SessionCloseRQ' && answer.action) count(this.facts, 'closeAction', answer.action);
    if (action === 'SessionCloseRQ') count(this.facts, 'closeBody', answer.body.root === undefined ? 'empty' : answer.body.root.localName === 'SessionCloseRS' ? 'public' : 'other');
    if (action && /^(BargainFinderMaxRQ|OTA_HotelAvailLLSRQ|OTA_PingRQ)$/.test(action)) {
      count(this.facts, 'businessBody', /xmlns="http:\/\/www\.opentravel\.org\/OTA\/2002\/11"/.test(res.body) ? 'harness' : 'other');
      if (sentToken && this.#sessionless.has(sentToken) && action !== 'OTA_PingRQ') count(this.facts, 'sessionlessAction', action);
    }
  }

  #fault(answer: ParsedEnvelope, res: HttpResponse, action: string | undefined, sentToken: string | undefined, sent: string): void {
    const fault = answer.fault!;
    count(this.facts, 'faultStatus', res.status);
    const kind = classifySoap({ status: res.status, envelope: answer }, this.#codes);
    if (kind.kind === 'refused' && kind.why === 'invalid-token') {
      count(this.facts, 'faultcodeForm', fault.faultcode.includes(':') ? fault.faultcodeLocal : `(unprefixed) ${fault.faultcodeLocal}`);
      if (sentToken) {
        const text = fault.faultstring ?? '';
        count(this.facts, 'faultstringQuotes', text.includes(sentToken));
        if (text.includes(sentToken)) count(this.facts, 'invalidTokenFaultstring', text.split(sentToken).join('%s'));
      }
      count(this.facts, 'invalidTokenStackTrace', fault.stackTrace ?? '(none)');
      return;
    }
    if (kind.kind === 'refused' && kind.why === 'authentication' && /Password/.test(sent) && (action === 'TokenCreateRQ' || action === 'SessionCreateRQ')) {
      count(this.facts, 'authFaultCode', fault.faultcodeLocal);
    }
    // A refusal of credentials to a request that carried a BinarySecurityToken: is the request's own echoed back?
    if (kind.kind === 'refused' && kind.why === 'authentication' && sentToken && (action === 'TokenCreateRQ' || action === 'SessionCreateRQ')) {
      const s = answer.security;
      const back = s.kind === 'binarySecurityToken' ? s.token : s.kind === 'both' ? s.binarySecurityToken.token : undefined;
      count(this.facts, 'authFaultEchoesToken', back?.trim() === sentToken);
    }
    if (kind.kind === 'pool-full') count(this.facts, 'poolFullFaultCode', fault.faultcodeLocal);
    if (kind.kind === 'unknown-action') count(this.facts, 'unknownActionFaultCode', fault.faultcodeLocal);
  }
}

