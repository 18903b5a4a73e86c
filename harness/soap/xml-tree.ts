import type { SoapErrorCode } from './errors.ts';
import { fastXmlParser, lazily } from './fast-xml-parser.ts';
import { namespaceBindingProblem } from './namespaces.ts';
import type { XmlAttribute, XmlElement, XmlName } from './xml-element.ts';
import { INITIAL_SCOPE, quickXmlTree } from './xml-quick-parse.ts';
import { decodeEntities, findInvalidXmlChar } from './xml-text.ts';

export type { XmlAttribute, XmlElement, XmlName } from './xml-element.ts';

export type TreeErrorCode = Extract<SoapErrorCode, 'not-well-formed' | 'invalid-character' | 'namespace-error'>;

export type TreeResult =
  | { readonly ok: true; readonly root: XmlElement }
  | { readonly ok: false; readonly code: TreeErrorCode; readonly message: string };

type OrderedNode = Record<string, unknown>;

const parser = lazily(({ XMLParser }) => new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  cdataPropName: '#cdata',
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  allowBooleanAttributes: false,
  maxNestedTags: 64,
}));

class TreeError extends Error {
  constructor(readonly code: TreeErrorCode, message: string) {
    super(message);
  }
}

/**
 * Parses a document that has passed `screenInput` into a namespace-resolved element tree. fast-xml-parser is lenient
 * (it accepts mismatched tags, several roots, undefined entities), so well-formedness is checked around it: its
 * validator first, then one root element, only markup after it, entities and characters, and namespace rules.
 */
export function parseXmlTree(xml: string): TreeResult {
  const bad = findInvalidXmlChar(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml);
  if (bad !== undefined) return { ok: false, code: 'invalid-character', message: `the document holds ${bad}, which is not an XML character` };
  const text = xml.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { ok: false, code: 'not-well-formed', message: 'the document is empty' };
  const quick = quickXmlTree(text);
  if (quick !== undefined) return { ok: true, root: quick };
  return parseXmlTreeFully(text);
}

/** The full way: every document the quick path gives up on (harness/soap/xml-quick-parse.ts). `text` has no CR. */
export function parseXmlTreeFully(text: string): TreeResult {
  const checked = fastXmlParser().XMLValidator.validate(text);
  if (checked !== true) {
    const { msg, line, col } = checked.err;
    return { ok: false, code: 'not-well-formed', message: `${msg} (line ${line}${col === undefined ? '' : `, column ${col}`})` };
  }
  if (!endsWithMarkup(text)) return { ok: false, code: 'not-well-formed', message: 'text after the root element' };
  let nodes: unknown;
  try {
    nodes = parser().parse(text);
  } catch (error) {
    return { ok: false, code: 'not-well-formed', message: error instanceof Error ? error.message : String(error) };
  }
  const elements = (Array.isArray(nodes) ? (nodes as OrderedNode[]) : []).filter((node) => {
    const name = nodeName(node);
    return name !== '#text' || String(node['#text']).trim() !== '';
  });
  const [first] = elements;
  if (elements.length !== 1 || first === undefined || nodeName(first).startsWith('#')) {
    return { ok: false, code: 'not-well-formed', message: `a document has exactly one root element (found ${elements.length} top-level nodes)` };
  }
  try {
    return { ok: true, root: toElement(first, INITIAL_SCOPE) };
  } catch (error) {
    if (error instanceof TreeError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/** After the root element only whitespace, comments and processing instructions may follow (XML §2.1 `Misc`). */
function endsWithMarkup(text: string): boolean {
  let rest = text.trimEnd();
  for (;;) {
    if (rest.endsWith('-->')) {
      const start = rest.lastIndexOf('<!--');
      if (start < 0) return false;
      rest = rest.slice(0, start).trimEnd();
    } else if (rest.endsWith('?>')) {
      const start = rest.lastIndexOf('<?');
      if (start < 0) return false;
      rest = rest.slice(0, start).trimEnd();
    } else {
      return rest.endsWith('>');
    }
  }
}

function nodeName(node: OrderedNode): string {
  return Object.keys(node).find((key) => key !== ':@') ?? '';
}

function decode(raw: string, where: string): string {
  const decoded = decodeEntities(raw);
  if (!decoded.ok) throw new TreeError('not-well-formed', `${decoded.message} in ${where}`);
  return decoded.text;
}

function splitQName(qname: string, where: string): [prefix: string | undefined, local: string] {
  const parts = qname.split(':');
  if (parts.length === 1) return [undefined, qname];
  const [prefix, local] = parts;
  if (parts.length !== 2 || !prefix || !local) throw new TreeError('namespace-error', `"${qname}" is not a qualified name (${where})`);
  return [prefix, local];
}

function toElement(node: OrderedNode, parentScope: ReadonlyMap<string, string>): XmlElement {
  const qname = nodeName(node);
  const rawAttributes = (node[':@'] ?? {}) as Record<string, unknown>;
  let scope = parentScope;
  const plain: [string, string][] = [];
  for (const [key, rawValue] of Object.entries(rawAttributes)) {
    const name = key.slice(2);
    const raw = String(rawValue);
    if (raw.includes('<')) throw new TreeError('not-well-formed', `"<" in the value of attribute ${name} of <${qname}>`);
    // Attribute-value normalisation (XML §3.3.3): literal whitespace becomes a space, references are kept.
    const value = decode(raw.replace(/[\t\n]/g, ' '), `attribute ${name} of <${qname}>`);
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      const prefix = name === 'xmlns' ? '' : name.slice(6);
      const problem = namespaceBindingProblem(name, prefix, value, qname);
      if (problem !== undefined) throw new TreeError('namespace-error', problem);
      if (scope === parentScope) scope = new Map(parentScope);
      (scope as Map<string, string>).set(prefix, value);
    } else {
      plain.push([name, value]);
    }
  }
  const [prefix, localName] = splitQName(qname, `element <${qname}>`);
  const namespace = prefix === undefined ? scope.get('') || undefined : scope.get(prefix);
  if (prefix !== undefined && namespace === undefined) throw new TreeError('namespace-error', `the prefix "${prefix}" of <${qname}> is not bound`);

  const attributes: XmlAttribute[] = [];
  const seen = new Set<string>();
  for (const [name, value] of plain) {
    const [attrPrefix, attrLocal] = splitQName(name, `attribute ${name} of <${qname}>`);
    // Unprefixed attributes are in no namespace (Namespaces in XML §6.2).
    const attrNamespace = attrPrefix === undefined ? undefined : scope.get(attrPrefix);
    if (attrPrefix !== undefined && attrNamespace === undefined) {
      throw new TreeError('namespace-error', `the prefix "${attrPrefix}" of attribute ${name} on <${qname}> is not bound`);
    }
    const key = `{${attrNamespace ?? ''}}${attrLocal}`;
    if (seen.has(key)) throw new TreeError('not-well-formed', `attribute ${key} appears twice on <${qname}>`);
    seen.add(key);
    attributes.push({ namespace: attrNamespace, localName: attrLocal, prefix: attrPrefix, value });
  }

  const children: XmlElement[] = [];
  let text = '';
  const content = node[qname];
  for (const child of Array.isArray(content) ? (content as OrderedNode[]) : []) {
    const childName = nodeName(child);
    if (childName === '#text') {
      const raw = String(child['#text']);
      if (raw.includes(']]>')) throw new TreeError('not-well-formed', `"]]>" in the text of <${qname}>`);
      text += decode(raw, `the text of <${qname}>`);
    } else if (childName === '#cdata') {
      const parts = child['#cdata'];
      for (const part of Array.isArray(parts) ? (parts as OrderedNode[]) : []) text += String(part['#text'] ?? '');
    } else {
      children.push(toElement(child, scope));
    }
  }
  return { namespace, localName, prefix, attributes, children, text, inScope: scope };
}

/** The first child element with this namespace and local name. */
export function childElement(parent: XmlElement | undefined, namespace: string | undefined, localName: string): XmlElement | undefined {
  return parent?.children.find((child) => child.namespace === namespace && child.localName === localName);
}

/** The value of an attribute (no namespace unless one is given). */
export function attributeValue(element: XmlElement | undefined, localName: string, namespace?: string): string | undefined {
  return element?.attributes.find((a) => a.localName === localName && a.namespace === namespace)?.value;
}

/** Clark notation, `{namespace}local`, for messages. */
export function clarkName(name: XmlName): string {
  return name.namespace === undefined ? name.localName : `{${name.namespace}}${name.localName}`;
}
