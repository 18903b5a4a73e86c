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
  },
  {
    id: "LIFE-02",
    area: "LIFE",
    side: "service",
    level: "MUST",
    where: "sim",
    statement: "Refresh is obtaining a new token: after the old token expired, a newly requested token works.",
    source: { section: "Authentication › Rules for the REST token request", quote: "When the token expires, request a new one (token refresh is by obtaining a new token)." },
  },
  {
    id: "LIFE-03",
    area: "LIFE",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "When its token has expired or is refused as invalid, the client obtains a new token and goes on; it does not keep sending the refused token.",
    source: { section: "States and transitions › Sessionless token (REST or SOAP)", quote: "The token must be refreshed by requesting a new one" },
  },
];
