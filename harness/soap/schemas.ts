import { fileURLToPath } from 'node:url';

/**
 * The two top-level schemas of `fixtures/xsd/`: `request` is what a client's request must satisfy (SOAP-01, strict),
 * `response` what a service's response must satisfy (SOAP-02, faults included).
 */
export type SchemaName = 'request' | 'response';

export const SCHEMA_NAMES: readonly SchemaName[] = ['request', 'response'];

/** Absolute path of the directory holding the schemas. */
export const XSD_DIR = fileURLToPath(new URL('../../fixtures/xsd/', import.meta.url));

/** Absolute path of a top-level schema. */
export function schemaPath(schema: SchemaName): string {
  return `${XSD_DIR}${schema}.xsd`;
}
