/**
 * The outcome of validating one document against a schema of `fixtures/xsd/`, the same for both validation paths.
 *
 * - `schema-invalid`: well-formed, but not valid against the schema.
 * - `not-well-formed`: not XML (or not namespace-well-formed).
 * - `doctype-forbidden`: a DOCTYPE or ENTITY declaration (refused before any XML processor sees the document).
 * - `too-large`: larger than the size bound (refused before any XML processor sees the document).
 */
export type VerdictCode = 'schema-invalid' | 'not-well-formed' | 'doctype-forbidden' | 'too-large';

export type Verdict =
  | { readonly valid: true }
  | {
      readonly valid: false;
      readonly code: VerdictCode;
      /** Xerces' messages, `[error] text (line:col)` or `[fatal] …`, at most 20. */
      readonly errors: readonly string[];
    };

export const VALID: Verdict = Object.freeze({ valid: true });
