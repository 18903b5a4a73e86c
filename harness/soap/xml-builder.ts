import { XMLBuilder } from 'fast-xml-parser';
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
const builder = new XMLBuilder({ ...builderOptions, format: false });
const prettyBuilder = new XMLBuilder({ ...builderOptions, format: true, indentBy: '  ' });

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

/** Serialises one element tree with fast-xml-parser's XMLBuilder. Throws `XmlTextError` for text XML cannot carry. */
export function writeXml(root: ElementSpec, options: WriteOptions = {}): string {
  const nodes: OrderedNode[] = [];
  if (options.xmlDeclaration ?? true) {
    nodes.push({ '?xml': [{ '#text': '' }], ':@': { '@_version': '1.0', '@_encoding': 'UTF-8' } });
  }
  nodes.push(toOrdered(root));
  const xml: string = (options.pretty ? prettyBuilder : builder).build(nodes);
  return options.pretty ? xml.trim() : xml;
}
