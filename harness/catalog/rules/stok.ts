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
    clauses: [
      { id: "STOK-01.action", text: "`TokenCreateRQ` with valid credentials is answered with action `TokenCreateRS`." },
      { id: "STOK-01.token", text: "`wsse:BinarySecurityToken` of the answer holds a token." },
      { id: "STOK-01.sessionless", text: "The token is sessionless: no session is allocated for it.", needs: "a look inside the target (the simulator's session count)" },
      { id: "STOK-01.conversation-id", text: "The answer echoes the request's ConversationId." },
      { id: "STOK-01.ref-to-message-id", text: "The answer's RefToMessageId is the request's MessageId." },
    ],
    dependsOn: ["CRED-03", "XPROTO-03"],
    latitudes: ["soap-header-details", "soap-response-bodies", "token-format"],
  },
  {
    id: "STOK-02",
    area: "STOK",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "`SessionCreateRQ` with valid credentials is answered with action `SessionCreateRS`; `wsse:BinarySecurityToken` holds a session token; ConversationId is echoed.",
    source: { section: "Endpoints › SOAP operations for tokens; Resources and their fields › SOAP token carriers", quote: "Create Session — `SessionCreateRQ` — Response action `SessionCreateRS`; wsse:BinarySecurityToken holds the session token; eb:ConversationId if applicable. eb:ConversationId — Optional caller-created identifier carried through one traveler workflow (for tracking search-to-book); echoed in responses" },
    clauses: [
      { id: "STOK-02.action", text: "`SessionCreateRQ` with valid credentials is answered with action `SessionCreateRS`." },
      { id: "STOK-02.token", text: "`wsse:BinarySecurityToken` of the answer holds a session token." },
      { id: "STOK-02.conversation-id", text: "The answer echoes the request's ConversationId." },
    ],
    dependsOn: ["CRED-03", "STOK-01", "XPROTO-03"],
    latitudes: ["soap-header-details", "soap-response-bodies", "token-format"],
  },
  {
    id: "STOK-03",
    area: "STOK",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "A token-creating request with wrong or missing UsernameToken credentials is refused with a SOAP fault and returns no token (fault code: INFO, publicly seen as `Client.AuthenticationFailed`).",
    source: { section: "What the service does", quote: "Credentials are issued by the operator's account manager. They determine (a) whether a token may be obtained" },
    clauses: [
      { id: "STOK-03.refused", text: "A token-creating request with wrong or missing UsernameToken credentials is answered with a SOAP fault." },
      { id: "STOK-03.no-token", text: "That fault carries no token." },
    ],
    dependsOn: ["CRED-03", "STOK-01", "XPROTO-03"],
    latitudes: ["other-fault-codes", "fault-status", "gateway-errors"],
  },
];
