import { fc, test } from '../../test/support/property-test.ts';
import { describe, expect, it } from 'vitest';
import { useValidator } from '../../test/support/soap.ts';
import {
  bargainFinderMaxRQBody, customBody, hotelAvailLLSRQBody, otaPingRQBody, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody,
  type SoapBody,
} from './bodies.ts';
import { buildRequest, formatEbTimestamp, makeRequestHeader, usernameToken, type RequestHeader, type RequestSecurity } from './build-request.ts';
import { NS } from './namespaces.ts';
import { parseEnvelope, type ParsedEnvelope } from './parse-envelope.ts';
import { element } from './xml-builder.ts';
import { findInvalidXmlChar } from './xml-text.ts';

const SESSION_TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-3177016070087638144!110012!0';

const header: RequestHeader = {
  from: 'agency.example',
  to: 'webservices.sabre.com',
  cpaId: 'G7RE',
  conversationId: 'conv-1',
  service: 'SessionCloseRQ',
  action: 'SessionCloseRQ',
  messageId: 'mid:1@agency.example',
  timestamp: '2018-02-18T17:00:00Z',
  timeToLive: '2018-02-18T18:00:00Z',
  version: '1.0',
};

function parse(xml: string): ParsedEnvelope {
  const result = parseEnvelope(xml);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.envelope;
}

describe('SOAP request building', () => {
  it('writes the eb:-prefixed shape with every header element in schema order', () => {
    const xml = buildRequest({
      header,
      security: { kind: 'binarySecurityToken', token: SESSION_TOKEN },
      body: sessionCloseRQBody({ pseudoCityCode: 'G7RE', timeStamp: '2018-02-18T17:00:00Z' }),
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>'
      + `<soap-env:Envelope xmlns:soap-env="${NS.soapEnv}"><soap-env:Header>`
      + `<eb:MessageHeader xmlns:eb="${NS.eb}" eb:version="1.0" soap-env:mustUnderstand="1">`
      + '<eb:From><eb:PartyId type="urn:x12.org:IO5:01">agency.example</eb:PartyId></eb:From>'
      + '<eb:To><eb:PartyId type="urn:x12.org:IO5:01">webservices.sabre.com</eb:PartyId></eb:To>'
      + '<eb:CPAId>G7RE</eb:CPAId><eb:ConversationId>conv-1</eb:ConversationId>'
      + '<eb:Service eb:type="OTA">SessionCloseRQ</eb:Service><eb:Action>SessionCloseRQ</eb:Action>'
      + '<eb:MessageData><eb:MessageId>mid:1@agency.example</eb:MessageId><eb:Timestamp>2018-02-18T17:00:00Z</eb:Timestamp>'
      + '<eb:TimeToLive>2018-02-18T18:00:00Z</eb:TimeToLive></eb:MessageData></eb:MessageHeader>'
      + `<wsse:Security xmlns:wsse="${NS.wsse}">`
      + `<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">${SESSION_TOKEN}</wsse:BinarySecurityToken>`
      + '</wsse:Security></soap-env:Header><soap-env:Body>'
      + `<SessionCloseRQ xmlns="${NS.ota}" TimeStamp="2018-02-18T17:00:00Z" Version="1.0.0"><POS><Source PseudoCityCode="G7RE"/></POS></SessionCloseRQ>`
      + '</soap-env:Body></soap-env:Envelope>',
    );
  });

  it('writes the unprefixed default-namespace shape with unqualified version and type', () => {
    const xml = buildRequest({
      header: { ...header, version: '2.0.0', refToMessageId: 'mid:0' },
      security: { kind: 'binarySecurityToken', token: 'T1RLAQabc*' },
      body: otaPingRQBody(),
      style: { headerShape: 'default-namespace', partyIdType: null, serviceType: 'OTA', tokenAttributes: false },
    });
    expect(xml).toContain(`<MessageHeader xmlns="${NS.eb}" version="2.0.0" soap-env:mustUnderstand="1"><From><PartyId>agency.example</PartyId></From>`);
    expect(xml).toContain('<Service type="OTA">SessionCloseRQ</Service>');
    expect(xml).toContain('<MessageId>mid:1@agency.example</MessageId><Timestamp>2018-02-18T17:00:00Z</Timestamp><RefToMessageId>mid:0</RefToMessageId><TimeToLive>');
    expect(xml).toContain('<wsse:BinarySecurityToken>T1RLAQabc*</wsse:BinarySecurityToken>');
    expect(parse(xml).messageHeader).toMatchObject({ shape: 'default-namespace', version: '2.0.0', mustUnderstand: '1' });
    expect(parse(xml).messageHeader?.messageData?.refToMessageId).toBe('mid:0');
  });

  it('writes a UsernameToken with qualified Username and Password and unqualified Organization and Domain', () => {
    const xml = buildRequest({
      header: { ...header, action: 'TokenCreateRQ', service: 'TokenCreateRQ' },
      security: usernameToken({ username: '7971', password: 'p<&>"\'', organization: 'G7RE' }),
      body: tokenCreateRQBody(),
    });
    expect(xml).toContain(
      '<wsse:UsernameToken><wsse:Username>7971</wsse:Username><wsse:Password>p&lt;&amp;&gt;"\'</wsse:Password>'
      + '<Organization>G7RE</Organization><Domain>DEFAULT</Domain></wsse:UsernameToken>',
    );
    expect(xml).toContain(
      `<soap-env:Body><eb:Manifest xmlns:eb="${NS.eb}" soap-env:mustUnderstand="1" eb:version="1.0">`
      + `<eb:Reference xmlns:xlink="${NS.xlink}" xlink:href="cid:rootelement" xlink:type="simple"/></eb:Manifest>`
      + `<TokenCreateRQ xmlns="${NS.sws}" Version="1.0.0"/></soap-env:Body>`,
    );
    expect(parse(xml).security).toEqual({ kind: 'usernameToken', username: '7971', password: 'p<&>"\'', organization: 'G7RE', domain: 'DEFAULT' });
  });

  it('writes an empty Security header or none at all when asked to', () => {
    const empty = buildRequest({ header, security: { kind: 'empty' }, body: otaPingRQBody() });
    expect(empty).toContain(`<wsse:Security xmlns:wsse="${NS.wsse}"/>`);
    expect(parse(empty).security).toEqual({ kind: 'none', securityHeader: true });
    const none = buildRequest({ header, security: { kind: 'none' }, body: otaPingRQBody() });
    expect(none).not.toContain('Security');
    expect(parse(none).security).toEqual({ kind: 'none', securityHeader: false });
  });

  it('writes SessionCreateRQ with returnContextID and POS, after the manifest', () => {
    const xml = buildRequest({ header, security: { kind: 'none' }, body: sessionCreateRQBody({ pseudoCityCode: 'G7RE', returnContextID: true }) });
    expect(xml).toContain(`<SessionCreateRQ xmlns="${NS.ota}" Version="1.0.0" returnContextID="true"><POS><Source PseudoCityCode="G7RE"/></POS></SessionCreateRQ>`);
    expect(parse(xml).body.manifest).toEqual({ references: ['cid:rootelement'] });
    expect(buildRequest({ header, security: { kind: 'none' }, body: tokenCreateRQBody({ manifest: false }) })).not.toContain('Manifest');
  });

  it('refuses text XML cannot carry, with the element it was meant for', () => {
    expect(() => buildRequest({ header, security: { kind: 'binarySecurityToken', token: 'a\u0001b' }, body: otaPingRQBody() })).toThrow(
      expect.objectContaining({
        code: 'invalid-xml-character',
        message: 'the text of <wsse:BinarySecurityToken> holds U+0001, which XML 1.0 cannot carry (not even as a character reference)',
      }),
    );
  });

  it('makes a complete header from the usual defaults', () => {
    expect(makeRequestHeader({ action: 'OTA_PingRQ', cpaId: 'G7RE', conversationId: 'c', messageId: 'm', now: new Date('2018-02-18T16:42:18.900Z') })).toEqual({
      from: 'agency', to: 'webservices.sabre.com', cpaId: 'G7RE', conversationId: 'c', service: 'OTA_PingRQ', action: 'OTA_PingRQ',
      messageId: 'm', timestamp: '2018-02-18T16:42:18Z', timeToLive: '2018-02-18T17:42:18Z', version: '1.0',
    });
    expect(formatEbTimestamp(new Date('2018-02-18T16:42:18.900Z'), { zone: false })).toBe('2018-02-18T16:42:18');
  });
});

// Identifiers: no surrounding whitespace (the schemas read them as xs:token), any characters XML can carry.
const xmlChars = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => findInvalidXmlChar(s) === undefined);
const identifier = fc.oneof(xmlChars, fc.constantFrom('a&b', '<x>', '"q"', "'", ']]>', 'Shared/IDL:a\\/b!c', 'T1RLAQ+/=*'))
  .map((s) => s.trim().replace(/\s+/g, ' '))
  .filter((s) => s !== '');
const token = fc.oneof(identifier, fc.constant(SESSION_TOKEN));
const security: fc.Arbitrary<RequestSecurity> = fc.oneof(
  fc.record({ username: identifier, password: xmlChars, organization: identifier, domain: identifier }).map((f) => ({ kind: 'usernameToken' as const, ...f })),
  token.map((t) => ({ kind: 'binarySecurityToken' as const, token: t })),
);
const body: fc.Arbitrary<SoapBody> = fc.oneof(
  fc.constant(tokenCreateRQBody()),
  identifier.map((pcc) => sessionCreateRQBody({ pseudoCityCode: pcc, returnContextID: true })),
  identifier.map((pcc) => sessionCloseRQBody({ pseudoCityCode: pcc, timeStamp: '2018-02-18T17:00:00.5+02:00' })),
  xmlChars.map((echo) => otaPingRQBody({ echoData: echo })),
  fc.constant(hotelAvailLLSRQBody({ content: [element('AvailRequestSegment')] })),
  fc.constant(bargainFinderMaxRQBody()),
);
const request = fc.record({
  header: fc.record({
    from: identifier, to: identifier, cpaId: identifier, conversationId: identifier, service: identifier, action: identifier,
    messageId: identifier, timestamp: fc.constant('2018-02-18T16:42:18Z'), timeToLive: fc.constant('2018-02-18T17:42:18.125Z'),
    version: fc.constantFrom('1.0' as const, '2.0.0' as const),
  }, { requiredKeys: ['from', 'to', 'cpaId', 'conversationId', 'service', 'action', 'messageId', 'timestamp', 'timeToLive', 'version'] }),
  security,
  body,
  style: fc.record({
    headerShape: fc.constantFrom('prefixed' as const, 'default-namespace' as const),
    partyIdType: fc.constantFrom(null, 'urn:x12.org:IO5:01'),
    serviceType: fc.constantFrom(null, 'OTA'),
    tokenAttributes: fc.boolean(),
  }),
});

describe('SOAP request building, properties', () => {
  const validator = useValidator();

  test.prop({ request }, { numRuns: 300 })('every built request parses back to the fields it was built from', ({ request: r }) => {
    const envelope = parse(buildRequest(r));
    expect(envelope.messageHeader).toEqual({
      shape: r.style.headerShape,
      version: r.header.version,
      mustUnderstand: '1',
      from: [{ value: r.header.from, type: r.style.partyIdType ?? undefined }],
      to: [{ value: r.header.to, type: r.style.partyIdType ?? undefined }],
      cpaId: r.header.cpaId,
      conversationId: r.header.conversationId,
      service: { value: r.header.service, type: r.style.serviceType ?? undefined },
      action: r.header.action,
      messageData: { messageId: r.header.messageId, timestamp: r.header.timestamp, refToMessageId: undefined, timeToLive: r.header.timeToLive },
    });
    if (r.security.kind === 'binarySecurityToken') expect(envelope.security).toMatchObject({ kind: 'binarySecurityToken', token: r.security.token });
    if (r.security.kind === 'usernameToken') expect(envelope.security).toEqual(r.security);
  });

  test.prop({ request }, { numRuns: 300 })('every built request validates against request.xsd', async ({ request: r }) => {
    expect(await validator.validate(buildRequest(r), 'request')).toEqual({ valid: true });
  });

  it('a request the schema must refuse is refused: an empty body', async () => {
    const verdict = await validator.validate(buildRequest({ header, security: { kind: 'binarySecurityToken', token: 'x' }, body: customBody() }), 'request');
    expect(verdict).toMatchObject({ valid: false, code: 'schema-invalid' });
  });
});
