import { fc, test } from '../../test/support/property-test.ts';
import { describe, expect, it } from 'vitest';
import { element, writeXml, writeXmlWithBuilder, type ElementSpec } from './xml-builder.ts';
import { binaryUnit } from '../../test/support/binary-unit.ts';

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

/** An element tree as the builders write them: names as written, any attribute values and texts (XML's or not). */
const specArbitrary = fc.letrec<{ spec: ElementSpec }>((tie) => ({
  spec: fc.record({
    name: fc.constantFrom('a', 'soap-env:Envelope', 'eb:PartyId', 'wsse:BinarySecurityToken', 'x1'),
    attributes: fc.uniqueArray(fc.tuple(fc.constantFrom('b', 'xmlns:eb', 'eb:version', 'valueType', 'c'), fc.oneof(fc.string(), fc.string({ unit: binaryUnit }))), { maxLength: 3, selector: ([n]) => n }),
    children: fc.array(fc.oneof({ depthSize: 'small' }, { weight: 2, arbitrary: fc.oneof(fc.constant(''), fc.string(), fc.string({ unit: binaryUnit, maxLength: 4 })) }, { weight: 1, arbitrary: tie('spec') }), { maxLength: 3 }),
  }),
})).spec;

const outcome = (write: () => string): { xml: string } | { error: string } => {
  try {
    return { xml: write() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
};

describe('the one-line writer', () => {
  test.prop([specArbitrary, fc.boolean()], { numRuns: 300 })('writes what fast-xml-parser\'s XMLBuilder writes, or fails as it does', (spec, xmlDeclaration) => {
    expect(outcome(() => writeXml(spec, { xmlDeclaration }))).toEqual(outcome(() => writeXmlWithBuilder(spec, { xmlDeclaration })));
  });
});
