import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "XPROTO", title: "one token, two protocols" };

export const rules: readonly Rule[] = [
  {
    id: "XPROTO-01",
    area: "XPROTO",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A sessionless token from `POST /v2/auth/token` is accepted in `wsse:BinarySecurityToken` by SOAP APIs that accept sessionless tokens.",
    source: { section: "Authentication › Cross-cutting rules", quote: "A sessionless token obtained through REST can also be used to call SOAP APIs, and the reverse." },
    clauses: [
      { id: "XPROTO-01.rest-token-in-soap", text: "A token from `POST /v2/auth/token` is accepted in `wsse:BinarySecurityToken` by a SOAP API that accepts the SOAP sessionless token.", needs: "a SOAP action that accepts sessionless tokens (probes.soapSessionless)" },
    ],
    dependsOn: ["CRED-03", "LIFE-02", "STOK-01", "XPROTO-03"],
    latitudes: ["api-token-kinds"],
  },
  {
    id: "XPROTO-02",
    area: "XPROTO",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A sessionless token from `TokenCreateRQ` is accepted as a REST bearer token.",
    source: { section: "Authentication › Cross-cutting rules", quote: "A sessionless token obtained through REST can also be used to call SOAP APIs, and the reverse." },
    clauses: [
      { id: "XPROTO-02.soap-token-in-rest", text: "A token from `TokenCreateRQ` is accepted as a bearer token by a REST API that accepts the REST token.", needs: "a REST API that answers 2xx (probes.rest)" },
    ],
    dependsOn: ["CRED-03", "REST-03", "API-01", "STOK-01", "XPROTO-03"],
    latitudes: ["api-refusal-shape"],
  },
  {
    id: "XPROTO-03",
    area: "XPROTO",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "The same account (PCC, EPR, password) authenticates on REST and on SOAP; only the domain value and the construction differ.",
    source: { section: "Authentication › Cross-cutting rules", quote: "The same token credentials (PCC, EPR and so on) serve REST and SOAP; the differences are the domain and the way the credentials are built." },
    clauses: [
      { id: "XPROTO-03.same-account", text: "The same EPR, PCC and password obtain a REST token (with the REST domain) and a SOAP token (with the SOAP domain)." },
    ],
    dependsOn: ["CRED-03", "STOK-01"],
    latitudes: ["other-fault-codes"],
  },
];
