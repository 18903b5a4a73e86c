import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { XmlDocument, XmlLibError, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';
import { DEFAULT_MAX_ENVELOPE_BYTES, screenInput } from './hostile-input.ts';
import { asUtf8Text } from './text-encoding.ts';
import { SCHEMA_NAMES, schemaPath, type SchemaName } from './schemas.ts';
import type { EnvelopeValidator } from './validator.ts';
import { VALID, type Verdict } from './verdict.ts';

/**
 * The in-process validation path: libxml2 compiled to WebAssembly (`libxml2-wasm`), in the calling thread — no JVM to
 * start, nothing to wait for, 36 µs a document (bench/validation.ts). Held to the JVM fast path on every golden
 * envelope (in-process-validator.test.ts), which xsd-schema-validator, the reference, holds in turn. The same `Verdict`:
 * hostile input refused first (no DTD reaches libxml2), `not-well-formed` for what its parser refuses,
 * `schema-invalid` for what the schema does; the messages are libxml2's, `[error] text (line:col)`.
 */
export interface InProcessValidator {
  /** Synchronous: the verdict at once. */
  validateNow(xml: string, schema: SchemaName): Verdict;
  close(): void;
}

let registered = false;

/** Compiles the three top-level schemas of fixtures/xsd (they import the others by relative path): 35 ms. */
export function createInProcessValidator(options: { readonly maxBytes?: number } = {}): InProcessValidator {
  if (!registered) {
    xmlRegisterFsInputProviders();
    registered = true;
  }
  const validators = new Map<SchemaName, XsdValidator>();
  for (const name of SCHEMA_NAMES) {
    const path = schemaPath(name);
    const doc = XmlDocument.fromString(readFileSync(path, 'utf8'), { url: pathToFileURL(path).href });
    try {
      validators.set(name, XsdValidator.fromDoc(doc));
    } finally {
      doc.dispose();
    }
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_ENVELOPE_BYTES;
  return {
    validateNow(xml, schema) {
      const screened = screenInput(xml, maxBytes);
      if (screened) return { valid: false, code: screened.code, errors: [`[fatal] ${screened.message}`] };
      let doc: XmlDocument;
      try {
        doc = XmlDocument.fromString(asUtf8Text(xml));
      } catch (error) {
        return { valid: false, code: 'not-well-formed', errors: messages(error, '[fatal]') };
      }
      try {
        validators.get(schema)!.validate(doc);
        return VALID;
      } catch (error) {
        return { valid: false, code: 'schema-invalid', errors: messages(error, '[error]') };
      } finally {
        doc.dispose();
      }
    },
    close() {
      for (const v of validators.values()) v.dispose();
      validators.clear();
    },
  };
}

function messages(error: unknown, level: string): string[] {
  if (error instanceof XmlLibError && error.details.length > 0) {
    return error.details.slice(0, 20).map((d) => `${level} ${d.message.trim()} (${d.line}:${d.col})`);
  }
  return [`${level} ${error instanceof Error ? error.message : String(error)}`];
}

/** The in-process validator behind the `EnvelopeValidator` interface of the JVM paths (`pid` undefined: no process). */
export function inProcessEnvelopeValidator(options: { readonly maxBytes?: number } = {}): EnvelopeValidator {
  const v = createInProcessValidator(options);
  return {
    pid: undefined,
    validate: async (xml, schema) => v.validateNow(xml, schema),
    close: async () => v.close(),
  };
}
