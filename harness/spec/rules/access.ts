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
  },
  {
    id: "ACCESS-02",
    area: "ACCESS",
    side: "service",
    level: "MUST",
    where: "opt-in",
    statement: "Agency-specific APIs refuse tokens obtained with another agency's PCC.",
    source: { section: "Authentication › Cross-cutting rules", quote: "The access granted to an agency's subset of APIs depends on the PCC and EPR used in the credentials; with a wrong PCC the agency-specific APIs are not accessible." },
  },
  {
    id: "ACCESS-03",
    area: "ACCESS",
    side: "service",
    level: "SHOULD",
    where: "opt-in",
    statement: "Developer-portal test credentials reach only the public REST APIs of CERT.",
    source: { section: "Authentication › Cross-cutting rules", quote: "these are test credentials, not permanent, and only reach the publicly available REST APIs of the test environment." },
  },
  {
    id: "ACCESS-04",
    area: "ACCESS",
    side: "service",
    level: "MUST",
    where: "sim",
    statement: "An API that needs a contractual amendment (for example the air low-fare shop) refuses tokens of accounts without it.",
    source: { section: "Authentication › Cross-cutting rules", quote: "Some APIs (for example the air low-fare shop) require a separate contractual amendment in addition to a token." },
  },
];
