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
  /** `token-extra-fields`: more fields in the token response, and their order. */
  readonly tokenExtraFields: boolean;
  readonly tokenFieldOrder: 'document' | 'reversed';
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
  readonly responseTimestamp: 'zoneless' | 'utc';
  readonly bstAttributes: 'public' | 'none';
  /** `soap-response-bodies`. */
  readonly tokenCreateBody: 'success' | 'empty';
  readonly closeAction: 'SessionCloseRS' | 'SessionCloseRQ';
  /** `fault-status`. */
  readonly faultStatus: number;
  /** `fault-texts`: the invalid-token faultstring (`%s` where it quotes the token) and StackTrace. */
  readonly invalidTokenFaultstring: string;
  readonly invalidTokenStackTrace: string;
  /** `other-fault-codes`: the code of a wrong-credentials fault and of an action the service does not offer. */
  readonly authFaultCode: string;
  readonly unknownActionFaultCode: string;
  /** `api-token-kinds`: the SOAP business action that takes sessionless tokens (BargainFinderMaxRQ, or OTA_HotelAvailLLSRQ, and then BargainFinderMaxRQ is not offered). */
  readonly sessionlessAction: 'BargainFinderMaxRQ' | 'OTA_HotelAvailLLSRQ';
  /** `session-timeout-per-account`: the main account's inactivity timeout, in seconds. */
  readonly sessionTimeoutSeconds: number;
  /** `pool-size`: the main account's session pool. */
  readonly poolSize: number;
  /** `malformed-request-answers`: a body that is not a SOAP envelope gets a fault or a plain 400. */
  readonly garbageAnswer: 'fault' | 'http-400';
  /** `business-payloads`: the bodies of business answers are the harness's stand-ins, or of a shape its schemas do not know. */
  readonly businessBody: 'harness' | 'other';
  /** `throttling`: a gateway that throttles every tenth request (429 with `Retry-After`, or a 503 page without), or none. */
  readonly throttle: 'none' | '429' | '503';
}

/** The real service as publicly seen: what the simulator does when no profile is given. */
export const DEFAULT_PROFILE: LatitudeProfile = {
  tokenShape: TOKEN_SHAPES.public,
  tokenExtraFields: false,
  tokenFieldOrder: 'document',
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
  tokenCreateBody: 'success',
  closeAction: 'SessionCloseRS',
  faultStatus: 500,
  invalidTokenFaultstring: 'Invalid or Expired binary security token: %s',
  invalidTokenStackTrace: 'com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN',
  authFaultCode: 'Client.AuthenticationFailed',
  unknownActionFaultCode: 'Client.InvalidEbXmlMessage',
  sessionlessAction: 'BargainFinderMaxRQ',
  sessionTimeoutSeconds: 900,
  poolSize: 4,
  garbageAnswer: 'fault',
  businessBody: 'harness',
  throttle: 'none',
};

/** Wordings of the two `invalid_client` descriptions that say what the Errors table says. The first is the public one. */
export const DESCRIPTIONS = {
  syntax: [
    'Credentials are missing or the syntax is not correct',
    'Missing credentials or invalid credential syntax',
    'The client credentials are missing, or their syntax is not correct.',
    'credentials missing or malformed',
  ],
  wrongClient: [
    'Wrong clientID or clientSecret',
    'Wrong client ID or client secret',
    'The client ID or the client secret is wrong.',
    'invalid clientId or clientSecret',
  ],
} as const;

/** Faultstrings of `Client.InvalidSecurityToken` that say "invalid or expired" and quote the token (`%s`). */
export const FAULTSTRINGS = [
  'Invalid or Expired binary security token: %s',
  'The security token %s is invalid or has expired',
  'Expired or invalid token (%s)',
] as const;

/** StackTrace texts that name the invalid-security-token session error. */
export const STACK_TRACES = [
  'com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN',
  'SessionError: InvalidSecurityToken',
  'session error: invalid security token',
] as const;

type Choices = { readonly [K in keyof LatitudeProfile]: readonly LatitudeProfile[K][] };

/** Values each freedom takes in the covering profiles (the default first); the random ones draw wider (see below). */
export const PROFILE_CHOICES: Choices = {
  tokenShape: Object.values(TOKEN_SHAPES),
  tokenExtraFields: [false, true],
  tokenFieldOrder: ['document', 'reversed'],
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
  responseTimestamp: ['zoneless', 'utc'],
  bstAttributes: ['public', 'none'],
  tokenCreateBody: ['success', 'empty'],
  closeAction: ['SessionCloseRS', 'SessionCloseRQ'],
  faultStatus: [500, 200],
  invalidTokenFaultstring: [...FAULTSTRINGS],
  invalidTokenStackTrace: [...STACK_TRACES],
  authFaultCode: ['Client.AuthenticationFailed', 'Client.InvalidCredentials'],
  unknownActionFaultCode: ['Client.InvalidEbXmlMessage', 'Client.InvalidAction', 'Server.UnsupportedAction'],
  sessionlessAction: ['BargainFinderMaxRQ', 'OTA_HotelAvailLLSRQ'],
  sessionTimeoutSeconds: [900, 300, 600, 1200, 1800],
  poolSize: [4, 2, 3, 5, 6],
  garbageAnswer: ['fault', 'http-400'],
  businessBody: ['harness', 'other'],
  throttle: ['none', '429', '503'],
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
export function profileFaultCodes(p: LatitudeProfile): { authentication?: string[]; unknownAction?: string[] } {
  return {
    ...(p.authFaultCode !== DEFAULT_PROFILE.authFaultCode && { authentication: [p.authFaultCode] }),
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
