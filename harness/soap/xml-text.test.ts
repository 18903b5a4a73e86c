import { fc, test } from '../../test/support/property-test.ts';
import { describe, expect, it } from 'vitest';
import { decodeEntities, escapeAttribute, escapeText, findInvalidXmlChar, XmlTextError } from './xml-text.ts';

const SESSION_TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-3177016070087638144!110012!0';

describe('XML text escaping', () => {
  it('leaves a session token with "/", "\\" and "!" unchanged', () => {
    expect(escapeText(SESSION_TOKEN)).toBe(SESSION_TOKEN);
  });

  it('escapes &, <, > and CR in text', () => {
    expect(escapeText('a&b<c>d]]>e\r\nf')).toBe('a&amp;b&lt;c&gt;d]]&gt;e&#13;\nf');
  });

  it('escapes quotes and whitespace in attribute values so that normalisation cannot change them', () => {
    expect(escapeAttribute(`"x" 'y'\t\n\r<&>`)).toBe('&quot;x&quot; &apos;y&apos;&#9;&#10;&#13;&lt;&amp;&gt;');
  });

  it('refuses characters XML 1.0 cannot carry, naming where they are', () => {
    expect(() => escapeText('a\u0000b', 'the text of <wsse:Password>')).toThrow(XmlTextError);
    expect(() => escapeText('a\u0000b', 'the text of <wsse:Password>')).toThrow(
      'the text of <wsse:Password> holds U+0000, which XML 1.0 cannot carry (not even as a character reference)',
    );
    expect(() => escapeAttribute('\uD800')).toThrow('attribute value holds U+D800');
    expect(findInvalidXmlChar('\uFFFE')).toBe('U+FFFE');
    expect(findInvalidXmlChar('😀 ok\t\n\r')).toBeUndefined();
  });
});

describe('XML entity decoding', () => {
  it('decodes the predefined entities and character references', () => {
    expect(decodeEntities('&lt;&gt;&amp;&apos;&quot;&#65;&#x1F600;&#13;')).toEqual({ ok: true, text: `<>&'"A😀\r` });
  });

  it.each([
    ['a & b', 'a bare "&" in "a & b" (write "&amp;")'],
    ['&lt', 'a bare "&" in "&lt" (write "&amp;")'],
    ['&nbsp;', 'undefined entity "&nbsp;" (only &lt; &gt; &amp; &apos; &quot; and character references exist without a DTD)'],
    ['&xxe;', 'undefined entity "&xxe;" (only &lt; &gt; &amp; &apos; &quot; and character references exist without a DTD)'],
    ['&#0;', 'the character reference "&#0;" is not an XML character'],
    ['&#xD800;', 'the character reference "&#xD800;" is not an XML character'],
    ['&#x110000;', 'the character reference "&#x110000;" is not an XML character'],
  ])('refuses %j', (raw, message) => {
    expect(decodeEntities(raw)).toEqual({ ok: false, message });
  });

  test.prop({ text: fc.string({ unit: 'grapheme' }) }, { numRuns: 200 })(
    'decoding inverts escaping for any text of XML characters',
    ({ text }) => {
      fc.pre(findInvalidXmlChar(text) === undefined);
      expect(decodeEntities(escapeText(text))).toEqual({ ok: true, text });
      expect(decodeEntities(escapeAttribute(text))).toEqual({ ok: true, text });
    },
  );
});
