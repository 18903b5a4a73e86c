import type { RuleId } from './types.ts';

/** An error the interface document (or PUBLIC-FACTS.md, for what it does not show) describes. */
export interface RestTokenError {
  readonly key: 'missing-or-syntax' | 'wrong-client';
  readonly condition: string;
  readonly error: 'invalid_client';
  /** What the description must say, as a test on its text. */
  readonly describes: string;
  /** Words that identify the description (case-insensitive); any one of each group must appear. */
  readonly mustMention: readonly (readonly string[])[];
  /** The text the real service is publicly seen to send. */
  readonly publicDescription: string;
  readonly publicStatus: number;
  readonly rules: readonly RuleId[];
}

export const restTokenErrors: Readonly<Record<RestTokenError['key'], RestTokenError>> = {
  'missing-or-syntax': {
    key: 'missing-or-syntax',
    condition: 'Credentials missing or syntactically wrong',
    error: 'invalid_client',
    describes: 'that credentials are missing or the syntax is not correct',
    // Words that state the case anywhere in the text; `describes` adds the phrases that do only in context ("not
    // provided", "could not be read", "no credentials", "not base64-encoded", …).
    mustMention: [['missing', 'syntax', 'syntactically', 'malformed', 'format', 'formatted', 'form', 'absent', 'required', 'empty', 'incomplete', 'decode', 'decoding', 'undecodable', 'parse', 'parsed', 'parsing', 'unparsable', 'unparseable', 'encoding', 'base', 'unreadable', 'garbled', 'scheme', 'no']],
    publicDescription: 'Credentials are missing or the syntax is not correct',
    publicStatus: 401,
    rules: ['ERR-01'],
  },
  'wrong-client': {
    key: 'wrong-client',
    condition: 'Credentials present but the client ID or client secret is wrong (unauthorized)',
    error: 'invalid_client',
    describes: 'wrong client ID or client secret',
    mustMention: [
      ['wrong', 'invalid', 'incorrect', 'unknown', 'bad', 'mismatch', 'mismatched', 'unrecognized', 'unrecognised', 'failed', 'unauthorized', 'unauthorised', 'denied', 'rejected', 'not'],
      ['client', 'secret', 'clientid', 'clientsecret', 'id', 'password', 'credentials', 'credential'],
    ],
    publicDescription: 'Wrong clientID or clientSecret',
    publicStatus: 401,
    rules: ['ERR-02'],
  },
};

/** What the real service answers for a bad or expired bearer token on a business API (INFO; PUBLIC-FACTS.md). */
export const publicApiAuthError = {
  status: 401,
  errorCode: 'ERR.2SG.SEC.INVALID_CREDENTIALS',
  message: 'Authentication failed due to invalid credentials',
} as const;
export const publicApiForbidden = { status: 403, errorCode: 'ERR.2SG.SEC.NOT_AUTHORIZED', message: 'Authorization failed due to no access privileges' } as const;

export interface SoapFault {
  readonly faultcode: string;
  readonly faultstring: string;
  readonly stackTrace: string;
  /** `document`: the interface document; `public`: publicly seen (PUBLIC-FACTS.md); `assumed`: this harness's choice. */
  readonly source: 'document' | 'public' | 'assumed';
  readonly rules: readonly RuleId[];
}

const STACK = 'com.sabre.universalservices.base.session.SessionException: errors.session.';

/** SOAP faults. Only `Client.InvalidSecurityToken` is in the document; the others are publicly seen. */
export const soapFaults = {
  invalidSecurityToken: {
    faultcode: 'Client.InvalidSecurityToken',
    faultstring: 'Invalid or Expired binary security token: ',
    stackTrace: `${STACK}USG_INVALID_SECURITY_TOKEN`,
    source: 'document',
    rules: ['ERR-04', 'SESS-02', 'SESS-03'],
  },
  authenticationFailed: {
    faultcode: 'Client.AuthenticationFailed',
    faultstring: 'Authentication failed',
    stackTrace: `${STACK}USG_AUTHENTICATION_FAILED`,
    source: 'public',
    rules: ['STOK-03'],
  },
  reachedTALimit: {
    faultcode: 'Client.ReachedTALimit',
    faultstring: 'You have reached the limit of Host TAs allocated to you',
    stackTrace: `${STACK}USG_RESOURCE_UNAVAILABLE`,
    source: 'public',
    rules: ['SESS-04'],
  },
  invalidEbXmlMessage: {
    faultcode: 'Client.InvalidEbXmlMessage',
    faultstring: 'Unable to parse the ebXML message',
    stackTrace: `${STACK}USG_INVALID_EBXML_MESSAGE`,
    source: 'public',
    rules: ['ERR-07'],
  },
  userNameNodeNotFound: {
    faultcode: 'Client.UserNameNodeNotFound',
    faultstring: 'UserName node not found',
    stackTrace: `${STACK}USG_AUTHENTICATION_FAILED`,
    source: 'public',
    rules: ['STOK-03'],
  },
  passwordNodeNotFound: {
    faultcode: 'Client.PasswordNodeNotFound',
    faultstring: 'Password node not found',
    stackTrace: `${STACK}USG_AUTHENTICATION_FAILED`,
    source: 'public',
    rules: ['STOK-03'],
  },
  organizationNodeNotFound: {
    faultcode: 'Client.OrganizationNodeNotFound',
    faultstring: 'Organization node not found',
    stackTrace: `${STACK}USG_AUTHENTICATION_FAILED`,
    source: 'public',
    rules: ['STOK-03'],
  },
  notAuthorized: {
    faultcode: 'Client.NotAuthorized',
    faultstring: 'Not authorized to perform this action',
    stackTrace: `${STACK}USG_NOT_AUTHORIZED`,
    source: 'assumed',
    rules: ['ACCESS-01', 'ACCESS-02', 'ACCESS-04'],
  },
} as const satisfies Record<string, SoapFault>;

/** Words after "no …" that make it a statement about an account, not about credentials that are missing ("No client found"). */
const NO_ACCOUNT = new RegExp([
  /\bno\s+(?:[a-z]+\s+){0,3}?(?:found|match|matches|matching|registered|known|exists?)\b/.source,
  // "No client with this ID and secret", "No application for these credentials"
  /\bno\s+(?:[a-z]+\s+){0,2}?(?:client|account|application|app|user|consumer)\s+(?:with|for|having|by|under)\b/.source,
].join('|'), 'i');

/** Phrases that state that credentials are missing or unreadable, where no single word does (ERR-01). */
const MISSING_OR_SYNTAX_PHRASES: readonly RegExp[] = [
  // "were not provided", "not present", "not supplied", "has not been sent"
  /\bnot\s+(?:been\s+|be\s+)?(?:provided|supplied|present|given|sent|included|specified|passed|set|found\s+in\s+the\s+(?:request|header))\b/i,
  /\b(?:header|authorization)\s+(?:[a-z]+\s+)?not\s+found\b/i,
  // "could not be read", "cannot be read", "unable to read"
  /\b(?:can\s*not|could\s+not|couldn['\u2019]?t|can['\u2019]?t|unable\s+to)\s+(?:be\s+)?(?:read|understood|interpreted|decoded|parsed)\b/i,
  /\bnot\s+(?:be\s+)?(?:readable|decodable|parsable|parseable)\b/i,
  // "not base64-encoded", "not properly encoded", "badly encoded"
  /\bnot\s+(?:[a-z0-9-]+\s+)?(?:properly\s+|correctly\s+|valid\s+)?(?:base\s*-?\s*64[\s-]*)?(?:encoded|decoded)\b/i,
  /\b(?:badly|wrongly|incorrectly|improperly|doubly|double)[\s-]+(?:encoded|formed|formatted)\b/i,
  // "not well formed", "ill-formed"
  /\b(?:not\s+well|ill)[\s-]*formed\b/i,
  // "Authorization header expected", "Basic authentication expected", "credentials are expected"
  /\b(?:authorization|authentication|auth|credentials?|header|basic)\s+(?:is\s+|are\s+|was\s+|were\s+)?expected\b/i,
  // "Invalid Authorization header", "unsupported authentication type"
  /\b(?:invalid|bad|wrong|unsupported|unknown|unexpected)\s+(?:basic\s+)?(?:authorization|authentication|auth)\s+(?:header|scheme|type)\b/i,
];

/**
 * Phrases that say the credentials' syntax is fine — the opposite of ERR-01's case — though they hold one of its words
 * ("Wrong client ID or client secret (credentials present and syntactically correct)": a blind service's ERR-02 text,
 * which states the wrong client alone). Not after a negation ("not syntactically correct" states ERR-01's case).
 */
const SYNTAX_FINE_PHRASES: readonly RegExp[] = [
  /(?<!\b(?:not|never|n['\u2019]t)\s+)\bsyntactically\s+(?:correct|valid|fine|ok|okay|sound|well[\s-]*formed)\b/gi,
  /(?<!\b(?:not|never|n['\u2019]t)\s+)\b(?:syntax|format|encoding)\s+(?:of\s+(?:the\s+)?[a-z]+\s+)?(?:is|was|are|were|looks?|seems?)\s+(?!not\b)(?:(?:entirely|perfectly|fully|all)\s+)?(?:correct|valid|fine|ok|okay|good|right|sound)\b/gi,
  /(?<!\b(?:not|never|n['\u2019]t)\s+)\b(?:well|correctly|properly)[\s-]+(?:formed|formatted|encoded)\b/gi,
  /\b(?:decoded|parsed)\s+(?:successfully|correctly|fine)\b/gi,
  /\bsuccessfully\s+(?:decoded|parsed)\b/gi,
];

/** Phrases that state that the client ID or secret is wrong, where no single word does (ERR-02). */
const WRONG_CLIENT_PHRASES: readonly RegExp[] = [
  /\bno\s+(?:such|matching)\b/i,
  NO_ACCOUNT,
  // "does not match", "doesn't match", "is not registered"
  /(?:\bnot|n['\u2019]t)\s+(?:valid|correct|recogni[sz]ed|found|match|matching|known|registered|exist|exists)\b/i,
];

/**
 * True when an `error_description` says what `errorKey` must say: a word of each group of `mustMention` (or, for a
 * group, a phrase that states it in context). The texts are not fixed by the document ("Text stating …"), so the
 * groups are wide; the check is that the text states the case, and (for ERR-02) that it does not state the other one.
 * A word is read in context where it could state either case: "no" states missing credentials ("No credentials"),
 * not an account that is not there ("No client found for this client ID and secret").
 */
export function describes(description: string, errorKey: RestTokenError['key']): boolean {
  // ERR-01's words are read where the text does not say the syntax is fine.
  const read = errorKey === 'missing-or-syntax' ? SYNTAX_FINE_PHRASES.reduce((text, p) => text.replace(p, ' '), description) : description;
  const words = new Set(read.toLowerCase().split(/[^a-z]+/));
  if (errorKey === 'missing-or-syntax') {
    if (words.has('no') && !(/\bno\s+(?:client\s+)?(?:credentials?|authorization|authentication|auth|basic|header|client\s*id|secret|client)\b/i.test(description) && !NO_ACCOUNT.test(description))) words.delete('no');
    if (MISSING_OR_SYNTAX_PHRASES.some((p) => p.test(description))) words.add('missing');
  }
  if (errorKey === 'wrong-client') {
    words.delete('not');
    if (WRONG_CLIENT_PHRASES.some((p) => p.test(description))) words.add('unknown');
  }
  return restTokenErrors[errorKey].mustMention.every((group) => group.some((word) => words.has(word)));
}

/**
 * Whether an `error_description` states its case of the Errors table as ERR-01 and ERR-02 read it: the case, and for
 * a wrong client ID or secret (ERR-02) that case only, so that it can be told from a syntax error.
 */
export function statesErrorCase(description: string, errorKey: RestTokenError['key']): boolean {
  return describes(description, errorKey) && (errorKey === 'missing-or-syntax' || !describes(description, 'missing-or-syntax'));
}
