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
    clauses: [
      { id: "ENV-01.rest-bearer", text: "A REST token from one environment is refused as a bearer token by the other (both directions).", needs: "both environments in the target config" },
      { id: "ENV-01.soap-sessionless", text: "A sessionless token from one environment is refused in the BinarySecurityToken by the other's SOAP service.", needs: "both environments in the target config" },
      { id: "ENV-01.soap-session", text: "A session token from one environment is refused by the other's SOAP service.", needs: "both environments in the target config" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "LIFE-02", "STOK-01", "SESS-01", "XPROTO-02", "XPROTO-03"],
    latitudes: ["api-refusal-shape", "other-fault-codes", "api-token-kinds"],
  },
  {
    id: "ENV-02",
    area: "ENV",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The client requests its token from the environment it calls and never sends one environment's token to the other.",
    source: { section: "Endpoints › Token endpoint (REST)", quote: "A token must be requested from the environment it is used in." },
    clauses: [
      { id: "ENV-02.token-from-called-environment", text: "The client requests the token it uses in an environment from that environment." },
      { id: "ENV-02.no-cross-environment-token", text: "The client never sends one environment's token to the other." },
    ],
    dependsOn: ["CRED-01", "CRED-02", "REST-01", "SOAP-03", "SOAP-04"],
    latitudes: [],
  },
  {
    id: "ENV-03",
    area: "ENV",
    side: "service",
    level: "MUST",
    where: "opt-in",
    statement: "Credentials that are valid in only one environment obtain no token in the other.",
    source: { section: "What the service does", quote: "Credentials … determine (a) whether a token may be obtained, (b) which environments are reachable" },
    clauses: [
      { id: "ENV-03.rest", text: "Credentials valid in only one environment obtain no REST token in the other.", needs: "an account valid in one environment only" },
      { id: "ENV-03.soap", text: "Credentials valid in only one environment obtain no SOAP token or session in the other.", needs: "an account valid in one environment only" },
    ],
    dependsOn: ["CRED-03", "REST-03", "STOK-01", "XPROTO-03"],
    latitudes: ["other-fault-codes", "error-description-wording"],
  },
];
