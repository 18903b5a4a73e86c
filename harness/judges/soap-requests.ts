import { envelopeExcerpt, missingHeaderElements, type ParsedEnvelope, type Verdict } from '../soap/index.ts';
import { problem, type Problem } from './problem.ts';

/** The actions that create a token (SOAP-03's requests); every other SOAP request is a later call (SOAP-04's). */
export const TOKEN_CREATING: ReadonlySet<string> = new Set(['TokenCreateRQ', 'SessionCreateRQ']);

/** A SOAP request as both sides have it: the text sent, and its envelope (undefined when it did not parse, `error` saying why). */
export interface SentSoapRequest {
  readonly body: string;
  readonly envelope: ParsedEnvelope | undefined;
  readonly error?: string;
}

/** The account a SOAP request's credentials must name: the EPR, the PCC and, when known, the password. */
export interface SoapAccount {
  readonly epr: string;
  readonly pcc: string;
  readonly password?: string;
  /** The account's iPCC or organization values (the target config's `groupAlternatives`): "the PCC/iPCC" may be one. */
  readonly groupAlternatives?: readonly string[] | undefined;
  /** The SOAP domain "received with the token credentials", where known (`soapDomainDeclared` not false). */
  readonly soapDomain?: string;
  readonly soapDomainDeclared?: boolean;
}

const headerExcerpt = (body: string) => envelopeExcerpt(body, { element: 'Header', maxLength: 800 }) ?? body.slice(0, 300);

/**
 * SOAP-01.message-header and SOAP-01.security-header on one request: every element of eb:MessageHeader the document
 * lists, and a wsse:Security header (what it carries is SOAP-03's and SOAP-04's). A request that does not parse lacks
 * eb:MessageHeader. Every problem, in clause order.
 */
export function soap01HeaderProblems(sent: SentSoapRequest): Problem[] {
  const h = sent.envelope?.messageHeader;
  const what = `the ${h?.action ?? 'SOAP'} request`;
  const out: Problem[] = [];
  const missing = missingHeaderElements(h);
  if (missing.length > 0) out.push(problem('SOAP-01.message-header', `${what} lacks ${missing.join(', ')}`, 'every element the interface document lists', sent.error ?? headerExcerpt(sent.body)));
  const s = sent.envelope?.security;
  if (s?.kind === 'none' && !s.securityHeader) out.push(problem('SOAP-01.security-header', `${what} lacks wsse:Security`, 'a wsse Security header', headerExcerpt(sent.body)));
  return out;
}

/** The auth operations whose request bodies the document describes; every other action's body is free. */
const DESCRIBED_BODIES: ReadonlySet<string> = new Set(['TokenCreateRQ', 'SessionCreateRQ', 'SessionCloseRQ']);

/**
 * The schema a request is validated against (SOAP-01.schema): `request` for the auth operations the document
 * describes (and a request whose action cannot be read), `request-business` — the same envelope and header, any body
 * — for a business call or the Refresh Session ping ("The payloads of the business endpoints are outside this
 * document"; the ping's "Action code and payload: not shown").
 */
export function requestSchema(action: string | undefined): 'request' | 'request-business' {
  return action === undefined || DESCRIBED_BODIES.has(action) ? 'request' : 'request-business';
}

/** SOAP-01.schema on one request, from the verdict of its schema ({@link requestSchema}) on it. */
export function soap01SchemaProblem(verdict: Verdict, action: string | undefined): Problem | undefined {
  if (verdict.valid) return undefined;
  const schema = requestSchema(action);
  return problem('SOAP-01.schema', `the ${action ?? 'SOAP'} request does not validate against the request schema`, `a valid envelope (fixtures/xsd/${schema}.xsd)`, `${verdict.code}: ${verdict.errors.slice(0, 2).join('; ')}`);
}

/**
 * SOAP-03.username-token on a token-creating request: a UsernameToken alone in wsse:Security, with Username,
 * Password, Organization and Domain; with the `account` known, Username is its EPR, Organization its PCC and, when its
 * password is given, Password is that password (never shown).
 */
export function soap03UsernameTokenProblem(envelope: ParsedEnvelope, account?: SoapAccount): Problem | undefined {
  const s = envelope.security;
  const what = envelope.action ?? 'the token-creating request';
  if (s.kind !== 'usernameToken') return problem('SOAP-03.username-token', `${what} carries no UsernameToken (alone) in wsse:Security`, 'a UsernameToken', s.kind);
  const missing = [!s.username && 'Username', !s.password && 'Password', !s.organization && 'Organization', !s.domain && 'Domain'].filter(Boolean);
  if (missing.length > 0) {
    // The same names in another namespace are not the document's elements: said as such, not as absent.
    const elsewhere = (s.misplaced ?? []).filter((n) => missing.some((m) => n.endsWith(`}${m}`) || n === m));
    const seen = elsewhere.length > 0 ? ` (${elsewhere.join(', ')} in another namespace: Username and Password are wsse elements, Organization and Domain unqualified)` : '';
    return problem('SOAP-03.username-token', `the UsernameToken of ${what} lacks ${missing.join(', ')}${seen}`, 'Username, Password, Organization and Domain', `no ${missing.join(', ')}${elsewhere.length > 0 ? `; ${elsewhere.join(', ')} instead` : ''}`);
  }
  if (!account) return undefined;
  if (s.username !== account.epr) return problem('SOAP-03.username-token', `Username of ${what} is not the EPR`, account.epr, s.username!);
  if (account.password !== undefined && s.password !== account.password) return problem('SOAP-03.username-token', `Password of ${what} is not the account password`, 'the account password', 'another value');
  // "Organization (the PCC/iPCC)": the account's PCC, or an iPCC the target config declares for it.
  if (s.organization !== account.pcc && !(account.groupAlternatives ?? []).includes(s.organization!)) {
    return problem('SOAP-03.username-token', `Organization of ${what} is not the PCC`, account.pcc, s.organization!);
  }
  // "Domain: The application's audience; received with the token credentials": the account's SOAP domain, not (a
  // common mistake) its REST one.
  if (account.soapDomain !== undefined && account.soapDomainDeclared !== false && s.domain !== account.soapDomain) {
    return problem('SOAP-03.username-token', `Domain of ${what} is not the account's SOAP domain`, account.soapDomain, s.domain!);
  }
  return undefined;
}

/** SOAP-03.manifest on a token-creating request: its body holds a manifest with a single reference. */
export function soap03ManifestProblem(envelope: ParsedEnvelope): Problem | undefined {
  const n = envelope.body.manifest?.references.length ?? 0;
  return n === 1 ? undefined : problem('SOAP-03.manifest', `the body of ${envelope.action ?? 'the token-creating request'} does not hold a manifest with a single reference`, '1', `${n} references`);
}

/**
 * SOAP-04.binary-security-token on a later call (not token-creating): the token in wsse:BinarySecurityToken (alone).
 * `issued` says whether the service issued a token; only a driver that saw every token issued knows it (a recording
 * may start after the token was obtained): without it, any token counts.
 */
export function soap04TokenProblem(envelope: ParsedEnvelope, issued?: (token: string) => boolean): Problem | undefined {
  const s = envelope.security;
  const what = `the ${envelope.action ?? '?'} request`;
  if (s.kind !== 'binarySecurityToken') return problem('SOAP-04.binary-security-token', `${what} does not carry the token in wsse:BinarySecurityToken`, 'a BinarySecurityToken', s.kind);
  if (issued && !issued(s.token)) return problem('SOAP-04.binary-security-token', `${what} carries a token the service did not issue`, 'a token from TokenCreateRQ or SessionCreateRQ', s.token ? 'another value' : '(empty)');
  return undefined;
}

/**
 * SOAP-04.action-code on the later calls of a client, in order. With `asked`, the actions the client was asked to call
 * (only a driver knows them), each of them is the eb:Action of a call; without it, each call's eb:Action must be an
 * action code: every one the document names ends in "RQ" (TokenCreateRQ, BargainFinderMaxRQ, OTA_HotelAvailLLSRQ, …).
 * The problem, with the index of the call it names (none when it names what is missing from them all).
 */
export function soap04ActionProblem(later: readonly ParsedEnvelope[], asked?: readonly string[]): { readonly problem: Problem; readonly call: number | undefined } | undefined {
  if (asked) {
    const calls = later.map((e) => e.action).filter((a) => a !== 'SessionCloseRQ');
    const missing = asked.filter((a) => !calls.includes(a));
    if (missing.length === 0) return undefined;
    return { problem: problem('SOAP-04.action-code', 'eb:Action does not carry the called API\'s action code', asked.join(', '), calls.join(', ')), call: undefined };
  }
  const call = later.findIndex((e) => !/RQ$/.test(e.action ?? ''));
  if (call < 0) return undefined;
  const e = later[call]!;
  return { problem: problem('SOAP-04.action-code', 'eb:Action does not carry the called API\'s action code', `an action code such as ${e.body.root?.localName ?? 'OTA_PingRQ'}`, e.action ?? '(none)'), call };
}

/** SOAP-05.cpaid on one request: eb:CPAId is the caller's PCC (that of the account its credentials or token name). */
export function soap05CpaIdProblem(envelope: ParsedEnvelope, pcc: string, alternatives: readonly string[] = []): Problem | undefined {
  const cpaId = envelope.messageHeader?.cpaId;
  // "eb:CPAId: The PCC/iPCC of the caller": the account's PCC, or an iPCC the target config declares for it.
  return cpaId === pcc || (cpaId !== undefined && alternatives.includes(cpaId)) ? undefined : problem('SOAP-05.cpaid', `eb:CPAId of ${envelope.action ?? 'a request'} is not the caller's PCC`, pcc, cpaId ?? '(none)');
}

/** SOAP-05.conversation-id on one session: its SessionCreateRQ and the requests with its token carry one eb:ConversationId. */
export function soap05ConversationProblem(session: readonly ParsedEnvelope[]): Problem | undefined {
  return soap05ConversationIdsProblem(session.map((e) => e.messageHeader?.conversationId));
}

/** SOAP-05.conversation-id on the ConversationIds of one session's requests, in order (repeats allowed; none: not counted). */
export function soap05ConversationIdsProblem(ids: readonly (string | undefined)[]): Problem | undefined {
  // A request that carries no ConversationId is SOAP-01's to judge (one deviation, one rule), not another one.
  const distinct = new Set(ids.filter((id) => id !== undefined));
  return distinct.size <= 1 ? undefined : problem('SOAP-05.conversation-id', 'the requests of one session carry more than one ConversationId', 'one ConversationId for the session', [...distinct].join(', '));
}
