/** The element tree `parseXmlTree` returns (harness/soap/xml-tree.ts). */

/** An expanded name: namespace URI (undefined for none), local name, and the prefix it was written with. */
export interface XmlName {
  readonly namespace: string | undefined;
  readonly localName: string;
  readonly prefix: string | undefined;
}

export interface XmlAttribute extends XmlName {
  readonly value: string;
}

/** A parsed element with resolved namespaces. Namespace declarations are not attributes here. */
export interface XmlElement extends XmlName {
  readonly attributes: readonly XmlAttribute[];
  readonly children: readonly XmlElement[];
  /** The element's own character data (text and CDATA, entities decoded), untrimmed. */
  readonly text: string;
  /** The prefix bindings in scope ('' for the default namespace), for resolving QName values such as faultcode. */
  readonly inScope: ReadonlyMap<string, string>;
}
