import { lazily } from './fast-xml-parser.ts';
import { escapeAttribute, escapeText } from './xml-text.ts';

/**
 * An element to write: its qualified name as written (`eb:PartyId`), its attributes in the order they are written
 * (namespace declarations included, e.g. `xmlns:eb`), and its children (elements or text).
 */
export interface ElementSpec {
  readonly name: string;
  readonly attributes: readonly (readonly [name: string, value: string])[];
  readonly children: readonly (ElementSpec | string)[];
}

/**
 * An {@link ElementSpec}; attributes whose value is `undefined` are left out, the others keep their order.
 * @example element('wsse:BinarySecurityToken', { valueType: 'String', EncodingType: 'wsse:Base64Binary' }, token)
 */
export function element(
  name: string,
  attributes: Readonly<Record<string, string | undefined>> = {},
  ...children: readonly (ElementSpec | string | undefined)[]
): ElementSpec {
  return {
    name,
    attributes: Object.entries(attributes).filter((entry): entry is [string, string] => entry[1] !== undefined),
    children: children.filter((child): child is ElementSpec | string => child !== undefined),
  };
}

/** fast-xml-parser's ordered form: `{ [tag]: children, ':@': { '@_name': value } }` or `{ '#text': text }`. */
type OrderedNode = { [key: string]: OrderedNode[] | Record<string, string> | string };

// Text and attribute values are escaped by `toOrdered` (where the element name is known for error messages), so the
// builder writes them as they are: no entity processing, no "true" shortened to a bare attribute.
const builderOptions = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  processEntities: false,
} as const;
const builder = lazily(({ XMLBuilder }) => new XMLBuilder({ ...builderOptions, format: false }));
const prettyBuilder = lazily(({ XMLBuilder }) => new XMLBuilder({ ...builderOptions, format: true, indentBy: '  ' }));

function toOrdered(spec: ElementSpec): OrderedNode {
  const node: OrderedNode = {
    [spec.name]: spec.children.map((child) =>
      typeof child === 'string' ? { '#text': escapeText(child, `the text of <${spec.name}>`) } : toOrdered(child),
    ),
  };
  if (spec.attributes.length > 0) {
    const attributes: Record<string, string> = {};
    for (const [name, value] of spec.attributes) {
      attributes[`@_${name}`] = escapeAttribute(value, `the attribute ${name} of <${spec.name}>`);
    }
    node[':@'] = attributes;
  }
  return node;
}

export interface WriteOptions {
  /** Write `<?xml version="1.0" encoding="UTF-8"?>` first (default true). */
  readonly xmlDeclaration?: boolean;
  /** Indent the output (default false: one line, as the real service sends it). Changes text content of mixed nodes. */
  readonly pretty?: boolean;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * Serialises one element tree. Throws `XmlTextError` for text XML cannot carry. One line (the default) is written
 * here directly, in one pass over the tree: every envelope the simulator answers and every request the checks send is
 * written this way, and fast-xml-parser's XMLBuilder (a copy of the tree in its ordered form, then a walk that tracks
 * paths for its stop-node and name options, none of which is used here) cost a fifth of a run's XML work. The bytes
 * are the XMLBuilder's (xml-builder.test.ts holds the two to it on generated trees); indented output is still its.
 */
export function writeXml(root: ElementSpec, options: WriteOptions = {}): string {
  if (options.pretty) return (prettyBuilder().build(orderedDocument(root, options)) as string).trim();
  return (options.xmlDeclaration ?? true) ? DECLARATION + writeElement(root) : writeElement(root);
}

/** One element on one line, as XMLBuilder writes it: self-closed when it has no content (or only empty text). */
function writeElement(spec: ElementSpec): string {
  // Content before attributes, as `toOrdered` escapes them: with several bad texts, the same one is reported.
  let content = '';
  for (const child of spec.children) content += typeof child === 'string' ? escapeText(child, `the text of <${spec.name}>`) : writeElement(child);
  let start = `<${spec.name}`;
  for (const [name, value] of spec.attributes) start += ` ${name}="${escapeAttribute(value, `the attribute ${name} of <${spec.name}>`)}"`;
  return content === '' ? `${start}/>` : `${start}>${content}</${spec.name}>`;
}

/** The XMLBuilder's one-line output for the tree, the reference `writeXml` is held to (tests only). */
export function writeXmlWithBuilder(root: ElementSpec, options: Pick<WriteOptions, 'xmlDeclaration'> = {}): string {
  return builder().build(orderedDocument(root, options)) as string;
}

/** The document in XMLBuilder's ordered form: the declaration (unless left out), then the root. */
function orderedDocument(root: ElementSpec, options: Pick<WriteOptions, 'xmlDeclaration'>): OrderedNode[] {
  const declaration: OrderedNode = { '?xml': [{ '#text': '' }], ':@': { '@_version': '1.0', '@_encoding': 'UTF-8' } };
  return (options.xmlDeclaration ?? true) ? [declaration, toOrdered(root)] : [toOrdered(root)];
}
