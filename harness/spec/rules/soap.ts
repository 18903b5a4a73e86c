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
  },
  {
    id: "SOAP-02",
    area: "SOAP",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "Every SOAP response validates against the harness's schemas; its MessageHeader carries the response action, echoes ConversationId, and its RefToMessageId is the request's MessageId.",
    source: { section: "Endpoints › SOAP operations for tokens", quote: "Response action `TokenCreateRS`; wsse:BinarySecurityToken holds the sessionless token; eb:ConversationId echoed; eb:RefToMessageId refers to the request MessageId" },
  },
  {
    id: "SOAP-03",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "A token-creating request (`TokenCreateRQ`, `SessionCreateRQ`) carries a UsernameToken with Username (the EPR), Password, Organization (the PCC) and Domain, and a body manifest with a single reference.",
    source: { section: "Authentication › Rules for SOAP", quote: "Token credentials go in the security header as a UsernameToken: Username (the EPR), Password, Organization (the PCC/iPCC), Domain." },
  },
  {
    id: "SOAP-04",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "Every later call carries the token in `wsse:BinarySecurityToken` of the Security header, and `eb:Action` carries the called API's action code.",
    source: { section: "Authentication › Rules for SOAP", quote: "Later calls carry the returned token in the BinarySecurityToken of the security header." },
  },
  {
    id: "SOAP-05",
    area: "SOAP",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "`eb:CPAId` is the caller's PCC, and one workflow keeps one `eb:ConversationId`.",
    source: { section: "Resources and their fields › SOAP token carriers", quote: "eb:ConversationId: Optional caller-created identifier carried through one traveler workflow (for tracking search-to-book); echoed in responses. eb:CPAId: The PCC/iPCC of the caller" },
  },
];
