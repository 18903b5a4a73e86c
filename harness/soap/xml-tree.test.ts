import { describe, expect, it } from 'vitest';
import { NS } from './namespaces.ts';
import { attributeValue, childElement, clarkName, parseXmlTree } from './xml-tree.ts';

function root(xml: string) {
  const result = parseXmlTree(xml);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.root;
}

describe('namespace-aware XML tree', () => {
  it('resolves prefixes, default namespaces and their undeclaration', () => {
    const tree = root(`<s:E xmlns:s="${NS.soapEnv}" xmlns="urn:d"><x><y xmlns=""/><s:z/></x></s:E>`);
    expect(clarkName(tree)).toBe(`{${NS.soapEnv}}E`);
    const x = childElement(tree, 'urn:d', 'x');
    expect(x?.prefix).toBeUndefined();
    expect(childElement(x, undefined, 'y')).toBeDefined();
    expect(childElement(x, NS.soapEnv, 'z')?.prefix).toBe('s');
  });

  it('puts unprefixed attributes in no namespace and prefixed ones in theirs', () => {
    const tree = root(`<eb:P xmlns:eb="${NS.eb}" xmlns="${NS.eb}" type="a" eb:type="b"/>`);
    expect(attributeValue(tree, 'type')).toBe('a');
    expect(attributeValue(tree, 'type', NS.eb)).toBe('b');
    expect(tree.attributes).toHaveLength(2);
  });

  it('decodes entities and keeps CDATA as written, without trimming', () => {
    const tree = root('<a> x &amp; y <![CDATA[&amp; <b>]]> &#13;</a>');
    expect(tree.text).toBe(' x & y &amp; <b> \r');
  });

  it('normalises line ends and attribute whitespace as XML requires', () => {
    const tree = root('<a v="1\t2\n3&#10;4">x\r\ny\rz</a>');
    expect(attributeValue(tree, 'v')).toBe('1 2 3\n4');
    expect(tree.text).toBe('x\ny\nz');
  });

  it.each([
    ['<a><b></a></b>', 'not-well-formed', "Expected closing tag 'b' (opened in line 1, col 4) instead of closing tag 'a'. (line 1, column 7)"],
    ['<a/><b/>', 'not-well-formed', 'a document has exactly one root element (found 2 top-level nodes)'],
    ['<a/>junk', 'not-well-formed', 'text after the root element'],
    ['<a>1 &foo; 2</a>', 'not-well-formed', 'undefined entity "&foo;" (only &lt; &gt; &amp; &apos; &quot; and character references exist without a DTD) in the text of <a>'],
    ['<a b="<"/>', 'not-well-formed', '"<" in the value of attribute b of <a>'],
    ['<a>]]></a>', 'not-well-formed', '"]]>" in the text of <a>'],
    ['<a b="1" b="2"/>', 'not-well-formed', "Attribute 'b' is repeated. (line 1, column 10)"],
    ['<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>', 'not-well-formed', 'attribute {u}x appears twice on <a>'],
    ['<a>\u0001</a>', 'invalid-character', 'the document holds U+0001, which is not an XML character'],
    ['<p:a/>', 'namespace-error', 'the prefix "p" of <p:a> is not bound'],
    ['<a p:b="1"/>', 'namespace-error', 'the prefix "p" of attribute p:b on <a> is not bound'],
    ['<a:b:c xmlns:a="u"/>', 'namespace-error', '"a:b:c" is not a qualified name (element <a:b:c>)'],
    ['<a xmlns:p=""/>', 'namespace-error', 'xmlns:p="" on <a>: a prefix cannot be unbound in XML 1.0'],
    ['<a xmlns:xml="urn:other"/>', 'namespace-error', 'reserved namespace binding xmlns:xml="urn:other" on <a>'],
  ])('refuses %j as %s', (xml, code, message) => {
    expect(parseXmlTree(xml)).toEqual({ ok: false, code, message });
  });

  it('accepts comments and processing instructions after the root', () => {
    expect(parseXmlTree('<?xml version="1.0"?><a/><!-- c --><?pi x?>\n').ok).toBe(true);
  });
});
