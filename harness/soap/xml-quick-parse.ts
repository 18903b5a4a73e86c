/**
 * The quick path of `parseXmlTree`: one pass over a document in the plain shape envelopes have (an optional XML
 * declaration, elements, attributes in double or single quotes, text with the predefined entities and character
 * references), building the namespace-resolved tree directly. It decides nothing: anything else (a comment, CDATA, a
 * processing instruction, a DOCTYPE, a CR, a name outside ASCII, a space around `=` or in an end tag, markup after
 * the root, any error at all) makes it give up, and `parseXmlTree` parses the document the full way, which says why
 * a document is not well-formed. Where it returns a tree, it is the tree the full way returns (xml-quick-parse.test.ts
 * holds the two to it on generated and mutated documents, and on every envelope in the fixtures).
 *
 * Why: every envelope a run sends and answers is parsed (the simulator reads the request, the checks the answer), and
 * the full way (fast-xml-parser's validator, then its parser, then a walk resolving namespaces) was a sixth of a run.
 */
import type { XmlAttribute, XmlElement } from './xml-element.ts';
import { namespaceBindingProblem, NS } from './namespaces.ts';
import { decodeEntities } from './xml-text.ts';

/** The bindings every document starts with. */
export const INITIAL_SCOPE: ReadonlyMap<string, string> = new Map([['xml', NS.xml]]);

/** Deeper than this, the full way decides (its parser's limit is 64 nested tags). */
const MAX_DEPTH = 48;

/** An XML declaration as envelopes write it. */
const DECLARATION = /<\?xml version="1\.0"(?: encoding="[A-Za-z][A-Za-z0-9._-]*")?(?: standalone="(?:yes|no)")?\?>/y;
/** A qualified name in ASCII: a prefix and a local name, or a local name alone. */
const QNAME = /[A-Za-z_][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_.-]*)?/y;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09;

interface Open {
  readonly qname: string;
  readonly prefix: string | undefined;
  readonly localName: string;
  readonly namespace: string | undefined;
  readonly attributes: XmlAttribute[];
  readonly scope: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/** The document's tree, or `undefined` when the full way must decide. `text` has no CR (parseXmlTree normalised). */
export function quickXmlTree(text: string): XmlElement | undefined {
  const end = text.length;
  let pos = 0;
  if (text.startsWith('<?xml', 0)) {
    DECLARATION.lastIndex = 0;
    if (!DECLARATION.test(text)) return undefined;
    pos = DECLARATION.lastIndex;
    while (pos < end && isSpace(text.charCodeAt(pos))) pos++;
  }
  if (text.charCodeAt(pos) !== 0x3c /* < */) return undefined;
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  /** A closed element goes to its parent, or is the root. */
  const place = (element: XmlElement) => {
    if (stack.length === 0) root = element;
    else stack.at(-1)!.children.push(element);
  };
  while (pos < end) {
    if (text.charCodeAt(pos) !== 0x3c) {
      // Character data up to the next markup.
      const lt = text.indexOf('<', pos);
      const top = stack.at(-1);
      if (top === undefined) {
        // After the root: only whitespace here (the full way judges anything else).
        for (let i = pos; i < end; i++) if (!isSpace(text.charCodeAt(i))) return undefined;
        break;
      }
      if (lt < 0) return undefined;
      const raw = text.slice(pos, lt);
      if (raw.includes(']]>')) return undefined;
      const decoded = decodeEntities(raw);
      if (!decoded.ok) return undefined;
      top.text += decoded.text;
      pos = lt;
      continue;
    }
    const next = text.charCodeAt(pos + 1);
    if (next === 0x2f /* / */) {
      // An end tag, written `</name>`.
      const top = stack.pop();
      if (top === undefined || !text.startsWith(top.qname, pos + 2) || text.charCodeAt(pos + 2 + top.qname.length) !== 0x3e) return undefined;
      pos += 3 + top.qname.length;
      place(close(top));
      continue;
    }
    if (root !== undefined || stack.length >= MAX_DEPTH) return undefined;
    // A start tag (or an empty-element tag).
    QNAME.lastIndex = pos + 1;
    const nameMatch = QNAME.exec(text);
    if (nameMatch === null) return undefined;
    const qname = nameMatch[0];
    pos = QNAME.lastIndex;
    const parentScope = stack.at(-1)?.scope ?? INITIAL_SCOPE;
    let scope = parentScope;
    const plain: [string, string][] = [];
    const names = new Set<string>();
    let empty = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x3e /* > */) {
        pos++;
        break;
      }
      if (c === 0x2f /* / */) {
        if (text.charCodeAt(pos + 1) !== 0x3e) return undefined;
        pos += 2;
        empty = true;
        break;
      }
      if (!isSpace(c)) return undefined;
      while (pos < end && isSpace(text.charCodeAt(pos))) pos++;
      const after = text.charCodeAt(pos);
      if (after === 0x3e || after === 0x2f) continue;
      QNAME.lastIndex = pos;
      const attrMatch = QNAME.exec(text);
      if (attrMatch === null) return undefined;
      const name = attrMatch[0];
      pos = QNAME.lastIndex;
      const quote = text.charCodeAt(pos + 1);
      if (text.charCodeAt(pos) !== 0x3d /* = */ || (quote !== 0x22 && quote !== 0x27) || names.has(name)) return undefined;
      names.add(name);
      const closeAt = text.indexOf(quote === 0x22 ? '"' : "'", pos + 2);
      if (closeAt < 0) return undefined;
      const raw = text.slice(pos + 2, closeAt);
      if (raw.includes('<')) return undefined;
      pos = closeAt + 1;
      // Attribute-value normalisation (XML §3.3.3): literal whitespace becomes a space, references are kept.
      const decoded = decodeEntities(raw.replace(/[\t\n]/g, ' '));
      if (!decoded.ok) return undefined;
      const value = decoded.text;
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        const prefix = name === 'xmlns' ? '' : name.slice(6);
        if (namespaceBindingProblem(name, prefix, value, qname) !== undefined) return undefined;
        if (scope === parentScope) scope = new Map(parentScope);
        (scope as Map<string, string>).set(prefix, value);
      } else {
        plain.push([name, value]);
      }
    }
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? undefined : qname.slice(0, colon);
    const localName = colon < 0 ? qname : qname.slice(colon + 1);
    const namespace = prefix === undefined ? scope.get('') || undefined : scope.get(prefix);
    if (prefix !== undefined && namespace === undefined) return undefined;
    const attributes: XmlAttribute[] = [];
    const seen = new Set<string>();
    for (const [name, value] of plain) {
      const attrColon = name.indexOf(':');
      const attrPrefix = attrColon < 0 ? undefined : name.slice(0, attrColon);
      const attrLocal = attrColon < 0 ? name : name.slice(attrColon + 1);
      // Unprefixed attributes are in no namespace (Namespaces in XML §6.2).
      const attrNamespace = attrPrefix === undefined ? undefined : scope.get(attrPrefix);
      if (attrPrefix !== undefined && attrNamespace === undefined) return undefined;
      const key = `{${attrNamespace ?? ''}}${attrLocal}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      attributes.push({ namespace: attrNamespace, localName: attrLocal, prefix: attrPrefix, value });
    }
    const open: Open = { qname, prefix, localName, namespace, attributes, scope, children: [], text: '' };
    if (empty) place(close(open));
    else stack.push(open);
  }
  return stack.length === 0 ? root : undefined;
}

function close(open: Open): XmlElement {
  return { namespace: open.namespace, localName: open.localName, prefix: open.prefix, attributes: open.attributes, children: open.children, text: open.text, inScope: open.scope };
}
