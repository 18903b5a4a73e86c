import { fc, test } from '../../test/support/property-test.ts';
import { describe, expect, it } from 'vitest';
import { useValidator } from '../../test/support/soap.ts';
import { soapFaults } from '../catalog/index.ts';
import {
  bargainFinderMaxRSBody, faultBody, hotelAvailLLSRSBody, otaPingRSBody, sessionCloseRSBody, sessionCreateRSBody, specFaultBody, tokenCreateRSBody,
  type SoapBody, type SpecFaultKey,
} from './bodies.ts';
import { buildResponse, replyToOf, type ReplyTo, type ResponseSecurity } from './build-response.ts';
import { NS } from './namespaces.ts';
import { parseEnvelope, type ParsedEnvelope } from './parse-envelope.ts';
import { findInvalidXmlChar } from './xml-text.ts';

const SESSION_TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-3177016070087638144!110012!0';
const CARRIER = '<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">';

const replyTo: ReplyTo = {
  from: 'agency.example', to: 'webservices.sabre.com', cpaId: 'G7RE', conversationId: 'conv-1', messageId: 'mid:1@agency.example', version: '2.0.0',
};

function parse(xml: string): ParsedEnvelope {
  const result = parseEnvelope(xml);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.envelope;
}

function sessionCreateRS(token = SESSION_TOKEN): string {
  return buildResponse({
    header: { inReplyTo: replyTo, action: 'SessionCreateRS', messageId: '2553296011471520102', timestamp: new Date('2018-02-18T16:42:18.750Z') },
    security: { kind: 'binarySecurityToken', token },
    body: sessionCreateRSBody({ conversationId: 'conv-1' }),
  });
}

describe('SOAP response building', () => {
  it('writes the header the real service writes: From/To swapped, echoes, RefToMessageId, no zone', () => {
    const xml = sessionCreateRS();
    expect(xml).toContain(
      `<eb:MessageHeader xmlns:eb="${NS.eb}" eb:version="2.0.0" soap-env:mustUnderstand="1">`
      + '<eb:From><eb:PartyId eb:type="URI">webservices.sabre.com</eb:PartyId></eb:From>'
      + '<eb:To><eb:PartyId eb:type="URI">agency.example</eb:PartyId></eb:To>'
      + '<eb:CPAId>G7RE</eb:CPAId><eb:ConversationId>conv-1</eb:ConversationId>'
      + '<eb:Service eb:type="sabreXML">Session</eb:Service><eb:Action>SessionCreateRS</eb:Action>'
      + '<eb:MessageData><eb:MessageId>2553296011471520102</eb:MessageId><eb:Timestamp>2018-02-18T16:42:18</eb:Timestamp>'
      + '<eb:RefToMessageId>mid:1@agency.example</eb:RefToMessageId></eb:MessageData></eb:MessageHeader>',
    );
    expect(xml).toContain(`${CARRIER}${SESSION_TOKEN}</wsse:BinarySecurityToken>`);
    expect(xml).toContain(`<SessionCreateRS xmlns="${NS.ota}" version="1" status="Approved"><ConversationId>conv-1</ConversationId></SessionCreateRS>`);
  });

  it('keeps the exact token carrier substring whatever the token holds, and the token reads back exactly', () => {
    const token = 'T1RLAQ&<>"\'\\/!*';
    const xml = sessionCreateRS(token);
    expect(xml).toContain(`${CARRIER}T1RLAQ&amp;&lt;&gt;"'\\/!*</wsse:BinarySecurityToken>`);
    expect(parse(xml).security).toEqual({ kind: 'binarySecurityToken', token, valueType: 'String', encodingType: 'wsse:Base64Binary' });
  });

  it('writes the bodies of PUBLIC-FACTS.md', () => {
    const build = (body: SoapBody, security: ResponseSecurity = { kind: 'none' }): string =>
      buildResponse({ header: { inReplyTo: replyTo, action: 'X', messageId: '1', timestamp: '2018-02-18T16:42:18' }, security, body });
    expect(build(tokenCreateRSBody())).toContain(`<sws:TokenCreateRS Version="1.0.0" xmlns:sws="${NS.sws}"><sws:Success/></sws:TokenCreateRS>`);
    expect(build(sessionCloseRSBody())).toContain(`<SessionCloseRS xmlns="${NS.ota}" version="1" status="Approved"/>`);
    expect(build(otaPingRSBody({ echoData: 'hi' }))).toContain(`<OTA_PingRS xmlns="${NS.ota}" Version="1.0.0"><Success/><EchoData>hi</EchoData></OTA_PingRS>`);
    expect(build(faultBody({ faultcode: 'Client.AuthenticationFailed', faultstring: 'Authentication failed' }), { kind: 'empty' })).toContain(
      `<wsse:Security xmlns:wsse="${NS.wsse}"/></soap-env:Header><soap-env:Body><soap-env:Fault><faultcode>soap-env:Client.AuthenticationFailed</faultcode>`
      + '<faultstring>Authentication failed</faultstring></soap-env:Fault></soap-env:Body>',
    );
  });

  it('writes Client.InvalidSecurityToken quoting the bad token, with the stack trace of the error catalog', () => {
    const xml = buildResponse({
      header: { inReplyTo: replyTo, action: 'ErrorRS', messageId: '7', timestamp: '2018-02-18T16:42:18' },
      security: { kind: 'binarySecurityToken', token: SESSION_TOKEN },
      body: specFaultBody('invalidSecurityToken', SESSION_TOKEN),
    });
    expect(xml).toContain(
      '<soap-env:Fault><faultcode>soap-env:Client.InvalidSecurityToken</faultcode>'
      + `<faultstring>Invalid or Expired binary security token: ${SESSION_TOKEN}</faultstring>`
      + '<detail><StackTrace>com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN</StackTrace></detail>'
      + '</soap-env:Fault>',
    );
    expect(parse(xml).fault).toMatchObject({ faultcodeNamespace: NS.soapEnv, faultcodeLocal: 'Client.InvalidSecurityToken' });
  });

  it('echoes what a lenient request had, and takes the rest from the fallback', () => {
    const parsed = parseEnvelope(sessionCreateRS());
    const fallback = { from: 'F', to: 'T', cpaId: 'C', conversationId: 'V' };
    expect(replyToOf(undefined, fallback)).toEqual({ ...fallback, messageId: undefined, version: '1.0' });
    expect(parsed.ok && replyToOf(parsed.envelope.messageHeader, fallback)).toEqual({
      from: 'webservices.sabre.com', to: 'agency.example', cpaId: 'G7RE', conversationId: 'conv-1', messageId: '2553296011471520102', version: '2.0.0',
    });
  });

  it('leaves RefToMessageId out when the request had no MessageId', () => {
    const xml = buildResponse({
      header: { inReplyTo: { ...replyTo, messageId: undefined }, action: 'ErrorRS', messageId: '8', timestamp: '2018-02-18T16:42:18' },
      security: { kind: 'none' },
      body: specFaultBody('invalidEbXmlMessage'),
    });
    expect(xml).not.toContain('RefToMessageId');
  });
});

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .filter((s) => findInvalidXmlChar(s) === undefined)
  .map((s) => s.trim().replace(/\s+/g, ' '))
  .filter((s) => s !== '');
const token = fc.oneof(text, fc.constant(SESSION_TOKEN), fc.constant('T1RLAQ+/==*'));
const faultKey = fc.constantFrom(...(Object.keys(soapFaults) as SpecFaultKey[]));
const body: fc.Arbitrary<SoapBody> = fc.oneof(
  fc.constant(tokenCreateRSBody()),
  text.map((conversationId) => sessionCreateRSBody({ conversationId })),
  fc.constant(sessionCreateRSBody()),
  fc.constant(sessionCloseRSBody()),
  text.map((echoData) => otaPingRSBody({ echoData })),
  fc.constant(hotelAvailLLSRSBody()),
  fc.constant(bargainFinderMaxRSBody()),
  fc.tuple(faultKey, token).map(([key, t]) => specFaultBody(key, t)),
);
const response = fc.record({
  replyTo: fc.record({
    from: text, to: text, cpaId: text, conversationId: text, messageId: fc.option(text, { nil: undefined }),
    version: fc.constantFrom('1.0' as const, '2.0.0' as const),
  }),
  messageId: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String),
  timestamp: fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
  security: fc.oneof(
    token.map((t): ResponseSecurity => ({ kind: 'binarySecurityToken', token: t })),
    fc.constant<ResponseSecurity>({ kind: 'empty' }),
    fc.constant<ResponseSecurity>({ kind: 'none' }),
  ),
  body,
});

describe('SOAP response building, properties', () => {
  const validator = useValidator();

  test.prop({ response }, { numRuns: 300 })('every built response validates against response.xsd and echoes the request', async ({ response: r }) => {
    const xml = buildResponse({
      header: { inReplyTo: r.replyTo, action: 'SessionCreateRS', messageId: r.messageId, timestamp: r.timestamp },
      security: r.security,
      body: r.body,
    });
    expect(await validator.validate(xml, 'response')).toEqual({ valid: true });
    const header = parse(xml).messageHeader;
    expect(header).toMatchObject({
      version: r.replyTo.version,
      from: [{ value: r.replyTo.to, type: 'URI' }],
      to: [{ value: r.replyTo.from, type: 'URI' }],
      cpaId: r.replyTo.cpaId,
      conversationId: r.replyTo.conversationId,
    });
    expect(header?.messageData).toEqual({
      messageId: r.messageId, timestamp: r.timestamp.toISOString().slice(0, 19), refToMessageId: r.replyTo.messageId, timeToLive: undefined,
    });
  });
});
