import { describe, expect, it } from 'vitest';
import { element, writeXml } from './xml-builder.ts';

describe('XML writing', () => {
  it('keeps attribute order, leaves out undefined attributes and writes "true" in full', () => {
    expect(writeXml(element('x', { b: '1', a: undefined, c: 'true' }), { xmlDeclaration: false })).toBe('<x b="1" c="true"/>');
  });

  it('self-closes empty elements and escapes text and attribute values', () => {
    expect(writeXml(element('p:a', { 'xmlns:p': 'urn:p', q: `'"<&>\n` }, element('b'), 'x<y&z>', element('c', {}, '')), { xmlDeclaration: false })).toBe(
      '<p:a xmlns:p="urn:p" q="&apos;&quot;&lt;&amp;&gt;&#10;"><b/>x&lt;y&amp;z&gt;<c/></p:a>',
    );
  });

  it('writes the XML declaration first by default', () => {
    expect(writeXml(element('a'))).toBe('<?xml version="1.0" encoding="UTF-8"?><a/>');
  });

  it('indents on request', () => {
    expect(writeXml(element('a', {}, element('b', {}, 'text'), element('c')), { pretty: true })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<a>\n  <b>text</b>\n  <c/>\n</a>',
    );
  });
});
