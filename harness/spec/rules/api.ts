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
  },
  {
    id: "API-02",
    area: "API",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A request with a missing, malformed or unknown bearer token is refused (status and body: INFO, publicly seen as 401 with `ERR.2SG.SEC.INVALID_CREDENTIALS`).",
    source: { section: "What the service does", quote: "Every call to a published API is authorized by a security token that the caller first obtains from the service." },
  },
  {
    id: "API-03",
    area: "API",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The client calls APIs with `Authorization: Bearer <access_token>` (scheme `Bearer`, one space), an upper-case method, on the base URL of the environment the token came from.",
    source: { section: "Endpoints › Calling a published REST API", quote: "Method: Upper case; URL: `{base_url}` or `{test_base_url}` plus the API path; Header: `Authorization: Bearer <ACCESS_TOKEN>`" },
  },
  {
    id: "API-04",
    area: "API",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The client reuses its token: while the token is valid it requests no new one, however many calls it makes.",
    source: { section: "Authentication › Rules for the REST token request", quote: "Reuse the same token until it expires." },
  },
  {
    id: "API-05",
    area: "API",
    side: "client",
    level: "SHOULD",
    where: "any",
    statement: "Concurrent first calls of a client that holds no token cause one token request, not one each.",
    source: { section: "States and transitions › Sessionless token (REST or SOAP)", quote: "The same token is reused for many requests until it expires" },
  },
];
