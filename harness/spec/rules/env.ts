import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "ENV", title: "environment isolation" };

export const rules: readonly Rule[] = [
  {
    id: "ENV-01",
    area: "ENV",
    side: "service",
    level: "MUST",
    where: "opt-in",
    statement: "A token obtained in CERT is refused by PROD and the reverse, as a REST bearer token and as a SOAP BinarySecurityToken. (Live: needs credentials for both environments.)",
    source: { section: "Authentication › Cross-cutting rules", quote: "A token is only valid in the environment where it was obtained (a test-environment token cannot call production, and the reverse)." },
  },
  {
    id: "ENV-02",
    area: "ENV",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The client requests its token from the environment it calls and never sends one environment's token to the other.",
    source: { section: "Endpoints › Token endpoint (REST)", quote: "A token must be requested from the environment it is used in." },
  },
  {
    id: "ENV-03",
    area: "ENV",
    side: "service",
    level: "MUST",
    where: "opt-in",
    statement: "Credentials that are valid in only one environment obtain no token in the other.",
    source: { section: "What the service does", quote: "Credentials … determine (a) whether a token may be obtained, (b) which environments are reachable" },
  },
];
