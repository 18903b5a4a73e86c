import type { Latitude } from './types.ts';

/**
 * The freedoms the interface document leaves a conforming service or client: each with the sentence (or the
 * silence) that allows it. Rules name the ones their checks must accept (`Rule.latitudes`); the simulator's latitude
 * profiles (`harness/sim/latitude.ts`) vary every service-side one, and a property runs the whole service suite over
 * random profiles (zero fail, warn or error). A SHOULD of the catalog is never a latitude: missing it is a `warn`.
 */
export const latitudes: readonly Latitude[] = [
  // REST token endpoint
  {
    id: 'token-format',
    text: 'The access token is any non-empty string: its alphabet, shape and length are the service\'s own (`T1RLAQ…*` is what the public service sends).',
    basis: 'Access token response: `access_token` is a "string"; its format is not shown.',
  },
  {
    id: 'token-extra-fields',
    text: 'The token response may carry JSON fields beyond `access_token`, `token_type` and `expires_in`, in any order, and any JSON formatting.',
    basis: 'The Access token response table lists three required fields; it forbids no others, and JSON objects are unordered.',
  },
  {
    id: 'json-content-type-parameters',
    text: 'A JSON answer may name its type as `application/json` with or without parameters (`;charset=UTF-8`), in any letter case.',
    basis: 'Not shown: the document names no media type parameters (RFC 8259 §11 registers `application/json`).',
  },
  {
    id: 'extra-response-headers',
    text: 'Answers may carry HTTP headers the document does not name (`Cache-Control`, `Pragma`, tracing headers).',
    basis: 'Not shown: response headers are not listed.',
  },
  {
    id: 'error-description-wording',
    text: 'The wording of `error_description` is free as long as it says what the Errors table says: credentials missing or of wrong syntax, or a wrong client ID or secret.',
    basis: 'Errors › REST token endpoint: "Text stating that credentials are missing or the syntax is not correct" / "Text stating wrong client ID or client secret" (the text is described, not fixed).',
  },
  {
    id: 'other-token-errors',
    text: 'A token request that is not a credentials problem (a wrong `grant_type`, another Content-Type) may be answered with any 4xx and any OAuth `error` code; only `invalid_client` answers must be 401.',
    basis: '"HTTP status codes of these error responses and the full list of authentication errors: not shown." (ERR-03 makes `invalid_client` 401 a SHOULD.)',
  },
  {
    id: 'content-type-leniency',
    text: 'A token request without the form Content-Type may be refused (any 4xx) or served as if it had it.',
    basis: 'The Content-Type header is required of the client; what the service does without it is not shown.',
  },
  {
    id: 'api-refusal-shape',
    text: 'A published API refuses a token with 401 or 403 and a body of its own (the public service sends `ERR.2SG.SEC.INVALID_CREDENTIALS` JSON).',
    basis: '"Request and response payloads of these endpoints: not shown." (the published ones); the document says nothing of how a published API refuses a token.',
  },
  {
    id: 'timing',
    text: 'Answers may take time (within the request time limit); nothing is required of their timing.',
    basis: '"Rate limits and quotas per call: not shown." The document states no time for any answer.',
  },
  {
    id: 'throttling',
    text: 'The service, or a gateway in front of it, may refuse to process a request now: a 429 (with or without `Retry-After`), a 503 (any body), or a SOAP busy fault. The harness waits and sends the same request again; a throttled answer is never judged as the answer to a rule\'s request.',
    basis: '"Rate limits and quotas per call: not shown." The document states no time for any answer.',
  },
  {
    id: 'gateway-errors',
    text: 'A gateway in front of the service may answer a request now and then with a 502 (Bad Gateway) or a 504 (Gateway Timeout) of its own: the service behind it did not answer that request, or not in time. The harness sends the same request again, at most twice, and judges only an answer that came back every time (a `SessionCreateRQ` it sends again too, counting each page as a session that may have opened behind it: pool verdicts such a session could explain are then unchecked).',
    basis: 'The document gives the service no 502 or 504 answer, and says nothing of what is in front of it; RFC 9110 (§15.6.3, §15.6.5) makes both statuses a gateway\'s report of its upstream.',
  },
  // REST clients
  {
    id: 'renew-ahead',
    side: 'client',
    text: 'A client may request its next token shortly before its token expires: within the last tenth of the token\'s lifetime or its last 300 s, whichever is longer.',
    basis: '"Reuse the same token until it expires": the client learns the lifetime from `expires_in`, counted from when it received the answer, not from the service\'s clock; the document does not say how close to the end a client must wait.',
  },
  {
    id: 'token-per-environment',
    side: 'client',
    text: 'A client configured for several environments may obtain a token from each of them, ahead of its calls: a token held for one environment is no reason not to request one from the other.',
    basis: '"A token must be requested from the environment it is used in"; "Reuse the same token until it expires" speaks of the token a call uses, which is the environment\'s own.',
  },
  {
    id: 'kept-token',
    side: 'client',
    text: 'A client may start with a token it kept from an earlier run (a cache that outlives its process) and send it before it requests one: the service, which may not know it, refuses it, and the client then obtains a new one.',
    basis: '"Reuse the same token until it expires" (604800 s): nothing ties a token to the process that obtained it. "The token as issued" can be judged only on a token the service issued to the client.',
  },
  {
    id: 'rest-token-for-soap',
    side: 'client',
    text: 'A client may call the SOAP APIs that take sessionless tokens with its REST token instead of a TokenCreateRQ token, and renew it, when it expires or is refused, at the REST token endpoint.',
    basis: '"A sessionless token obtained through REST can also be used to call SOAP APIs, and the reverse"; "When the token expires, request a new one": which of the two requests gives the new one is not said.',
  },
  {
    id: 'refused-call-reported',
    side: 'client',
    text: 'When a call is refused for its token, a client may report that call\'s refusal to its caller and use a new token from the next call on, or obtain one at once and send the call again.',
    basis: '"When the token expires, request a new one (token refresh is by obtaining a new token)": whether the refused call is sent again is not said.',
  },
  // SOAP
  {
    id: 'session-close-timing',
    side: 'client',
    text: 'A client may keep a session open after its caller is done with it or after a call in it failed (a pool of its own), and close it later: at the end of its work, or at its shutdown at the latest.',
    basis: '"A server-side session is allocated and must be closed": when is not said. The session stays usable after a refused business call.',
  },
  {
    id: 'conversation-per-workflow',
    side: 'client',
    text: 'A session may serve several traveler workflows one after the other (a client\'s pool): each workflow keeps its own ConversationId, so one session\'s requests may carry several. Traffic does not show where a workflow starts and ends.',
    basis: '"eb:ConversationId: Optional caller-created identifier carried through one traveler workflow": a workflow, not a session.',
  },
  {
    id: 'soap-request-extras',
    side: 'client',
    text: 'A client\'s request of a business call or of the Refresh Session ping may carry any body (another OTA namespace, no EchoData); the SessionCloseRQ element, with its POS/Source, may be in any namespace; `eb:version` may have any value; and any request may carry header blocks of other namespaces beside eb:MessageHeader and wsse:Security.',
    basis: '"The payloads of the business endpoints are outside this document"; Refresh Session: "Action code and payload: not shown"; Close Session: "body `SessionCloseRQ` element with a POS/Source element …" names no namespace; the document does not name `eb:version`; "All SOAP calls carry an `eb:MessageHeader` … and a security header" forbids no other header block (SOAP 1.1 allows them).',
  },
  {
    id: 'pool-full-retries',
    side: 'client',
    text: 'A client may retry a SessionCreateRQ refused for a full pool as often as it likes, as long as it pauses before each retry (100 ms or more): only retries sent at once, more than one in a row, make a storm.',
    basis: 'The document warns that unclosed sessions exhaust the pool and says nothing of retries; SESS-08 (a SHOULD of the catalog) asks for no retry storm.',
  },
  {
    id: 'soap-prefixes',
    text: 'Namespace prefixes of the SOAP envelope, the ebXML header and the security header are free (`soap-env`, `SOAP-ENV`, `S`…); only the namespaces count.',
    basis: 'XML Namespaces: a prefix is a local abbreviation; the document names elements by their usual prefixes (`eb:`, `wsse:`) without fixing them.',
  },
  {
    id: 'soap-header-details',
    text: 'What the document does not state of a response\'s header is free: whether it carries From, To, CPAId, Service, MessageId and Timestamp, and their values (the MessageId format, the Timestamp with or without a zone, From/To party IDs), `eb:version`, the attributes of BinarySecurityToken.',
    basis: 'Only the response action, the echoed ConversationId, the RefToMessageId (TokenCreateRS) and the token carrier are stated; the rest of the response header is not shown ("All SOAP calls carry an `eb:MessageHeader` (containing …)" is said of the calls).',
  },
  {
    id: 'soap-response-bodies',
    text: 'The bodies of TokenCreateRS, SessionCreateRS and SessionCloseRS are free (a `Success` element, a status attribute, an empty element, or no element at all), and so is the action of the SessionCloseRQ answer.',
    basis: 'SessionCloseRQ: "Not shown beyond the invalidation of the token"; the bodies of the token responses are not shown.',
  },
  {
    id: 'business-payloads',
    text: 'The body of a business call (a shopping or hotel action, the Refresh Session API), the request a client sends and the answer a service gives, is the business API\'s: any element, in any namespace. Only the envelope and header are the interface\'s (SOAP-01 and SOAP-02 validate those, and the bodies of TokenCreateRQ, SessionCreateRQ, SessionCloseRQ, their answers and faults). A request may also carry header blocks of other namespaces beside eb:MessageHeader and wsse:Security (SOAP 1.1 allows them; the document is silent).',
    basis: '"The payloads of the business endpoints are outside this document." "Request and response payloads of these endpoints: not shown." Refresh Session: "Action code and payload: not shown."',
  },
  {
    id: 'fault-status',
    text: 'A SOAP fault may come with HTTP 500 (SOAP 1.1 over HTTP, and the public service) or 200.',
    basis: '"HTTP status codes of these error responses … not shown."',
  },
  {
    id: 'fault-texts',
    text: 'The faultstring of `Client.InvalidSecurityToken` may word "invalid or expired" as the service likes, as long as it says so and quotes the token; the StackTrace names the invalid-security-token error in the service\'s own words, anywhere in `detail` (in a namespace of its own, or nested).',
    basis: 'Errors › SOAP: "faultstring that states the token is invalid or expired and quotes the token; detail with a StackTrace text naming an invalid-security-token session error" (described, not fixed).',
  },
  {
    id: 'other-fault-codes',
    text: 'Faults other than the invalid-token one (wrong UsernameToken credentials, pool full, an action the service does not offer, garbage) carry codes and texts of the service\'s own.',
    basis: '"the full list of authentication errors: not shown"; only `Client.InvalidSecurityToken` is named.',
  },
  {
    id: 'api-token-kinds',
    text: 'Which SOAP actions and REST APIs a service offers, and which token kinds each accepts, is the service\'s (declared in the target config, `tokenKinds`); an action it does not offer may be refused with a fault of its own.',
    basis: '"Each API accepts the sessionless kind, the session kind, or both. The kind is listed under the authentication type in that API\'s reference." "Not every API accepts sessionless tokens."',
  },
  {
    id: 'session-timeout-per-account',
    text: 'Each account has its own inactivity timeout (15 minutes by default), declared in the target config as `sessionTimeoutSeconds`.',
    basis: 'Session timeout: "Default 15 minutes; set when the credentials are created" (the session token\'s states); default session timeout: "15 minutes; set when the credentials are created; differs per account" (Limits).',
  },
  {
    id: 'pool-size',
    text: 'The size of the session pool is the service\'s (declared in the target config as `sessionPoolSize`).',
    basis: '"Size of the session pool: not shown."',
  },
  {
    id: 'malformed-request-answers',
    text: 'A malformed request (not XML, a truncated envelope, a wrong `grant_type`) may be answered with any error: a SOAP fault with HTTP 500 or 200, or a plain HTTP 4xx or 500.',
    basis: 'What the service answers to malformed requests is not shown (ERR-07 asks only for an answer, in time).',
  },
];

export function findLatitude(id: string): Latitude | undefined {
  return latitudes.find((l) => l.id === id);
}
