import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "LIFE", title: "token lifetime" };

export const rules: readonly Rule[] = [
  {
    id: "LIFE-01",
    area: "LIFE",
    side: "service",
    level: "MUST",
    where: "sim",
    statement: "A sessionless token is valid until `expires_in` seconds after it was issued and refused afterwards.",
    source: { section: "States and transitions › Sessionless token (REST or SOAP)", quote: "valid — Elapse of `expires_in` (604800 s) — Lifetime passed — expired" },
    clauses: [
      { id: "LIFE-01.valid-until-expiry", text: "A sessionless token from `POST /v2/auth/token` is accepted until `expires_in` seconds after it was issued.", needs: "control of the target's clock" },
      { id: "LIFE-01.refused-after-expiry", text: "It is refused once `expires_in` seconds have passed.", needs: "control of the target's clock" },
      { id: "LIFE-01.soap-sessionless", text: "A sessionless token from `TokenCreateRQ` has the same lifetime: accepted before, refused after.", needs: "control of the target's clock" },
      { id: "LIFE-01.rest-token-in-soap", text: "A token from `POST /v2/auth/token` has the same lifetime in SOAP: accepted in `wsse:BinarySecurityToken` until `expires_in` seconds after it was issued, refused after.", needs: "control of the target's clock" },
      { id: "LIFE-01.soap-token-in-rest", text: "A token from `TokenCreateRQ` has the same lifetime as a REST bearer token: accepted until `expires_in` seconds after it was issued, refused after.", needs: "control of the target's clock" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "LIFE-02", "STOK-01", "STOK-02", "SOAP-02", "XPROTO-01", "XPROTO-02", "XPROTO-03", "ERR-04"],
    latitudes: ["api-refusal-shape", "fault-texts", "api-token-kinds"],
  },
  {
    id: "LIFE-02",
    area: "LIFE",
    side: "service",
    level: "MUST",
    where: "sim",
    statement: "Refresh is obtaining a new token: after the old token expired, a newly requested token works.",
    source: { section: "Authentication › Rules for the REST token request", quote: "When the token expires, request a new one (token refresh is by obtaining a new token)." },
    clauses: [
      { id: "LIFE-02.new-token-works", text: "After the old token expired, a newly requested token is a new one and works.", needs: "control of the target's clock" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01"],
    latitudes: ["token-format"],
  },
  {
    id: "LIFE-03",
    area: "LIFE",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "When its token has expired or is refused as invalid, the client obtains a new token and goes on; it does not keep sending the refused token.",
    source: { section: "States and transitions › Sessionless token (REST or SOAP)", quote: "The token must be refreshed by requesting a new one" },
    clauses: [
      { id: "LIFE-03.after-expiry", text: "When its token has expired, the client obtains a new token and goes on." },
      { id: "LIFE-03.after-refusal", text: "When its token is refused as invalid, the client obtains a new token and does not send the refused one again." },
    ],
    dependsOn: ["CRED-01", "CRED-02", "REST-01", "API-03", "SOAP-01", "SOAP-03", "SOAP-04"],
    latitudes: ["refused-call-reported", "kept-token", "rest-token-for-soap"],
  },
];
