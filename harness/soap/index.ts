/**
 * SOAP envelopes of the auth interface: building them (fast-xml-parser's XMLBuilder), parsing them safely, validating
 * them against `fixtures/xsd/` (a long-lived JVM; `xsd-schema-validator.ts`, a JVM per call, is the reference the tests hold it to), and masking them for
 * report evidence.
 */
export {
  actionBody, bargainFinderMaxRQBody, bargainFinderMaxRSBody, customBody, faultBody, hotelAvailLLSRQBody, hotelAvailLLSRSBody, manifest,
  otaPingRQBody, otaPingRSBody, sessionCloseRQBody, sessionCloseRSBody, sessionCreateRQBody, sessionCreateRSBody, specFaultBody,
  rawBody, RawBodyError, tokenCreateRQBody, tokenCreateRSBody,
} from './bodies.ts';
export { buildRequest, formatEbTimestamp, makeRequestHeader, usernameToken } from './build-request.ts';
export { buildResponse, replyToOf } from './build-response.ts';
export { DEFAULT_MAX_ENVELOPE_BYTES, screenInput } from './hostile-input.ts';
export { JavaHelperError } from './java-helper.ts';
export { envelopeExcerpt, MASK, maskEnvelope } from './mask.ts';
export { NS, PREFIX } from './namespaces.ts';
export { missingHeaderElements, parseEnvelope } from './parse-envelope.ts';
export { SCHEMA_NAMES, schemaPath, XSD_DIR } from './schemas.ts';
export { createValidator } from './validator.ts';
export { VALID } from './verdict.ts';
export { element, writeXml } from './xml-builder.ts';
export { escapeAttribute, escapeText, XmlTextError } from './xml-text.ts';
export { attributeValue, childElement } from './xml-tree.ts';

export type {
  BusinessBodyOptions, FaultFields, OtaPingRQOptions, SessionCloseRQOptions, SessionCreateRQOptions, SoapBody, SpecFaultKey,
  TokenCreateRQOptions,
} from './bodies.ts';
export type { RequestHeader, RequestHeaderInput, RequestSecurity, RequestStyle, SoapRequest, UsernameTokenFields } from './build-request.ts';
export type { ReplyTo, ResponseHeader, ResponseSecurity, SoapResponse } from './build-response.ts';
export type { EbVersion, HeaderShape } from './envelope.ts';
export type { ScreenCode, ScreenFailure } from './hostile-input.ts';
export type { ExcerptOptions } from './mask.ts';
export type {
  ParsedBinarySecurityToken, ParsedBody, ParsedEnvelope, ParsedFault, ParsedManifest, ParsedMessageData, ParsedMessageHeader,
  ParsedPartyId, ParsedSecurity, ParsedUsernameToken, ParseErrorCode, ParseOptions, ParseResult,
} from './parse-envelope.ts';
export type { SchemaName } from './schemas.ts';
export type { EnvelopeValidator, ValidatorOptions } from './validator.ts';
export type { Verdict, VerdictCode } from './verdict.ts';
export type { ElementSpec, WriteOptions } from './xml-builder.ts';
export type { TreeErrorCode, XmlAttribute, XmlElement, XmlName } from './xml-tree.ts';
export type { JavaHelperErrorCode, SoapErrorCode } from './errors.ts';
