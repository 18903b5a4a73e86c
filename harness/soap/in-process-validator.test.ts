import { afterAll, describe, expect, it } from 'vitest';
import { goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { useValidator } from '../../test/support/soap.ts';
import { createInProcessValidator } from './in-process-validator.ts';

/**
 * The in-process path (libxml2 compiled to WebAssembly) held to the JVM fast path on every golden envelope: the same
 * verdict and the same code, valid or invalid.
 */
describe('libxml2-wasm against the JVM fast path', () => {
  const jvm = useValidator();
  const wasm = createInProcessValidator();
  afterAll(() => wasm.close());

  it.each(goldenEnvelopes().map((g) => [`${g.expected}/${g.name}`, g] as const))('%s: the same verdict', async (_name, golden) => {
    const expected = await jvm.validate(golden.xml, golden.schema);
    const got = wasm.validateNow(golden.xml, golden.schema);
    expect(got.valid ? 'valid' : got.code).toBe(expected.valid ? 'valid' : expected.code);
    expect(got.valid).toBe(golden.expected === 'valid');
  });

  it('refuses hostile input before libxml2 sees it, as the fast path does', () => {
    expect(wasm.validateNow('<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>', 'request')).toMatchObject({ valid: false, code: 'doctype-forbidden' });
    expect(wasm.validateNow('<a>', 'request')).toMatchObject({ valid: false, code: 'not-well-formed' });
  });
});
