import { TOKEN_SHAPES, type TokenShape } from './token-shape.ts';

/**
 * A latitude profile: one conforming variant of the service, its values within every freedom the interface document
 * leaves (`harness/catalog/latitudes.ts` names them, with the sentence or silence that allows each): texts, token
 * shape, content type, prefixes, statuses, latency — what a target can show. The simulator answers as the profile
 * says; `DEFAULT_PROFILE` is how the real service is publicly seen to answer (PUBLIC-FACTS.md), a profile learned from
 * a live run (`harness/profile/`) is how that target answered. The service suite must pass on every profile: a
 * property runs it over random ones.
 *
 * Plain data (JSON), so that a run configuration can carry it to the test workers and a failure can print it.
 */
export interface LatitudeProfile {
  /** `token-format`: the shape of sessionless access tokens. */
  readonly tokenShape: TokenShape;
  /**
   * `token-format`: the REST APIs accept a token in any letter case. Only where the shape is case-insensitive by nature
   * (a UUID, or characters of an alphabet without two letters that fold together, as hex: `caseFoldable`); with other
   * shapes it does nothing.
   */
  readonly restTokenAnyCase: boolean;
  /** `token-extra-fields`: more fields in the token response, and their order. */
  readonly tokenExtraFields: boolean;
  readonly tokenFieldOrder: 'document' | 'reversed';
  /** `token-extra-fields`: a `source_ip` field echoing the request's, there only when the request carried one. */
  readonly tokenSourceIpEcho: boolean;
  /** `json-content-type-parameters`: the Content-Type of JSON answers, as sent. */
  readonly jsonContentType: string;
  /** `extra-response-headers`: the names of headers the document does not name (the values are the simulator's own). */
  readonly extraHeaders: readonly string[];
  /** `error-description-wording`: the `error_description` of each case of the Errors table. */
  readonly syntaxDescription: string;
  readonly wrongClientDescription: string;
  /** `other-token-errors`: the answer to a wrong `grant_type` or Content-Type. */
  readonly otherTokenErrorStatus: 400 | 401 | 415;
  /** `public`: `invalid_request` for a wrong Content-Type, `unsupported_grant_type` for a wrong `grant_type`. */
  readonly otherTokenErrorCode: 'public' | 'invalid_request' | 'invalid_grant';
  /** `content-type-leniency`: a token request without the form Content-Type is refused or served. */
  readonly missingContentType: 'refuse' | 'serve';
  /** `api-refusal-shape`. */
  readonly apiRefusalStatus: 401 | 403;
  readonly apiRefusalBody: 'public' | 'oauth' | 'empty';
  /** `timing`: added latency of every answer, in ms (real time). */
  readonly latencyMs: number;
  /** `soap-prefixes`. */
  readonly soapEnvPrefix: string;
  readonly ebPrefix: string;
  /** `soap-header-details`. */
  readonly responseMessageId: 'numeric' | 'uuid';
  /** `utc`: `…Z` (xs:dateTime); `utc-basic`: the zone in ISO 8601's basic form (`2026-11-27T03:00:00+0000`). */
  readonly responseTimestamp: 'zoneless' | 'utc' | 'utc-basic';
  readonly bstAttributes: 'public' | 'none';
  /** `eb:version` of responses: `echo` (the request's, `1.0` by default), or this value whatever the request said. */
  readonly ebVersion: string;
  /** A header block of another namespace in every response (`trace`: `<tr:Trace xmlns:tr="urn:trace">`), or none. */
  readonly headerBlock: 'none' | 'trace';
  /**
   * The response MessageHeader as publicly seen (`full`), or only what the document states of it (`minimal`):
   * ConversationId, Action and MessageData's RefToMessageId, without From, To, CPAId, Service, MessageId, Timestamp.
   */
  readonly responseHeader: 'full' | 'minimal';
  /** `soap-response-bodies`: TokenCreateRS with a `Success` child, empty, empty with `status="Approved"`, or an empty Body (`none`). */
  readonly tokenCreateBody: 'success' | 'empty' | 'status' | 'none';
  /** SessionCreateRS as publicly seen (`version="1" status="Approved"`), with `Version="1.0.0"` instead of `version`, with a `<Success/>` child, or both. */
  readonly createBody: 'public' | 'Version' | 'success' | 'Version-success';
  /** The body of the answer to SessionCloseRQ: SessionCloseRS as publicly seen, or an empty Body. */
  readonly closeBody: 'public' | 'empty';
  readonly closeAction: 'SessionCloseRS' | 'SessionCloseRQ';
  /** `fault-status`. */
  readonly faultStatus: number;
  /** `fault-texts`: the invalid-token faultstring (`%s` where it quotes the token) and StackTrace. */
  readonly invalidTokenFaultstring: string;
  readonly invalidTokenStackTrace: string;
  /** Where a fault's StackTrace sits in `detail`: `<detail><StackTrace>`, `<detail><ns1:StackTrace xmlns:ns1="urn:x">`, or `<detail><Error><StackTrace>`. */
  readonly stackTracePlacement: 'plain' | 'namespaced' | 'nested';
  /** `other-fault-codes`: the code of a wrong-credentials fault, of a full pool and of an action the service does not offer. */
  readonly authFaultCode: string;
  readonly poolFullFaultCode: string;
  readonly unknownActionFaultCode: string;
  /** A wrong-credentials fault echoes the request's own BinarySecurityToken (when it carried one) in its Security header. */
  readonly authFaultEchoesToken: boolean;
  /** `api-token-kinds`: the SOAP business action that takes sessionless tokens (BargainFinderMaxRQ, or OTA_HotelAvailLLSRQ, and then BargainFinderMaxRQ is not offered). */
  readonly sessionlessAction: 'BargainFinderMaxRQ' | 'OTA_HotelAvailLLSRQ';
  /** `session-timeout-per-account`: the main account's inactivity timeout, in seconds. */
  readonly sessionTimeoutSeconds: number;
  /** `pool-size`: the main account's session pool. */
  readonly poolSize: number;
  /** `malformed-request-answers`: a body that is not a SOAP envelope gets a fault, or a plain 400 or 500. */
  readonly garbageAnswer: 'fault' | 'http-400' | 'http-500';
  /** `business-payloads`: the bodies of business answers are the harness's stand-ins, or of a shape its schemas do not know. */
  readonly businessBody: 'harness' | 'other';
  /** `throttling`: a gateway that throttles every tenth request (429 with `Retry-After`, or a 503 page without), or none. */
  readonly throttle: 'none' | '429' | '503';
  /**
   * `gateway-errors`: a gateway that answers every tenth request itself with a 502 (Bad Gateway) or 504 (Gateway
   * Timeout) page before the service sees it, or none.
   */
  readonly gatewayErrors: 'none' | '502' | '504';
}

/** The real service as publicly seen: what the simulator does when no profile is given. */
export const DEFAULT_PROFILE: LatitudeProfile = {
  tokenShape: TOKEN_SHAPES.public,
  restTokenAnyCase: false,
  tokenExtraFields: false,
  tokenFieldOrder: 'document',
  tokenSourceIpEcho: false,
  jsonContentType: 'application/json;charset=UTF-8',
  extraHeaders: [],
  syntaxDescription: 'Credentials are missing or the syntax is not correct',
  wrongClientDescription: 'Wrong clientID or clientSecret',
  otherTokenErrorStatus: 400,
  otherTokenErrorCode: 'public',
  missingContentType: 'refuse',
  apiRefusalStatus: 401,
  apiRefusalBody: 'public',
  latencyMs: 0,
  soapEnvPrefix: 'soap-env',
  ebPrefix: 'eb',
  responseMessageId: 'numeric',
  responseTimestamp: 'zoneless',
  bstAttributes: 'public',
  ebVersion: 'echo',
  headerBlock: 'none',
  responseHeader: 'full',
  tokenCreateBody: 'success',
  createBody: 'public',
  closeBody: 'public',
  closeAction: 'SessionCloseRS',
  faultStatus: 500,
  invalidTokenFaultstring: 'Invalid or Expired binary security token: %s',
  invalidTokenStackTrace: 'com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN',
  stackTracePlacement: 'plain',
  authFaultCode: 'Client.AuthenticationFailed',
  poolFullFaultCode: 'Client.ReachedTALimit',
  unknownActionFaultCode: 'Client.InvalidEbXmlMessage',
  authFaultEchoesToken: false,
  sessionlessAction: 'BargainFinderMaxRQ',
  sessionTimeoutSeconds: 900,
  poolSize: 4,
  garbageAnswer: 'fault',
  businessBody: 'harness',
  throttle: 'none',
  gatewayErrors: 'none',
};

/** Wordings of the two `invalid_client` descriptions that say what the Errors table says. The first is the public one. */
export const DESCRIPTIONS = {
  syntax: [
    'Credentials are missing or the syntax is not correct',
    'Client credentials not well formed',
    'The client credentials are missing, or their syntax is not correct.',
    'credentials missing or malformed',
    'Client credentials were not provided',
    'Authorization header expected',
    'Client ID must have the form V1:userid:group:domain',
  ],
  wrongClient: [
    'Wrong clientID or clientSecret',
    'No client with this ID and secret',
    'The client ID or the client secret is wrong.',
    'invalid clientId or clientSecret',
    'No client found for this client ID and secret',
    'No client matches the given client ID and secret',
  ],
} as const;

/** Faultstrings of `Client.InvalidSecurityToken` that say "invalid or expired" and quote the token (`%s`). */
export const FAULTSTRINGS = [
  'Invalid or Expired binary security token: %s',
  'The security token %s is invalid or has expired',
  'Expired or invalid token (%s)',
  'Security token %s is not valid or has timed out',
] as const;

/** StackTrace texts that name the invalid-security-token session error. */
export const STACK_TRACES = [
  'com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN',
  'SessionError: InvalidSecurityToken',
  'session error: invalid security token',
  'SessionException: invalid binary security token',
  'SessionException: the security token is invalid',
] as const;

type Choices = { readonly [K in keyof LatitudeProfile]: readonly LatitudeProfile[K][] };

/** Values each freedom takes in the covering profiles (the default first); the random ones draw wider (see below). */
export const PROFILE_CHOICES: Choices = {
  tokenShape: Object.values(TOKEN_SHAPES),
  restTokenAnyCase: [false, true],
  tokenExtraFields: [false, true],
  tokenFieldOrder: ['document', 'reversed'],
  tokenSourceIpEcho: [false, true],
  jsonContentType: ['application/json;charset=UTF-8', 'application/json', 'Application/JSON; charset=utf-8'],
  extraHeaders: [[], ['pragma', 'x-request-id']],
  syntaxDescription: [...DESCRIPTIONS.syntax],
  wrongClientDescription: [...DESCRIPTIONS.wrongClient],
  otherTokenErrorStatus: [400, 401, 415],
  otherTokenErrorCode: ['public', 'invalid_request', 'invalid_grant'],
  missingContentType: ['refuse', 'serve'],
  apiRefusalStatus: [401, 403],
  apiRefusalBody: ['public', 'oauth', 'empty'],
  latencyMs: [0, 1, 3],
  soapEnvPrefix: ['soap-env', 'SOAP-ENV', 'S', 'soapenv'],
  ebPrefix: ['eb', 'ns2', 'mh'],
  responseMessageId: ['numeric', 'uuid'],
  responseTimestamp: ['zoneless', 'utc', 'utc-basic'],
  bstAttributes: ['public', 'none'],
  ebVersion: ['echo', '2.0'],
  headerBlock: ['none', 'trace'],
  responseHeader: ['full', 'minimal'],
  tokenCreateBody: ['success', 'empty', 'status', 'none'],
  createBody: ['public', 'Version', 'success', 'Version-success'],
  closeBody: ['public', 'empty'],
  closeAction: ['SessionCloseRS', 'SessionCloseRQ'],
  faultStatus: [500, 200],
  invalidTokenFaultstring: [...FAULTSTRINGS],
  invalidTokenStackTrace: [...STACK_TRACES],
  stackTracePlacement: ['plain', 'namespaced', 'nested'],
  authFaultCode: ['Client.AuthenticationFailed', 'Client.InvalidCredentials'],
  poolFullFaultCode: ['Client.ReachedTALimit', 'Client.TransactionLimitReached'],
  unknownActionFaultCode: ['Client.InvalidEbXmlMessage', 'Client.InvalidAction', 'Server.UnsupportedAction'],
  authFaultEchoesToken: [false, true],
  sessionlessAction: ['BargainFinderMaxRQ', 'OTA_HotelAvailLLSRQ'],
  sessionTimeoutSeconds: [900, 300, 600, 1200, 1800],
  poolSize: [4, 2, 3, 5, 6],
  garbageAnswer: ['fault', 'http-400', 'http-500'],
  businessBody: ['harness', 'other'],
  throttle: ['none', '429', '503'],
  gatewayErrors: ['none', '502', '504'],
};

const KEYS = Object.keys(PROFILE_CHOICES) as (keyof LatitudeProfile)[];

/**
 * A few profiles that, together, take every value of every freedom at least once (profile i takes the i-th value of
 * each, wrapping around): the deterministic companion of the random property.
 */
export function coveringProfiles(): LatitudeProfile[] {
  const n = Math.max(...KEYS.map((k) => PROFILE_CHOICES[k].length));
  return Array.from({ length: n }, (_, i) => Object.fromEntries(KEYS.map((k) => {
    const values = PROFILE_CHOICES[k] as readonly unknown[];
    return [k, values[(i + KEYS.indexOf(k)) % values.length]];
  })) as unknown as LatitudeProfile);
}

/** The profile with `changes` applied: for tests that vary one freedom. */
export function profileWith(changes: Partial<LatitudeProfile>): LatitudeProfile {
  return { ...DEFAULT_PROFILE, ...changes };
}

/** The fault codes a profile's service uses beyond the document's and the public ones: declared in its target config. */
export function profileFaultCodes(p: LatitudeProfile): { authentication?: string[]; poolFull?: string[]; unknownAction?: string[] } {
  return {
    ...(p.authFaultCode !== DEFAULT_PROFILE.authFaultCode && { authentication: [p.authFaultCode] }),
    ...(p.poolFullFaultCode !== DEFAULT_PROFILE.poolFullFaultCode && { poolFull: [p.poolFullFaultCode] }),
    unknownAction: [p.unknownActionFaultCode],
  };
}

/** Renames the envelope's prefixes as the profile writes them (the namespaces stay). */
export function renamePrefixes(xml: string, p: LatitudeProfile): string {
  let out = xml;
  if (p.soapEnvPrefix !== 'soap-env') out = out.replace(/(<\/?|\s|xmlns:|>)soap-env(?=[:=])/g, `$1${p.soapEnvPrefix}`);
  if (p.ebPrefix !== 'eb') out = out.replace(/(<\/?|\s|xmlns:)eb(?=[:=])/g, `$1${p.ebPrefix}`);
  return out;
}

/** Values for the extra headers a profile names: what a gateway or framework sends, never a caller's value. */
export function extraHeaderValues(names: readonly string[], random: { digits(n: number): string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const n = name.toLowerCase();
    out[n] = n === 'pragma' ? 'no-cache' : n === 'strict-transport-security' ? 'max-age=31536000' : n === 'x-frame-options' ? 'DENY' : n === 'server-timing' ? 'app;dur=1' : random.digits(12);
  }
  return out;
}

export type { TokenShape } from './token-shape.ts';
