import { validateXML } from 'xsd-schema-validator';
import { DEFAULT_MAX_ENVELOPE_BYTES, screenInput } from '../../harness/soap/hostile-input.ts';
import { schemaPath, type SchemaName } from '../../harness/soap/schemas.ts';
import { VALID, type Verdict } from '../../harness/soap/verdict.ts';
import { parseXmlTree } from '../../harness/soap/xml-tree.ts';

/**
 * The per-call validation path: the `xsd-schema-validator` package, which starts one JVM per document (~170 ms).
 * The reference the fast path ({@link createValidator}) is held to. Hostile input is refused first, as on the fast
 * path: the library's own parser would expand a DTD's entities (it reads `SYSTEM` entities from disk).
 */
export async function validateWithXsdSchemaValidator(
  xml: string,
  schema: SchemaName,
  options: { readonly maxBytes?: number } = {},
): Promise<Verdict> {
  const screened = screenInput(xml, options.maxBytes ?? DEFAULT_MAX_ENVELOPE_BYTES);
  if (screened) return { valid: false, code: screened.code, errors: [`[fatal] ${screened.message}`] };
  try {
    await validateXML(xml, schemaPath(schema));
    return VALID;
  } catch (error) {
    // The library rejects with an Error carrying { valid: false, messages } for an invalid document; anything else
    // (no Java, …) is not a verdict.
    if (!isInvalidResult(error)) throw error;
    const errors = error.messages.flatMap((m) => m.split(/(?=\[(?:error|fatal|warning)\] )/)).map((m) => m.trim()).filter(Boolean);
    // The library settles on the JVM's exit, which can come before its stderr is read: without messages, whether the
    // document is XML at all is decided here.
    const fatal = errors.length > 0 ? errors.some((m) => m.startsWith('[fatal]')) : !parseXmlTree(xml).ok;
    return { valid: false, code: fatal ? 'not-well-formed' : 'schema-invalid', errors };
  }
}

function isInvalidResult(error: unknown): error is Error & { valid: false; messages: string[] } {
  return error instanceof Error && (error as { valid?: unknown }).valid === false && Array.isArray((error as { messages?: unknown }).messages);
}
