import { describe, expect, it } from 'vitest';
import {
  buildRequest, makeRequestHeader, otaPingRQBody, sessionCloseRQBody, tokenCreateRQBody, usernameToken, type RequestSecurity, type SoapBody,
} from '../soap/index.ts';
import { inProcessEnvelopeValidator } from '../soap/in-process-validator.ts';
import { parseXmlTree } from '../soap/xml-tree.ts';
import { writeXmlTree } from '../soap/xml-write-tree.ts';
import { requestSchema } from './soap-requests.ts';
import { soap01SchemaVerdict } from './soap01-schema.ts';

const validator = inProcessEnvelopeValidator();
const validate = (xml: string, schema: 'request' | 'request-business') => validator.validate(xml, schema);

const credentials = usernameToken({ username: 'E1', password: 'secret', organization: 'PCC1' });
const token: RequestSecurity = { kind: 'binarySecurityToken', token: 'Shared/IDL:IceSess' };
const request = (action: string, security: RequestSecurity, body: SoapBody, shape: 'prefixed' | 'default-namespace' = 'prefixed') =>
  buildRequest({ header: makeRequestHeader({ action, cpaId: 'PCC1', conversationId: 'c-1', messageId: 'm-1', now: new Date(0) }), security, body, style: { headerShape: shape } });

const tokenCreate = request('TokenCreateRQ', credentials, tokenCreateRQBody());
const sessionClose = request('SessionCloseRQ', token, sessionCloseRQBody({ pseudoCityCode: 'PCC1', timeStamp: '2026-01-01T00:00:00Z' }));
const ping = request('OTA_PingRQ', token, otaPingRQBody());

/** SOAP-01.schema's verdict by difference, and the plain schema's, on one request. */
async function verdicts(xml: string, action: string) {
  const plain = await validate(xml, requestSchema(action));
  const byDifference = await soap01SchemaVerdict(xml, action, validate);
  return { plain: plain.valid, byDifference: byDifference.valid };
}

describe('SOAP-01.schema by difference', () => {
  it('a valid request is valid either way', async () => {
    for (const [xml, action] of [[tokenCreate, 'TokenCreateRQ'], [sessionClose, 'SessionCloseRQ'], [ping, 'OTA_PingRQ']] as const) {
      expect(await verdicts(xml, action)).toEqual({ plain: true, byDifference: true });
    }
  });

  it('a deviation in what SOAP-03, SOAP-04 or SESS-05 own is not SOAP-01\'s', async () => {
    const cases: [string, string, string][] = [
      ['no Organization (SOAP-03)', tokenCreate.replace(/<Organization>[^<]*<\/Organization>/, ''), 'TokenCreateRQ'],
      ['no Username (SOAP-03)', tokenCreate.replace(/<wsse:Username>[^<]*<\/wsse:Username>/, ''), 'TokenCreateRQ'],
      ['two references (SOAP-03)', tokenCreate.replace(/(<eb:Reference[^>]*\/>)/, '$1$1'), 'TokenCreateRQ'],
      ['no POS (SESS-05)', sessionClose.replace(/<POS>.*<\/POS>/, ''), 'SessionCloseRQ'],
      ['SessionCloseRQ in another namespace (SESS-05)', sessionClose.replace('http://www.opentravel.org/OTA/2002/11', 'urn:example:close'), 'SessionCloseRQ'],
      ['the token as a UsernameToken password (SOAP-04)', ping.replace(/<wsse:BinarySecurityToken[^>]*>[^<]*<\/wsse:BinarySecurityToken>/, '<wsse:UsernameToken><wsse:Password>T</wsse:Password></wsse:UsernameToken>'), 'OTA_PingRQ'],
    ];
    for (const [what, xml, action] of cases) expect({ what, ...(await verdicts(xml, action)) }).toEqual({ what, plain: false, byDifference: true });
  });

  it('a deviation of SOAP-01\'s own stays one', async () => {
    const cases: [string, string, string][] = [
      ['no MessageData', tokenCreate.replace(/<eb:MessageData>.*<\/eb:MessageData>/, ''), 'TokenCreateRQ'],
      ['no Security header', ping.replace(/<wsse:Security[^>]*>.*<\/wsse:Security>/, ''), 'OTA_PingRQ'],
      ['a Timestamp that is no date', sessionClose.replace(/<eb:Timestamp>[^<]*</, '<eb:Timestamp>yesterday<'), 'SessionCloseRQ'],
      ['a header block in no namespace', ping.replace(/(<soap-env:Header[^>]*>)/, '$1<Trace>1</Trace>'), 'OTA_PingRQ'],
      ['no Organization and no MessageData', tokenCreate.replace(/<Organization>[^<]*<\/Organization>/, '').replace(/<eb:MessageData>.*<\/eb:MessageData>/, ''), 'TokenCreateRQ'],
    ];
    for (const [what, xml, action] of cases) expect({ what, ...(await verdicts(xml, action)) }).toEqual({ what, plain: false, byDifference: false });
  });

  it('takes any eb:version (the document does not name it)', async () => {
    expect(await verdicts(ping.replace(/eb:version="[^"]*"/, 'eb:version="2.0"'), 'OTA_PingRQ')).toEqual({ plain: true, byDifference: true });
  });
});

describe('writeXmlTree', () => {
  it('writes back what reads as the same tree and validates alike, in both header shapes', async () => {
    const inputs = [tokenCreate, sessionClose, ping, request('SessionCloseRQ', token, sessionCloseRQBody({ pseudoCityCode: 'P', timeStamp: '2026-01-01T00:00:00Z' }), 'default-namespace')];
    for (const xml of inputs) {
      const tree = parseXmlTree(xml);
      if (!tree.ok) throw new Error(tree.message);
      const written = writeXmlTree(tree.root);
      const again = parseXmlTree(written);
      if (!again.ok) throw new Error(again.message);
      expect(again.root).toEqual(tree.root);
      expect((await validate(written, 'request')).valid).toBe((await validate(xml, 'request')).valid);
    }
  });

  it('undeclares a default namespace where the tree has none, and escapes text and attributes', () => {
    const xml = '<a xmlns="urn:a" t="&quot;&amp;"><b xmlns="">x &lt; y</b></a>';
    const tree = parseXmlTree(xml);
    if (!tree.ok) throw new Error(tree.message);
    expect(writeXmlTree(tree.root)).toBe('<a xmlns="urn:a" t="&quot;&amp;"><b xmlns="">x &lt; y</b></a>');
  });
});
