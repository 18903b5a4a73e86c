import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "REST", title: "the token endpoint" };

export const rules: readonly Rule[] = [
  {
    id: "REST-01",
    area: "REST",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The token request is `POST /v2/auth/token` with `Content-Type: application/x-www-form-urlencoded` and the form field `grant_type=client_credentials`.",
    source: { section: "Endpoints › Token endpoint (REST)", quote: "`POST {base_url}/v2/auth/token` … header Content-Type: `application/x-www-form-urlencoded`; body (form) grant_type: `client_credentials`" },
    clauses: [
      { id: "REST-01.method-path", text: "The token request is `POST` to exactly `/v2/auth/token` on the environment's base URL." },
      { id: "REST-01.content-type", text: "It carries `Content-Type: application/x-www-form-urlencoded`." },
      { id: "REST-01.grant-type", text: "Its form body has `grant_type=client_credentials`." },
    ],
    dependsOn: [],
    latitudes: [],
  },
  {
    id: "REST-02",
    area: "REST",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "The form field `source_ip` is optional: a valid request is answered the same with or without it.",
    source: { section: "Authentication › Rules for the REST token request", quote: "The form field `source_ip` is optional." },
    clauses: [
      { id: "REST-02.source-ip", text: "A valid request with the form field `source_ip` is answered as one without it (status, fields, token type, lifetime)." },
    ],
    dependsOn: ["CRED-03", "REST-03"],
    latitudes: ["token-format", "token-extra-fields", "throttling", "gateway-errors"],
  },
  {
    id: "REST-03",
    area: "REST",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A valid request is answered with a JSON object: `access_token` a non-empty string, `token_type` exactly `bearer`, `expires_in` the integer `604800`.",
    source: { section: "Resources and their fields › Access token response (REST)", quote: "access_token: The token to send with every later REST call; token_type: Always the value `bearer`; expires_in: Lifetime of the token in seconds; the value is 604800" },
    clauses: [
      { id: "REST-03.json-object", text: "A valid request is answered with a JSON object." },
      { id: "REST-03.access-token", text: "`access_token` is a non-empty string." },
      { id: "REST-03.token-type", text: "`token_type` is exactly `bearer`." },
      { id: "REST-03.expires-in", text: "`expires_in` is the JSON integer `604800`." },
    ],
    dependsOn: ["CRED-03"],
    latitudes: ["token-format", "token-extra-fields", "json-content-type-parameters", "extra-response-headers"],
  },
  {
    id: "REST-04",
    area: "REST",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "One call yields one token: N successful calls yield N distinct tokens, each of them usable.",
    source: { section: "Authentication › Cross-cutting rules", quote: "One call to an authentication API yields one token; fifty calls yield fifty tokens." },
    clauses: [
      { id: "REST-04.distinct", text: "N successful calls to an authentication API (the token endpoint, TokenCreateRQ, SessionCreateRQ) yield N distinct tokens." },
      { id: "REST-04.usable", text: "Each of those tokens is usable on an API." },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "STOK-01", "XPROTO-03"],
    latitudes: ["token-format"],
  },
  {
    id: "REST-05",
    area: "REST",
    side: "service",
    level: "SHOULD",
    where: "any",
    statement: "A successful token response has HTTP status 200 and a JSON content type (RFC 6749 §5.1).",
    source: { section: "Endpoints › Token endpoint (REST)", quote: "Response (valid request): JSON object with `access_token`, `token_type`, `expires_in` (see Resources)." },
    see: "RFC 6749 §5.1",
    clauses: [
      { id: "REST-05.status-200", text: "A successful token response has HTTP status 200." },
      { id: "REST-05.json-content-type", text: "It has a JSON content type." },
    ],
    dependsOn: ["CRED-03"],
    latitudes: ["json-content-type-parameters", "extra-response-headers"],
  },
];
