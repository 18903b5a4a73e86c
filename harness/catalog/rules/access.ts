import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "ACCESS", title: "what a token may reach" };

export const rules: readonly Rule[] = [
  {
    id: "ACCESS-01",
    area: "ACCESS",
    side: "service",
    level: "MUST",
    where: "sim",
    statement: "An API that does not accept sessionless tokens refuses them and accepts a session token; each API's accepted token kinds follow its declaration.",
    source: { section: "Authentication › Cross-cutting rules", quote: "Not every API accepts sessionless tokens." },
    clauses: [
      { id: "ACCESS-01.sessionless-refused", text: "An API that does not accept sessionless tokens refuses them.", needs: "the token kinds of at least one session-only API (declared in the target config)" },
      { id: "ACCESS-01.declared-kinds-accepted", text: "Each API accepts the token kinds it declares.", needs: "the token kinds of the APIs (declared in the target config)" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "STOK-01", "SESS-01", "SESS-02", "XPROTO-02", "XPROTO-03"],
    latitudes: ["api-token-kinds", "api-refusal-shape", "other-fault-codes"],
  },
  {
    id: "ACCESS-02",
    area: "ACCESS",
    side: "service",
    level: "MUST",
    where: "opt-in",
    statement: "Agency-specific APIs refuse tokens obtained with another agency's PCC.",
    source: { section: "Authentication › Cross-cutting rules", quote: "The access granted to an agency's subset of APIs depends on the PCC and EPR used in the credentials; with a wrong PCC the agency-specific APIs are not accessible." },
    clauses: [
      { id: "ACCESS-02.other-agency-refused", text: "Agency-specific APIs refuse tokens obtained with another agency's PCC.", needs: "another agency's account and agency-specific APIs (declared in the target config)" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "STOK-01", "XPROTO-02", "XPROTO-03"],
    latitudes: ["api-refusal-shape", "other-fault-codes"],
  },
  {
    id: "ACCESS-03",
    area: "ACCESS",
    side: "service",
    level: "SHOULD",
    where: "opt-in",
    statement: "Developer-portal test credentials reach only the public REST APIs of CERT.",
    source: { section: "Authentication › Cross-cutting rules", quote: "these are test credentials, not permanent, and only reach the publicly available REST APIs of the test environment." },
    clauses: [
      { id: "ACCESS-03.public-reached", text: "Developer-portal test credentials reach the public REST APIs of CERT.", needs: "developer-portal credentials (declared in the target config)" },
      { id: "ACCESS-03.only-public", text: "They reach no other API.", needs: "developer-portal credentials and a non-public API (declared in the target config)" },
      { id: "ACCESS-03.cert-only", text: "They reach no API of PROD: PROD gives them no token, or none that its APIs accept.", needs: "developer-portal credentials and a PROD environment (in the target config)" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01"],
    latitudes: ["api-refusal-shape", "other-fault-codes"],
  },
  {
    id: "ACCESS-04",
    area: "ACCESS",
    side: "service",
    level: "MUST",
    where: "sim",
    statement: "An API that needs a contractual amendment (for example the air low-fare shop) refuses tokens of accounts without it.",
    source: { section: "Authentication › Cross-cutting rules", quote: "Some APIs (for example the air low-fare shop) require a separate contractual amendment in addition to a token." },
    clauses: [
      { id: "ACCESS-04.amendment-refused", text: "An API that needs a contractual amendment refuses tokens of accounts without it.", needs: "an account without the amendment and the APIs that need it (declared in the target config)" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "STOK-01", "SESS-02", "XPROTO-02", "XPROTO-03"],
    latitudes: ["api-refusal-shape", "other-fault-codes"],
  },
];
