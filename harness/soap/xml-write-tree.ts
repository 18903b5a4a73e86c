import type { XmlElement } from './xml-element.ts';
import { escapeAttribute, escapeText } from './xml-text.ts';

/**
 * Writes a parsed element tree (harness/soap/xml-tree.ts) back as XML: each element with the prefix it was written
 * with, declaring on it the bindings of its scope that its parent's scope lacks (so QName values resolve as they did),
 * its own text before its children (the tree keeps no order between them: fine for element-only content, where text
 * is whitespace). Not the original bytes: a document to validate, not to send.
 */
export function writeXmlTree(root: XmlElement, parentScope: ReadonlyMap<string, string> = new Map([['xml', 'http://www.w3.org/XML/1998/namespace']])): string {
  const declarations: string[] = [];
  for (const [prefix, uri] of root.inScope) {
    if (prefix === 'xml' || parentScope.get(prefix) === uri) continue;
    declarations.push(prefix === '' ? ` xmlns="${escapeAttribute(uri)}"` : ` xmlns:${prefix}="${escapeAttribute(uri)}"`);
  }
  if (parentScope.has('') && !root.inScope.has('')) declarations.push(' xmlns=""');
  const name = root.prefix ? `${root.prefix}:${root.localName}` : root.localName;
  const attributes = root.attributes.map((a) => ` ${a.prefix ? `${a.prefix}:` : ''}${a.localName}="${escapeAttribute(a.value)}"`).join('');
  const children = root.children.map((c) => writeXmlTree(c, root.inScope)).join('');
  const content = `${escapeText(root.text)}${children}`;
  return content === '' ? `<${name}${declarations.join('')}${attributes}/>` : `<${name}${declarations.join('')}${attributes}>${content}</${name}>`;
}
