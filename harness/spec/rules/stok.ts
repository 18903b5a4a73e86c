import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "STOK", title: "SOAP token operations" };

export const rules: readonly Rule[] = [
  {
    id: "STOK-01",
    area: "STOK",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "`TokenCreateRQ` with valid credentials is answered with action `TokenCreateRS`; `wsse:BinarySecurityToken` holds a sessionless token; ConversationId is echoed; RefToMessageId is the request's MessageId.",
    source: { section: "Endpoints › SOAP operations for tokens", quote: "Create Access Token — `TokenCreateRQ` — Response action `TokenCreateRS`; wsse:BinarySecurityToken holds the sessionless token; eb:ConversationId echoed; eb:RefToMessageId refers to the request MessageId" },
  },
  {
    id: "STOK-02",
    area: "STOK",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "`SessionCreateRQ` with valid credentials is answered with action `SessionCreateRS`; `wsse:BinarySecurityToken` holds a session token; ConversationId is echoed.",
    source: { section: "Endpoints › SOAP operations for tokens", quote: "Create Session — `SessionCreateRQ` — Response action `SessionCreateRS`; wsse:BinarySecurityToken holds the session token; eb:ConversationId if applicable" },
  },
  {
    id: "STOK-03",
    area: "STOK",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A token-creating request with wrong or missing UsernameToken credentials is refused with a SOAP fault and returns no token (fault code: INFO, publicly seen as `Client.AuthenticationFailed`).",
    source: { section: "What the service does", quote: "Credentials are issued by the operator's account manager. They determine (a) whether a token may be obtained" },
  },
];
