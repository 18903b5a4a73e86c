import { afterAll, beforeAll } from 'vitest';
import { createValidator, type EnvelopeValidator } from '../../harness/soap/validator.ts';

/**
 * For tests: a fast-path validator started before the enclosing suite (its JVM takes a moment) and closed after it.
 * Call inside a `describe` (or at the top of a test file).
 */
export function useValidator(): Pick<EnvelopeValidator, 'validate'> {
  let validator: EnvelopeValidator | undefined;
  beforeAll(async () => {
    validator = await createValidator();
  }, 60_000);
  afterAll(async () => {
    await validator?.close();
  });
  return {
    validate: (xml, schema) => {
      if (!validator) throw new Error('the validator is not started yet: call useValidator() in a describe block and validate inside tests');
      return validator.validate(xml, schema);
    },
  };
}
