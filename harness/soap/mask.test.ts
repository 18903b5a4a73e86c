import { describe, expect, it } from 'vitest';
import { goldenEnvelope, goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { envelopeExcerpt, MASK, maskEnvelope } from './mask.ts';

const SESSION_TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-3177016070087638144!110012!0';
const SESSIONLESS_TOKEN = 'T1RLAQLZhgGvS7cN3sBjVh4ZdYp8hUK2RjRzH9KkfJqk9a3mB+xWe0zLAADAqN1m/hnq8pT3Kw==*';

describe('envelope masking', () => {
  it('masks the password of a UsernameToken and nothing else of it', () => {
    const masked = maskEnvelope(goldenEnvelope('request-token-create-prefixed-v1.xml').xml);
    expect(masked).toContain(`<wsse:Password>${MASK}</wsse:Password>`);
    expect(masked).not.toContain('WS3CRET');
    expect(masked).toContain('<wsse:Username>7971</wsse:Username>');
    expect(masked).toContain('<Organization>G7RE</Organization>');
  });

  it('masks the token, and the same token quoted in the faultstring', () => {
    const masked = maskEnvelope(goldenEnvelope('response-fault-invalid-security-token.xml').xml);
    expect(masked).toContain(`<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">${MASK}</wsse:BinarySecurityToken>`);
    expect(masked).toContain(`<faultstring>Invalid or Expired binary security token: ${MASK}</faultstring>`);
    expect(masked).not.toContain('ICESMS');
    expect(masked).toContain('errors.session.USG_INVALID_SECURITY_TOKEN');
  });

  it('masks a token quoted in a faultstring even when no token element carries it', () => {
    const xml = '<s:Fault><faultcode>s:Client.InvalidSecurityToken</faultcode><faultstring>Invalid or Expired binary security token: abc/def!1</faultstring></s:Fault>';
    expect(maskEnvelope(xml)).toBe(`<s:Fault><faultcode>s:Client.InvalidSecurityToken</faultcode><faultstring>Invalid or Expired binary security token: ${MASK}</faultstring></s:Fault>`);
  });

  it('masks secrets under any prefix, in CDATA, with attributes, and every other occurrence of them', () => {
    const xml = '<x:UsernameToken><x:Password Type="t"><![CDATA[s3cr<et]]></x:Password></x:UsernameToken>'
      + '<Security xmlns="u"><BinarySecurityToken>tok-123/x</BinarySecurityToken></Security><ConversationId>tok-123/x</ConversationId><Note>s3cr<et</Note>';
    expect(maskEnvelope(xml)).toBe(
      `<x:UsernameToken><x:Password Type="t">${MASK}</x:Password></x:UsernameToken>`
      + `<Security xmlns="u"><BinarySecurityToken>${MASK}</BinarySecurityToken></Security><ConversationId>${MASK}</ConversationId><Note>${MASK}</Note>`,
    );
  });

  it('masks secrets in envelopes that are cut off or not well-formed', () => {
    expect(maskEnvelope('<wsse:UsernameToken><wsse:Username>u</wsse:Username><wsse:Password>hunter2')).toBe(
      `<wsse:UsernameToken><wsse:Username>u</wsse:Username><wsse:Password>${MASK}`,
    );
    expect(maskEnvelope(`<a><b>${SESSIONLESS_TOKEN}</b>`)).toBe(`<a><b>${MASK}</b>`);
  });

  it('masks anything shaped like a token wherever it is', () => {
    expect(maskEnvelope(`<eb:ConversationId>${SESSION_TOKEN}</eb:ConversationId> "${SESSIONLESS_TOKEN}"`)).toBe(`<eb:ConversationId>${MASK}</eb:ConversationId> "${MASK}"`);
  });

  it('leaves empty and self-closing secret elements as they are', () => {
    expect(maskEnvelope('<wsse:Password/><wsse:Password /><wsse:Password></wsse:Password>')).toBe('<wsse:Password/><wsse:Password /><wsse:Password></wsse:Password>');
  });

  it('leaves no password or token of any golden envelope', () => {
    for (const golden of goldenEnvelopes()) {
      const masked = maskEnvelope(golden.xml);
      expect({ name: golden.name, leaks: ['WS3CRET', 'p&amp;ss', 'ICESMS', 'T1RLAQ'].filter((s) => masked.includes(s)) }).toEqual({ name: golden.name, leaks: [] });
    }
  });
});

describe('envelope excerpts', () => {
  it('cuts out one element by local name, masked and with whitespace between tags collapsed', () => {
    expect(envelopeExcerpt(goldenEnvelope('request-session-close.xml').xml, { element: 'Security' })).toBe(
      '<wsse:Security xmlns:wsse="http://schemas.xmlsoap.org/ws/2002/12/secext">'
      + `<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">${MASK}</wsse:BinarySecurityToken></wsse:Security>`,
    );
    expect(envelopeExcerpt(goldenEnvelope('response-fault-authentication-failed.xml').xml, { element: 'Security' })).toBe(
      '<wsse:Security xmlns:wsse="http://schemas.xmlsoap.org/ws/2002/12/secext"/>',
    );
    expect(envelopeExcerpt(goldenEnvelope('request-ping.xml').xml, { element: 'Fault' })).toBeUndefined();
  });

  it('gives the whole envelope without its declaration, cut to the maximum length', () => {
    const excerpt = envelopeExcerpt(goldenEnvelope('request-ping.xml').xml, { maxLength: 80 });
    expect(excerpt).toBe('<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><…');
    expect(excerpt).toHaveLength(80);
  });
});
