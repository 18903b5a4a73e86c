import { fileURLToPath } from 'node:url';

/**
 * The top-level schemas of `fixtures/xsd/`: `request` is what a client's request of an auth operation must satisfy
 * (SOAP-01, strict), `request-business` what its request of a business call must (the same envelope and header, any
 * body: the business payloads are outside the document, and the Refresh Session ping's is "not shown"), `response` what a service's response to an auth operation must satisfy (SOAP-02, faults included), and
 * `response-business` what its answer to a business call must: the same envelope and header, any body (the business
 * payloads are outside the document).
 */
export type SchemaName = 'request' | 'request-business' | 'response' | 'response-business';

export const SCHEMA_NAMES: readonly SchemaName[] = ['request', 'request-business', 'response', 'response-business'];

/** Absolute path of the directory holding the schemas. */
export const XSD_DIR = fileURLToPath(new URL('../../fixtures/xsd/', import.meta.url));

/** Absolute path of a top-level schema. */
export function schemaPath(schema: SchemaName): string {
  return `${XSD_DIR}${schema}.xsd`;
}
