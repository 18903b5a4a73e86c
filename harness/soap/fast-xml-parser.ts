/**
 * fast-xml-parser, loaded when first needed: its import costs about 38 ms of a process's start (Node 20, this
 * machine), and most runs never need it. Envelopes in the shape the harness and the simulator write are read by the
 * quick path (xml-quick-parse.ts) and written by the one-line writer (xml-builder.ts); fast-xml-parser reads what the
 * quick path gives up on and writes indented XML. Its CommonJS build is the one loaded (a synchronous load), the same
 * version as its ES module build, and the only one the harness loads.
 */
import { createRequire } from 'node:module';
import type * as FastXmlParser from 'fast-xml-parser';

const require = createRequire(import.meta.url);
let loaded: typeof FastXmlParser | undefined;

/** fast-xml-parser's exports, loaded at the first call. */
export function fastXmlParser(): typeof FastXmlParser {
  return (loaded ??= require('fast-xml-parser') as typeof FastXmlParser);
}

/** A value made from fast-xml-parser at its first use (a parser or builder with its options), then kept. */
export function lazily<T>(make: (fxp: typeof FastXmlParser) => T): () => T {
  let value: T | undefined;
  return () => (value ??= make(fastXmlParser()));
}
