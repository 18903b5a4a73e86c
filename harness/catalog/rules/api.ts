import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "API", title: "calling published REST APIs" };

export const rules: readonly Rule[] = [
  {
    id: "API-01",
    area: "API",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A published REST API accepts `Authorization: Bearer <access_token>` with a valid token, and the same token keeps working for many requests until it expires.",
    source: { section: "Authentication › Rules for the REST token request", quote: "Read `access_token` from the response and send `Authorization: Bearer <ACCESS_TOKEN>` on every later REST call. Reuse the same token until it expires." },
    clauses: [
      { id: "API-01.accepted", text: "A published REST API accepts `Authorization: Bearer <access_token>` with a valid token." },
      { id: "API-01.reused", text: "The same token keeps working for many requests." },
    ],
    dependsOn: ["CRED-03", "REST-03"],
    latitudes: ["api-token-kinds", "timing"],
  },
  {
    id: "API-02",
    area: "API",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A request with a missing, malformed or unknown bearer token is refused (status and body: INFO, publicly seen as 401 with `ERR.2SG.SEC.INVALID_CREDENTIALS`).",
    source: { section: "What the service does", quote: "Every call to a published API is authorized by a security token that the caller first obtains from the service." },
    clauses: [
      { id: "API-02.missing", text: "A request without an Authorization header is refused." },
      { id: "API-02.malformed", text: "A request with a malformed bearer header (no token, another scheme, no space) is refused." },
      { id: "API-02.unknown", text: "A request with an unknown or tampered token is refused." },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01"],
    latitudes: ["api-refusal-shape"],
  },
  {
    id: "API-03",
    area: "API",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The client calls APIs with `Authorization: Bearer <access_token>` (scheme `Bearer`, one space), an upper-case method, on the base URL of the environment the token came from.",
    source: { section: "Endpoints › Calling a published REST API", quote: "Method: Upper case; URL: `{base_url}` or `{test_base_url}` plus the API path; Header: `Authorization: Bearer <ACCESS_TOKEN>`" },
    clauses: [
      { id: "API-03.bearer-scheme", text: "The client sends `Authorization: Bearer <access_token>`: scheme `Bearer`, one space, the token as issued." },
      { id: "API-03.upper-case-method", text: "The method is upper case." },
      { id: "API-03.environment-base-url", text: "The call goes to the base URL of the environment the token came from." },
    ],
    dependsOn: ["CRED-01", "CRED-02", "REST-01"],
    latitudes: ["kept-token"],
  },
  {
    id: "API-04",
    area: "API",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The client reuses its token: while the token is valid it requests no new one, however many calls it makes.",
    source: { section: "Authentication › Rules for the REST token request", quote: "Reuse the same token until it expires." },
    clauses: [
      { id: "API-04.reuse", text: "While its token is valid the client requests no new one, however many calls it makes." },
    ],
    dependsOn: ["CRED-01", "CRED-02", "REST-01", "API-03"],
    latitudes: ["renew-ahead", "token-per-environment"],
  },
  {
    id: "API-05",
    area: "API",
    side: "client",
    level: "SHOULD",
    where: "any",
    statement: "Concurrent first calls of a client that holds no token cause one token request, not one each.",
    source: { section: "States and transitions › Sessionless token (REST or SOAP)", quote: "The same token is reused for many requests until it expires" },
    clauses: [
      { id: "API-05.single-flight", text: "Concurrent first calls of a client without a token cause one token request." },
    ],
    dependsOn: ["CRED-01", "CRED-02", "REST-01", "API-03"],
    latitudes: ["token-per-environment"],
  },
];
