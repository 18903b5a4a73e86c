import { describe, expect, it } from 'vitest';
import { goldenEnvelope, goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { NS } from './namespaces.ts';
import { missingHeaderElements, parseEnvelope, type ParsedEnvelope } from './parse-envelope.ts';

const SESSION_TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-3177016070087638144!110012!0';

function parsed(name: string): ParsedEnvelope {
  const result = parseEnvelope(goldenEnvelope(name).xml);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.envelope;
}

describe('SOAP envelope parsing', () => {
  it('reads every field of an eb:-prefixed TokenCreateRQ', () => {
    const envelope = parsed('request-token-create-prefixed-v1.xml');
    expect(envelope.messageHeader).toEqual({
      shape: 'prefixed',
      version: '1.0',
      mustUnderstand: '1',
      from: [{ value: 'agency.example', type: 'urn:x12.org:IO5:01' }],
      to: [{ value: 'webservices.sabre.com', type: 'urn:x12.org:IO5:01' }],
      cpaId: 'G7RE',
      conversationId: 'conv-20180218-0001@agency.example',
      service: { value: 'TokenCreateRQ', type: 'OTA' },
      action: 'TokenCreateRQ',
      messageData: {
        messageId: 'mid:20180218-164218-0001@agency.example',
        timestamp: '2018-02-18T16:42:18Z',
        refToMessageId: undefined,
        timeToLive: '2018-02-18T17:42:18Z',
      },
    });
    expect(envelope.action).toBe('TokenCreateRQ');
    expect(envelope.security).toEqual({ kind: 'usernameToken', username: '7971', password: 'WS3CRET', organization: 'G7RE', domain: 'DEFAULT' });
    expect(envelope.body.manifest).toEqual({ references: ['cid:rootelement'] });
    expect(envelope.body.root).toMatchObject({ namespace: NS.sws, localName: 'TokenCreateRQ', attributes: [{ localName: 'Version', value: '1.0.0' }] });
    expect(envelope.fault).toBeUndefined();
  });

  it('reads the unprefixed default-namespace header shape, and the password exactly as sent', () => {
    const envelope = parsed('request-session-create-default-ns-v2.xml');
    expect(envelope.messageHeader).toMatchObject({ shape: 'default-namespace', version: '2.0.0', mustUnderstand: undefined, action: 'SessionCreateRQ' });
    expect(envelope.messageHeader?.service).toEqual({ value: 'SessionCreateRQ', type: 'OTA' });
    expect(envelope.security).toMatchObject({ kind: 'usernameToken', password: 'p&ss <word> with spaces' });
    expect(envelope.body.root?.localName).toBe('SessionCreateRQ');
    expect(envelope.body.elements.map((e) => e.localName)).toEqual(['SessionCreateRQ', 'Manifest']);
  });

  it('accepts any prefixes bound to the right namespaces, in any header order', () => {
    const envelope = parsed('request-custom-prefixes-security-first.xml');
    expect(envelope.envelopePrefix).toBe('s');
    expect(envelope.messageHeader).toMatchObject({ shape: 'prefixed', version: '2.0.0', cpaId: 'G7RE' });
    expect(envelope.security).toEqual({ kind: 'usernameToken', username: '7971', password: 'WS3CRET', organization: 'G7RE', domain: 'DEFAULT' });
    expect(envelope.body.root).toMatchObject({ namespace: NS.sws, localName: 'TokenCreateRQ', prefix: 'sws' });
  });

  it('reads a session token with its literal backslashes', () => {
    expect(parsed('request-session-close.xml').security).toEqual({
      kind: 'binarySecurityToken', token: SESSION_TOKEN, valueType: 'String', encodingType: 'wsse:Base64Binary',
    });
  });

  it('reads a fault and resolves the faultcode prefix', () => {
    const envelope = parsed('response-fault-invalid-security-token.xml');
    expect(envelope.fault).toEqual({
      faultcode: 'soap-env:Client.InvalidSecurityToken',
      faultcodeNamespace: NS.soapEnv,
      faultcodeLocal: 'Client.InvalidSecurityToken',
      faultstring: `Invalid or Expired binary security token: ${SESSION_TOKEN}`,
      faultactor: undefined,
      stackTrace: 'com.sabre.universalservices.base.session.SessionException: errors.session.USG_INVALID_SECURITY_TOKEN',
    });
    expect(envelope.action).toBe('ErrorRS');
    expect(envelope.body.root?.localName).toBe('Fault');
  });

  it('finds the StackTrace in detail by its local name, whatever its namespace and depth', () => {
    const withDetail = (detail: string) => {
      const r = parseEnvelope(`<soap-env:Envelope xmlns:soap-env="${NS.soapEnv}"><soap-env:Body><soap-env:Fault><faultcode>soap-env:Client.InvalidSecurityToken</faultcode>`
        + `<faultstring>Invalid</faultstring><detail>${detail}</detail></soap-env:Fault></soap-env:Body></soap-env:Envelope>`);
      if (!r.ok) throw new Error(r.message);
      return r.envelope.fault?.stackTrace;
    };
    expect(withDetail('<StackTrace> plain </StackTrace>')).toBe('plain');
    expect(withDetail(`<ns1:StackTrace xmlns:ns1="${NS.sws}">qualified</ns1:StackTrace>`)).toBe('qualified');
    expect(withDetail('<Error xmlns="urn:e"><Code>1</Code><StackTrace>nested</StackTrace></Error>')).toBe('nested');
    expect(withDetail('<Other>x</Other><StackTrace>second child</StackTrace>')).toBe('second child');
    expect(withDetail('<StackTrace><![CDATA[in CDATA]]></StackTrace>')).toBe('in CDATA');
    expect(withDetail('<Other>no trace</Other>')).toBeUndefined();
  });

  it('tells an empty Security header from a missing one', () => {
    expect(parsed('response-fault-authentication-failed.xml').security).toEqual({ kind: 'none', securityHeader: true });
    expect(parsed('response-fault-reached-ta-limit-no-security.xml').security).toEqual({ kind: 'none', securityHeader: false });
    expect(parsed('request-usernametoken-and-bst.xml').security).toMatchObject({
      kind: 'both', binarySecurityToken: { token: 'T1RLAQxyz*' }, usernameToken: { username: '7971' },
    });
  });

  it('is lenient about what is missing: the caller decides', () => {
    expect(parsed('request-no-messagedata.xml').messageHeader?.messageData).toBeUndefined();
    expect(parsed('request-no-cpaid.xml').messageHeader?.cpaId).toBeUndefined();
    expect(parsed('request-messageheader-wrong-namespace.xml').messageHeader).toBeUndefined();
    // A wsse:Organization is not the unqualified Organization the service reads.
    expect(parsed('request-organization-qualified.xml').security).toMatchObject({ kind: 'usernameToken', organization: undefined, domain: 'DEFAULT' });
    const misplaced = parsed('request-organization-qualified.xml').security;
    expect(misplaced.kind === 'usernameToken' && misplaced.misplaced?.map((n) => n.replace(/^\{[^}]*\}/, '{…}'))).toEqual(['{…}Organization']);
    expect(parsed('request-usernametoken-and-bst.xml').security).not.toHaveProperty('usernameToken.misplaced');
  });

  it('parses every golden envelope that is well-formed SOAP 1.1', () => {
    const refused = new Set(['request-doctype-entity.xml', 'request-not-well-formed.xml', 'request-soap12-envelope.xml']);
    for (const golden of goldenEnvelopes()) {
      expect({ name: golden.name, ok: parseEnvelope(golden.xml).ok }).toEqual({ name: golden.name, ok: !refused.has(golden.name) });
    }
  });
});

describe('SOAP envelope parsing: a token not where the document puts it', () => {
  const OASIS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
  const close = goldenEnvelope('request-session-close.xml').xml;

  it('reads the token of a Security header of another namespace as misplaced, not as wsse:BinarySecurityToken', () => {
    const result = parseEnvelope(close.replaceAll(NS.wsse, OASIS));
    if (!result.ok) throw new Error(result.message);
    expect(result.envelope.security).toEqual({ kind: 'none', securityHeader: false });
    expect(result.envelope.misplacedTokens).toHaveLength(1);
    expect(result.envelope.misplacedTokens[0]).toBe(parsed('request-session-close.xml').binarySecurityTokens[0]);
  });

  it('has none when the token is in wsse:Security/wsse:BinarySecurityToken', () => {
    const envelope = parsed('request-session-close.xml');
    expect(envelope.security.kind).toBe('binarySecurityToken');
    expect(envelope.misplacedTokens).toEqual([]);
  });
});

describe('SOAP envelope parsing, refusals', () => {
  it.each([
    ['request-doctype-entity.xml', 'doctype-forbidden', 'a "<!DOCTYPE" declaration was found; DTDs are refused (no entity is ever expanded)'],
    ['request-not-well-formed.xml', 'not-well-formed', "Expected closing tag 'eb:CPAId' (opened in line 7, col 7) instead of closing tag 'eb:CPAID'. (line 7, column 21)"],
    ['request-soap12-envelope.xml', 'not-an-envelope', `the root element is {http://www.w3.org/2003/05/soap-envelope}Envelope, not {${NS.soapEnv}}Envelope`],
  ])('refuses the golden %s as %s', (name, code, message) => {
    expect(parseEnvelope(goldenEnvelope(name).xml)).toEqual({ ok: false, code, message });
  });

  it.each([
    [`<soap-env:Envelope xmlns:soap-env="${NS.soapEnv}"><soap-env:Header/></soap-env:Envelope>`, 'no-body', `the envelope has no {${NS.soapEnv}}Body`],
    ['<Envelope/>', 'not-an-envelope', 'the root element is Envelope, not {http://schemas.xmlsoap.org/soap/envelope/}Envelope'],
    ['<soap-env:Envelope><soap-env:Body/></soap-env:Envelope>', 'namespace-error', 'the prefix "soap-env" of <soap-env:Envelope> is not bound'],
    ['not xml at all', 'not-well-formed', "char 'n' is not expected. (line 1, column 1)"],
    ['', 'not-well-formed', 'the document is empty'],
    ['<a', 'not-well-formed', "Unclosed tag 'a'. (line 1, column 1)"],
    ['   ', 'not-well-formed', 'the document is empty'],
    ['<!-- only a comment -->', 'not-well-formed', 'Start tag expected. (line 1)'],
    [`<s:Envelope xmlns:s="${NS.soapEnv}"><s:Body>${'<a>'.repeat(80)}${'</a>'.repeat(80)}</s:Body></s:Envelope>`, 'not-well-formed', 'Maximum nested tags exceeded'],
  ])('refuses %j as %s', (xml, code, message) => {
    expect(parseEnvelope(xml)).toEqual({ ok: false, code, message });
  });

  it('refuses an external entity before any XML processor could read the file', () => {
    const xxe = `<!DOCTYPE s:Envelope [<!ENTITY x SYSTEM "file:///etc/passwd">]><s:Envelope xmlns:s="${NS.soapEnv}"><s:Body>&x;</s:Body></s:Envelope>`;
    expect(parseEnvelope(xxe)).toMatchObject({ ok: false, code: 'doctype-forbidden' });
  });

  it('bounds the input size', () => {
    const xml = goldenEnvelope('request-ping.xml').xml;
    expect(parseEnvelope(xml, { maxBytes: 100 })).toEqual({ ok: false, code: 'too-large', message: 'the document is larger than 100 bytes' });
    expect(parseEnvelope(xml, { maxBytes: xml.length }).ok).toBe(true);
  });
});

describe('missingHeaderElements (SOAP-01)', () => {
  const headerOf = (name: string) => {
    const parsed = parseEnvelope(goldenEnvelope(name).xml);
    if (!parsed.ok) throw new Error(`${name} does not parse`);
    return parsed.envelope.messageHeader;
  };

  it('names nothing for a complete request header', () => {
    expect(missingHeaderElements(headerOf('request-token-create-prefixed-v1.xml'))).toEqual([]);
  });

  it('names the MessageData elements a request lacks, and the whole header when there is none', () => {
    expect(missingHeaderElements(headerOf('request-no-messagedata.xml'))).toEqual(['MessageData/MessageId', 'MessageData/Timestamp', 'MessageData/TimeToLive']);
    expect(missingHeaderElements(undefined)).toEqual(['eb:MessageHeader']);
  });
});
