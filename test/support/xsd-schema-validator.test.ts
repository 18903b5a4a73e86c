import { describe, expect, it } from 'vitest';
import { useValidator } from './soap.ts';
import { goldenEnvelope, goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { validateWithXsdSchemaValidator } from './xsd-schema-validator.ts';

describe('per-call validation with xsd-schema-validator', () => {
  it('accepts a valid request and reports an invalid one with Xerces\' message', async () => {
    expect(await validateWithXsdSchemaValidator(goldenEnvelope('request-ping.xml').xml, 'request')).toEqual({ valid: true });
    expect(await validateWithXsdSchemaValidator(goldenEnvelope('request-session-close-no-timestamp.xml').xml, 'request')).toEqual({
      valid: false,
      code: 'schema-invalid',
      errors: ["[error] cvc-complex-type.4: Attribute 'TimeStamp' must appear on element 'SessionCloseRQ'. (22:83)"],
    });
  });

  it('refuses a DOCTYPE before the library sees it (its parser would read the external entity)', async () => {
    expect(await validateWithXsdSchemaValidator(goldenEnvelope('request-doctype-entity.xml').xml, 'request')).toEqual({
      valid: false,
      code: 'doctype-forbidden',
      errors: ['[fatal] a "<!DOCTYPE" declaration was found; DTDs are refused (no entity is ever expanded)'],
    });
  });

  it('refuses a document over the size bound without starting a JVM', async () => {
    expect(await validateWithXsdSchemaValidator('<a/>'.repeat(10), 'request', { maxBytes: 16 })).toEqual({
      valid: false, code: 'too-large', errors: ['[fatal] the document is larger than 16 bytes'],
    });
  });
});

describe('fast path and xsd-schema-validator agree', () => {
  const validator = useValidator();

  it.each(goldenEnvelopes().map((g) => [g.name, g] as const))('give the same verdict on %s', async (_name, golden) => {
    const [fast, library] = await Promise.all([
      validator.validate(golden.xml, golden.schema),
      validateWithXsdSchemaValidator(golden.xml, golden.schema),
    ]);
    expect(fast.valid).toBe(golden.expected === 'valid');
    expect(library.valid ? { valid: true } : { valid: false, code: library.code }).toEqual(fast.valid ? { valid: true } : { valid: false, code: fast.code });
  });
});
