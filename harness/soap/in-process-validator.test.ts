import { afterAll, describe, expect, it } from 'vitest';
import { goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { useValidator } from '../../test/support/soap.ts';
import { screenInput } from './hostile-input.ts';
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

  const envelope = (inner: string) => `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body>${inner}</soap-env:Body></soap-env:Envelope>`;
  const hostile: readonly (readonly [string, string, 'doctype-forbidden' | 'too-large'])[] = [
    ['an internal entity', '<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>', 'doctype-forbidden'],
    ['an external entity (XXE)', `<!DOCTYPE soap-env:Envelope [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${envelope('&xxe;')}`, 'doctype-forbidden'],
    ['billion laughs', `<!DOCTYPE l [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>${envelope('<x>&c;</x>')}`, 'doctype-forbidden'],
    ['a lower-case doctype without entities', `<!doctype soap-env:Envelope>${envelope('')}`, 'doctype-forbidden'],
    ['a DOCTYPE inside a comment', `<!-- <!DOCTYPE x> -->${envelope('')}`, 'doctype-forbidden'],
    ['an ENTITY declaration inside CDATA', envelope('<x><![CDATA[<! ENTITY e "e">]]></x>'), 'doctype-forbidden'],
    ['a well-formed document over 1 MiB', envelope(`<x>${'y'.repeat(1024 * 1024)}</x>`), 'too-large'],
  ];

  it.each(hostile)('refuses hostile input before libxml2 sees it, as the fast path does: %s', async (_name, xml, code) => {
    const fast = await jvm.validate(xml, 'request');
    const got = wasm.validateNow(xml, 'request');
    // The same verdict, code and message as the fast path: the screening's own words, not a parser's.
    expect(got).toEqual(fast);
    expect(got).toEqual({ valid: false, code, errors: [`[fatal] ${screenInput(xml)!.message}`] });
  });

  it('refuses what is not well-formed with the fast path\'s code, in libxml2\'s words', async () => {
    const fast = await jvm.validate('<a>', 'request');
    const got = wasm.validateNow('<a>', 'request');
    expect(fast).toMatchObject({ valid: false, code: 'not-well-formed' });
    expect(got).toMatchObject({ valid: false, code: fast.valid ? 'valid' : fast.code });
    // libxml2's own message, with its line and column: the screening let the document through to the parser.
    expect(got.valid ? [] : got.errors).toEqual([expect.stringMatching(/^\[fatal\] .+ \(1:\d+\)$/)]);
  });
});
