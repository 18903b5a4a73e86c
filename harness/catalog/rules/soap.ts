import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "SOAP", title: "envelopes" };

export const rules: readonly Rule[] = [
  {
    id: "SOAP-01",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "Every SOAP request carries `eb:MessageHeader` with From/PartyId, To/PartyId, CPAId, ConversationId, Service, Action and MessageData (MessageId, Timestamp, TimeToLive), and a wsse Security header; it validates against the harness's schemas.",
    source: { section: "Endpoints › SOAP operations for tokens", quote: "All SOAP calls carry an `eb:MessageHeader` (containing From/PartyId, To/PartyId, CPAId, ConversationId, Service, Action, MessageData with MessageId, Timestamp, TimeToLive) and a security header." },
    clauses: [
      { id: "SOAP-01.message-header", text: "Every SOAP request carries `eb:MessageHeader` with From/PartyId, To/PartyId, CPAId, ConversationId, Service, Action and MessageData (MessageId, Timestamp, TimeToLive)." },
      { id: "SOAP-01.security-header", text: "Every SOAP request carries a wsse Security header." },
      { id: "SOAP-01.schema", text: "Every SOAP request validates against the harness's request schema." },
    ],
    latitudes: [],
  },
  {
    id: "SOAP-02",
    area: "SOAP",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "Every SOAP response's envelope and headers validate against the harness's schemas, and so do the bodies of the auth operations' answers (TokenCreateRS, SessionCreateRS, SessionCloseRS, faults); business payloads are outside the document and free. Its MessageHeader carries the response action, echoes ConversationId, and its RefToMessageId is the request's MessageId.",
    source: { section: "Endpoints › SOAP operations for tokens", quote: "Response action `TokenCreateRS`; wsse:BinarySecurityToken holds the sessionless token; eb:ConversationId echoed; eb:RefToMessageId refers to the request MessageId" },
    clauses: [
      { id: "SOAP-02.token-create", text: "The answer to `TokenCreateRQ` validates, carries `TokenCreateRS`, echoes ConversationId and refers to the request's MessageId." },
      { id: "SOAP-02.session-create", text: "The answer to `SessionCreateRQ` validates, carries `SessionCreateRS`, echoes ConversationId and refers to the request's MessageId." },
      { id: "SOAP-02.session-close", text: "The answer to `SessionCloseRQ` validates, carries a response action, echoes ConversationId and refers to the request's MessageId." },
      { id: "SOAP-02.call", text: "The answer to a call with a token (the Refresh Session API, a business action) has an envelope and header that validate (its body is the business API's, not checked), carries a response action, echoes ConversationId and refers to the request's MessageId." },
      { id: "SOAP-02.fault", text: "A fault answer validates, echoes ConversationId and refers to the request's MessageId." },
    ],
    latitudes: ["soap-prefixes", "soap-header-details", "soap-response-bodies", "fault-status", "business-payloads"],
  },
  {
    id: "SOAP-03",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "A token-creating request (`TokenCreateRQ`, `SessionCreateRQ`) carries a UsernameToken with Username (the EPR), Password, Organization (the PCC) and Domain, and a body manifest with a single reference.",
    source: { section: "Authentication › Rules for SOAP", quote: "Token credentials go in the security header as a UsernameToken: Username (the EPR), Password, Organization (the PCC/iPCC), Domain." },
    clauses: [
      { id: "SOAP-03.username-token", text: "A token-creating request carries a UsernameToken with Username (the EPR), Password, Organization (the PCC) and Domain." },
      { id: "SOAP-03.manifest", text: "Its body holds a manifest with a single reference." },
    ],
    latitudes: [],
  },
  {
    id: "SOAP-04",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "Every later call carries the token in `wsse:BinarySecurityToken` of the Security header, and `eb:Action` carries the called API's action code.",
    source: { section: "Authentication › Rules for SOAP", quote: "Later calls carry the returned token in the BinarySecurityToken of the security header." },
    clauses: [
      { id: "SOAP-04.binary-security-token", text: "Every call after token creation carries the token in `wsse:BinarySecurityToken` of the Security header." },
      { id: "SOAP-04.action-code", text: "`eb:Action` carries the called API's action code." },
    ],
    latitudes: [],
  },
  {
    id: "SOAP-05",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "`eb:CPAId` is the caller's PCC, and one workflow keeps one `eb:ConversationId`.",
    source: { section: "Resources and their fields › SOAP token carriers", quote: "eb:ConversationId: Optional caller-created identifier carried through one traveler workflow (for tracking search-to-book); echoed in responses. eb:CPAId: The PCC/iPCC of the caller" },
    clauses: [
      { id: "SOAP-05.cpaid", text: "`eb:CPAId` is the caller's PCC." },
      { id: "SOAP-05.conversation-id", text: "One workflow keeps one `eb:ConversationId`." },
    ],
    latitudes: [],
  },
];
