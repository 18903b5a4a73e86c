import type { RuleId } from '../catalog/index.ts';
import { ConsultedSet } from '../consulted-set.ts';

/**
 * Deviations the simulator can be told to make, one at a time, to prove that each check can fail (self-test).
 * Every rule checked on the service side has at least one defect that breaks it.
 */
export interface Defect {
  readonly id: string;
  /** The rules whose checks must catch this defect: exactly these, and no other (the self-test checks precision). */
  readonly breaks: readonly RuleId[];
  /**
   * Rules that may legitimately fail as well because the deviation is, by the document's words, also theirs (not
   * because a check reads a missing prerequisite as a failure). Each entry says why in the description.
   */
  readonly mayFollow?: readonly RuleId[];
  readonly description: string;
}

export const defects = [
  { id: 'cred03-latin1-decoding', breaks: ['CRED-03'], description: 'decodes the credential layers as Latin-1, so non-ASCII user IDs and passwords fail' },
  { id: 'cred05-prod-group-alternative-refused', breaks: ['CRED-05'], description: 'refuses the account\'s iPCC or organization as the Client ID\'s group in PROD (invalid_client); CERT accepts them' },
  { id: 'cred05-group-alternative-refused', breaks: ['CRED-05'], description: 'accepts only the group itself in the Client ID, refusing the account\'s iPCC or organization there (invalid_client)' },
  { id: 'cred03-client-id-four-fields', breaks: ['CRED-03'], description: 'splits the Client ID into exactly four fields, so a user ID containing ":" fails' },
  { id: 'cred03-single-base64-expected', breaks: ['CRED-03'], mayFollow: ['ERR-01'], description: 'reads one layer of base64 in the Basic credentials, so every correctly built credential is refused (it serves base64(V1:…:password), which ERR-01 says must be refused; with no credentials served, ERR-01 may not be judged)' },
  { id: 'cred03-cert-account-refused', breaks: ['CRED-03'], description: 'refuses the configured CERT account\'s correctly built REST credentials (invalid_client), while PROD and the other accounts obtain tokens (a route-taker of the defect-pair self-test)' },
  { id: 'rest02-source-ip-demanded', breaks: ['REST-02'], description: 'answers 400 invalid_request to a token request without source_ip, which the document calls optional (a route-taker of the defect-pair self-test)' },
  { id: 'rest02-grant-type-first', breaks: ['REST-02'], description: 'answers 400 invalid_request to a token request whose form does not start with grant_type (source_ip first), though the document fixes no order of the fields' },
  { id: 'rest02-source-ip-rejected', breaks: ['REST-02'], description: 'answers 400 invalid_request when the form carries source_ip' },
  { id: 'rest03-token-type-capitalized', breaks: ['REST-03'], description: 'answers token_type "Bearer" instead of "bearer"' },
  { id: 'rest03-every-fourth-token-capitalized', breaks: ['REST-03'], description: 'sends token_type "Bearer" with every fourth token of an account ("bearer" with the others), whatever the request\'s form' },
  { id: 'rest03-expires-in-string', breaks: ['REST-03'], description: 'answers expires_in as the string "604800"' },
  { id: 'rest03-legacy-lifetime', breaks: ['REST-03', 'LIFE-01'], description: 'issues tokens with the former lifetime of 390 s' },
  { id: 'rest04-token-reused', breaks: ['REST-04'], description: 'answers repeated token requests of an account with the same token while it is valid' },
  { id: 'rest04-soap-token-reused', breaks: ['REST-04'], description: 'answers repeated TokenCreateRQ of an account with the same sessionless token while it is valid; its REST token endpoint gives a new token each call' },
  { id: 'rest05-text-plain', breaks: ['REST-05'], description: 'sends the token response as text/plain' },
  { id: 'api01-single-use-token', breaks: ['API-01'], description: 'refuses a bearer token on the REST APIs after its first use there' },
  { id: 'api01-token-wears-out', breaks: ['API-01'], description: 'refuses a bearer token on the REST APIs once it has served 20 calls there, long before it expires' },
  { id: 'api02-unknown-token-accepted', breaks: ['API-02'], description: 'accepts any non-empty bearer token on the REST APIs' },
  { id: 'api02-token-prefix-compared', breaks: ['API-02'], description: 'compares bearer tokens on the REST APIs without their last four characters: a token changed there is taken for the one it was made from' },
  { id: 'life01-never-expires', breaks: ['LIFE-01'], description: 'keeps accepting sessionless tokens after expires_in' },
  { id: 'life01-soap-takes-expired-rest-token', breaks: ['LIFE-01'], description: 'its SOAP APIs keep accepting REST tokens after expires_in (its REST APIs refuse them then)' },
  { id: 'life01-soap-ages-rest-token', breaks: ['LIFE-01'], description: 'its SOAP APIs refuse REST tokens issued more than a minute ago, long before expires_in (its REST APIs still serve them)' },
  { id: 'life01-rest-takes-expired-soap-token', breaks: ['LIFE-01'], description: 'its REST APIs keep accepting TokenCreateRQ tokens after expires_in (its SOAP APIs refuse them then)' },
  { id: 'life02-refresh-returns-expired', breaks: ['LIFE-02'], description: 'answers a token request after expiry with the expired token again' },
  { id: 'err01-missing-credentials-invalid-request', breaks: ['ERR-01'], description: 'answers a token request without an Authorization header with HTTP 400 and error invalid_request (not invalid_client)' },
  { id: 'err01-wrong-description', breaks: ['ERR-01'], mayFollow: ['ERR-02'], description: 'describes syntax errors as a wrong client ID or secret (its answers to ERR-01\'s cases are then those to ERR-02\'s, which ERR-02 says must be distinguishable from them)' },
  { id: 'err01-lenient-base64', breaks: ['ERR-01'], description: 'decodes both base64 layers leniently, skipping characters outside the alphabet: a "*" in the password\'s part is answered as a wrong secret, not as bad syntax' },
  { id: 'err01-single-base64-accepted', breaks: ['ERR-01'], description: 'accepts credentials encoded with a single base64 layer' },
  { id: 'err02-non-ascii-id-syntax', breaks: ['ERR-02'], description: 'describes well-formed credentials of an unknown client whose Client ID has a character outside ASCII as a syntax error' },
  { id: 'err02-syntax-description', breaks: ['ERR-02'], description: 'describes a wrong secret as missing credentials or bad syntax' },
  { id: 'err02-prod-syntax-description', breaks: ['ERR-02'], description: 'describes a wrong secret in PROD as missing credentials or bad syntax (CERT says the client ID or secret is wrong)' },
  { id: 'err02-unauthorized-client', breaks: ['ERR-02'], description: 'answers a wrong secret with error "unauthorized_client"' },
  { id: 'err03-status-400', breaks: ['ERR-03'], description: 'answers token errors with status 400 instead of 401' },
  { id: 'err03-secret-start-echoed', breaks: ['ERR-03'], description: 'quotes the first 12 characters of the client secret in the error_description' },
  { id: 'err03-secret-echoed', breaks: ['ERR-03'], description: 'quotes the client secret in the error_description' },
  { id: 'err07-hang-on-bad-grant-type', breaks: ['ERR-07'], description: 'never answers a token request with a wrong grant_type' },
  { id: 'err07-any-grant-type', breaks: ['ERR-07'], description: 'serves a token whatever the grant_type (password, refresh_token, none at all)' },
  { id: 'err07-drop-on-bad-content-type', breaks: ['ERR-07'], description: 'drops the connection of a token request whose body is not form-encoded' },
  // SOAP
  { id: 'soap02-no-ref-to-message-id', breaks: ['SOAP-02', 'STOK-01'], description: 'leaves RefToMessageId out of SOAP responses' },
  { id: 'soap02-conversation-id-not-echoed', breaks: ['SOAP-02'], mayFollow: ['STOK-01', 'STOK-02'], description: 'answers with a ConversationId of its own instead of the request\'s (STOK-01 and STOK-02 also say the ConversationId is echoed)' },
  { id: 'soap02-session-answer-not-xml', breaks: ['SOAP-02'], description: 'answers the SessionCreateRQ that makes an account\'s third (sixth…) held session with its session token written after a raw "&": not well-formed XML (the session is allocated all the same, and holds its slot until the inactivity timeout)' },
  { id: 'soap02-no-message-data', breaks: ['SOAP-02'], mayFollow: ['STOK-01'], description: 'sends responses without eb:MessageData (schema-invalid; STOK-01 also asks for the RefToMessageId it holds)' },
  { id: 'stok01-wrong-action', breaks: ['STOK-01'], mayFollow: ['SOAP-02'], description: 'answers TokenCreateRQ with action TokenCreateRQ instead of TokenCreateRS (SOAP-02 also asks for the response action)' },
  { id: 'stok01-no-token', breaks: ['STOK-01'], description: 'answers TokenCreateRQ without a BinarySecurityToken' },
  { id: 'stok01-token-slot-on-use', breaks: ['STOK-01'], description: 'allocates a session to a TokenCreateRQ token at its first SOAP call: it holds a slot of the caller\'s pool from then until the inactivity timeout after its last use' },
  { id: 'stok01-token-takes-slot', breaks: ['STOK-01'], description: 'allocates a session to every TokenCreateRQ token: it holds a slot of the caller\'s pool until the inactivity timeout after its last use' },
  { id: 'stok02-wrong-action', breaks: ['STOK-02'], mayFollow: ['SOAP-02'], description: 'answers SessionCreateRQ with action SessionCreateRQ instead of SessionCreateRS (SOAP-02 also asks for the response action)' },
  { id: 'stok02-no-token-beside-one', breaks: ['STOK-02'], description: 'answers SessionCreateRQ without a BinarySecurityToken when the caller already has one session open in the environment: the session is allocated all the same, and holds its slot until the inactivity timeout' },
  { id: 'stok02-conversation-id-dropped', breaks: ['STOK-02'], mayFollow: ['SOAP-02'], description: 'leaves ConversationId out of SessionCreateRS headers (SOAP-02 also says every response echoes it)' },
  { id: 'stok03-any-password', breaks: ['STOK-03'], description: 'issues SOAP tokens whatever the password' },
  { id: 'stok03-session-any-password', breaks: ['STOK-03'], description: 'opens sessions whatever the password (TokenCreateRQ checks it)' },
  { id: 'stok03-empty-password', breaks: ['STOK-03'], description: 'issues SOAP tokens for a UsernameToken whose Password is empty' },
  { id: 'stok03-token-in-fault', breaks: ['STOK-03'], description: 'refuses wrong credentials with a fault that still carries a token' },
  { id: 'sess01-no-keepalive', breaks: ['SESS-01'], description: 'times sessions out from their creation: requests do not keep them open' },
  { id: 'sess02-second-close-acknowledged', breaks: ['SESS-02'], description: 'answers a SessionCloseRQ with the token of a session already closed as if it closed it (SessionCloseRS), where the closed token is to be refused (its other calls are)' },
  { id: 'sess02-close-keeps-token', breaks: ['SESS-02'], description: 'answers SessionCloseRQ but keeps accepting the token' },
  { id: 'sess02-closed-token-serves-business', breaks: ['SESS-02'], description: 'refuses a closed session\'s token on the Refresh Session ping and SessionCloseRQ, but its business actions still accept it (as a token cache in front of them would)' },
  { id: 'sess02-close-ends-other-env', breaks: ['SESS-02'], description: 'answers SessionCloseRQ by also closing the open sessions of the same caller (EPR and PCC) in the other environment' },
  { id: 'sess02-close-ends-all-sessions', breaks: ['SESS-02'], description: 'answers SessionCloseRQ by closing every open session of the caller in that environment, not only the one whose token it carries' },
  { id: 'sess02-used-close-keeps-slot', breaks: ['SESS-02'], mayFollow: ['SESS-04'], description: 'closes a session that served a call but keeps its pool slot until it times out (a session closed unused releases its slot; SESS-04 also says closing frees a slot)' },
  { id: 'sess02-close-keeps-slot', breaks: ['SESS-02'], mayFollow: ['SESS-04'], description: 'closes the session but keeps its pool slot until it times out (SESS-04 also says closing frees a slot)' },
  { id: 'sess03-close-acknowledges-expired', breaks: ['SESS-03'], description: 'acknowledges SessionCloseRQ with the token of a session that timed out (a SessionCloseRS, where the token is refused by every other call)' },
  { id: 'sess03-never-times-out', breaks: ['SESS-03'], description: 'keeps sessions open forever' },
  { id: 'sess04-no-pool-limit', breaks: ['SESS-04'], description: 'opens any number of sessions per caller' },
  { id: 'sess04-new-session-ends-older', breaks: ['SESS-04', 'SESS-01'], description: 'ends the caller\'s other open sessions in that environment when it opens a new one (one session per account): the older sessions no longer hold their slots, and their tokens are refused before their timeout' },
  { id: 'sess04-timeout-keeps-slot', breaks: ['SESS-04'], description: 'never frees the pool slot of a session that timed out' },
  { id: 'err04-expired-token-own-code', breaks: ['ERR-04'], description: 'answers an expired token (a session that timed out, a TokenCreateRQ token past its lifetime) with the faultcode Client.ExpiredSecurityToken; an invalid one gets Client.InvalidSecurityToken' },
  { id: 'err04-wrong-faultcode', breaks: ['ERR-04'], description: 'answers a bad token with faultcode Client.InvalidToken' },
  { id: 'err04-unprefixed-faultcode', breaks: ['ERR-04'], description: 'writes the faultcode without a namespace prefix' },
  { id: 'err04-token-not-quoted', breaks: ['ERR-04'], description: 'leaves the token out of the faultstring' },
  { id: 'err04-prod-no-stacktrace', breaks: ['ERR-04'], description: 'leaves detail/StackTrace out of the invalid-token fault in PROD (CERT\'s has it)' },
  { id: 'err04-no-stacktrace', breaks: ['ERR-04'], description: 'leaves detail/StackTrace out of the fault' },
  { id: 'err04-ping-serves-unknown-token', breaks: ['ERR-04'], description: 'answers the Refresh Session ping (OTA_PingRQ) with a token it never issued as if it were a session\'s, while SessionCloseRQ refuses it' },
  { id: 'err05-fault-status-200', breaks: ['ERR-05'], description: 'sends SOAP faults with HTTP status 200' },
  { id: 'err07-soap-hang-on-garbage', breaks: ['ERR-07'], description: 'never answers a SOAP request whose body is not XML' },
  { id: 'env01-token-cross-env', breaks: ['ENV-01'], description: 'accepts a token from one environment in the other' },
  { id: 'env01-close-cross-env', breaks: ['ENV-01'], description: 'its SessionCloseRQ takes a session token of the other environment and closes that session; every other call refuses such tokens' },
  { id: 'env01-cross-env-amendment-api', breaks: ['ENV-01'], description: 'its REST API that needs an amendment (the low-fare shop, behind a gateway route of its own) accepts tokens of the other environment; the probes refuse them' },
  { id: 'env03-credentials-all-envs', breaks: ['ENV-03'], description: 'accepts credentials of one environment in the other' },
  { id: 'xproto01-rest-token-refused-soap', breaks: ['XPROTO-01'], description: 'refuses REST tokens in SOAP BinarySecurityTokens' },
  { id: 'xproto01-used-rest-token-refused-soap', breaks: ['XPROTO-01'], description: 'refuses a REST token in SOAP BinarySecurityTokens once it has served a REST call (a fresh one is accepted)' },
  { id: 'xproto02-used-soap-token-refused-rest', breaks: ['XPROTO-02'], description: 'refuses a TokenCreateRQ token on the REST APIs once it has served a SOAP call (a fresh one is accepted)' },
  { id: 'xproto02-soap-token-refused-rest', breaks: ['XPROTO-02'], description: 'refuses TokenCreateRQ tokens as REST bearer tokens' },
  { id: 'xproto02-prod-soap-token-refused-rest', breaks: ['XPROTO-02'], description: 'refuses TokenCreateRQ tokens on the REST APIs of PROD (CERT serves them)' },
  { id: 'xproto02-probe-only', breaks: ['XPROTO-02'], description: 'takes TokenCreateRQ tokens as bearer tokens on the themes API alone (the default REST probe); its other REST APIs refuse them, while taking REST tokens' },
  { id: 'xproto02-soap-token-400', breaks: ['XPROTO-02'], description: 'answers a TokenCreateRQ token on the REST APIs with 400 invalid_request (RFC 6750), while a REST token on the same request is served (a route-taker of the defect-pair self-test)' },
  { id: 'xproto03-separate-soap-password', breaks: ['XPROTO-03'], description: 'authenticates SOAP with a password of its own, not the account\'s' },
  { id: 'access01-session-only-takes-rest-tokens', breaks: ['ACCESS-01'], description: 'lets session-only actions accept sessionless tokens obtained through REST (while refusing TokenCreateRQ ones): a REST token is a sessionless token too' },
  { id: 'access01-session-only-takes-sessionless', breaks: ['ACCESS-01'], description: 'lets session-only actions (business ones and the Refresh Session ping) accept sessionless tokens' },
  { id: 'access01-prod-session-only-takes-sessionless', breaks: ['ACCESS-01'], description: 'its session-only SOAP actions accept sessionless tokens in PROD (CERT refuses them)' },
  { id: 'access01-amendment-rest-api-refused', breaks: ['ACCESS-01'], description: 'refuses every token on its REST API that needs a contractual amendment, those of accounts with the amendment too (a token kind the API is declared to take is refused)' },
  { id: 'access02-any-agency', breaks: ['ACCESS-02'], description: 'lets any agency call agency-specific APIs' },
  { id: 'access02-soap-token-any-agency', breaks: ['ACCESS-02'], description: 'lets any agency call agency-specific REST APIs with a TokenCreateRQ token (REST tokens of another agency are refused)' },
  { id: 'access03-portal-in-prod', breaks: ['ACCESS-03'], description: 'lets developer-portal credentials obtain a token in PROD that PROD\'s public APIs accept (they are to reach only the public REST APIs of the test environment)' },
  { id: 'access03-portal-everywhere', breaks: ['ACCESS-03'], description: 'lets developer-portal credentials reach every API' },
  // Gateways in front of the service: deviations of a gateway's own making are judged like the service's own.
  { id: 'err01-gateway-401-page', breaks: ['ERR-01', 'ERR-03'], description: 'is behind a gateway that answers a token request without an Authorization header itself, with an HTML 401 page (no invalid_client; ERR-03 also asks every token error for a JSON body)' },
  { id: 'err02-gateway-uniform-401', breaks: ['ERR-02', 'ERR-01'], description: 'is behind a gateway that rewrites every 401 of the token endpoint into one body ("Client authentication failed"): ERR-01\'s answers do not say the credentials are missing or malformed, and ERR-02\'s cannot be told from them' },
  { id: 'api01-gateway-cached-401', breaks: ['API-01'], description: 'is behind a gateway that caches a REST API\'s 401 under a key without the Authorization header: the next three requests to that API in that environment get the same 401, those with a valid token too' },
  { id: 'err04-gateway-fault-page', breaks: ['ERR-04', 'STOK-03', 'SOAP-02'], description: 'is behind a gateway that replaces every SOAP fault with an HTML 500 page (a refusal can then not be told from anything else: the rules that need one are skipped after ERR-04)' },
  { id: 'access04-no-amendment-check', breaks: ['ACCESS-04'], description: 'serves amendment-only APIs to accounts without the amendment' },
  { id: 'access04-session-bypass', breaks: ['ACCESS-04'], description: 'serves amendment-only SOAP APIs to accounts without the amendment when they call with a session token (sessionless tokens are refused)' },
] as const satisfies readonly Defect[];

export type DefectId = (typeof defects)[number]['id'];

const ids = new Set<string>(defects.map((d) => d.id));

export function isDefectId(value: string): value is DefectId {
  return ids.has(value);
}

export function defectsBreaking(rule: RuleId): Defect[] {
  return defects.filter((d) => (d.breaks as readonly RuleId[]).includes(rule));
}

export class UnknownDefectError extends Error {
  readonly code = 'UNKNOWN_DEFECT';
  constructor(readonly defect: string) {
    super(`unknown simulator defect "${defect}"; known defects: ${[...ids].join(', ')}`);
    this.name = 'UnknownDefectError';
  }
}

/** Checks a list of defect names, throwing {@link UnknownDefectError} for one that does not exist. */
export function parseDefects(names: readonly string[]): ReadonlySet<DefectId> {
  for (const name of names) if (!isDefectId(name)) throw new UnknownDefectError(name);
  return new Set(names as readonly DefectId[]);
}

/**
 * The defects of one simulator, remembering which were asked about ({@link ConsultedSet}): the simulator deviates
 * only where it asks `has(id)`.
 */
export class ConsultedDefects extends ConsultedSet<DefectId> {}
