import { fc, test } from '../../test/support/property-test.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { NS } from './namespaces.ts';
import { element, writeXml, type ElementSpec } from './xml-builder.ts';
import { quickXmlTree } from './xml-quick-parse.ts';
import { findInvalidXmlChar } from './xml-text.ts';
import { parseXmlTree, parseXmlTreeFully } from './xml-tree.ts';

/**
 * The quick path decides nothing: where it returns a tree, the full way returns the same tree (and so accepts the
 * document); everything else it leaves to the full way. `text` as parseXmlTree hands it over (CR normalised).
 */
function expectSameAsFull(xml: string): boolean {
  // parseXmlTree refuses a character XML cannot carry before either way sees the document.
  if (findInvalidXmlChar(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml) !== undefined) return false;
  const text = xml.replace(/\r\n?/g, '\n');
  const quick = quickXmlTree(text);
  if (quick !== undefined) expect(parseXmlTreeFully(text), xml).toEqual({ ok: true, root: quick });
  return quick !== undefined;
}

/** Names as envelopes write them, bound or not, and attributes that declare namespaces (well or badly). */
const nameArb = fc.constantFrom('a', 'p:b', 'q:c', 'd.e-f_1', 'p:a');
const attrNameArb = fc.constantFrom('x', 'p:y', 'q:y', 'xmlns:p', 'xmlns:q', 'xmlns', 'xmlns:xml', 'y');
const attrValueArb = fc.oneof(
  fc.constantFrom('urn:p', 'urn:q', '', NS.xml, NS.xmlns, 'a&b', '"\'<>', '\t\n'),
  fc.string({ maxLength: 6 }),
);
const textArb = fc.oneof(fc.constantFrom('', ' ', '\n  ', 'a & b', ']]', '<x>', 'é€😀'), fc.string({ maxLength: 6 }));

const specArb = fc.letrec<{ spec: ElementSpec }>((tie) => ({
  spec: fc.record({
    name: nameArb,
    // Not unique: a name written twice, or two prefixes of one namespace, is a document neither way may accept.
    attributes: fc.array(fc.tuple(attrNameArb, attrValueArb), { maxLength: 3 }),
    children: fc.array(fc.oneof({ depthSize: 'small' }, textArb, tie('spec')), { maxLength: 3 }),
  }),
})).spec;

/** A written document, with its namespaces declared on a wrapper most of the time. */
const documentArb = fc.tuple(specArb, fc.boolean(), fc.boolean()).map(([spec, declared, declaration]) =>
  writeXml(declared ? element('p:root', { 'xmlns:p': 'urn:p', 'xmlns:q': 'urn:q' }, spec) : spec, { xmlDeclaration: declaration }),
);

/** Characters that change what a document means when put somewhere in it. */
const markupChar = fc.constantFrom('<', '>', '&', '"', "'", ':', ' ', '/', '=', ';', '!', '?', '#', '\n', '\r', 'x', '-', '[', ']', ']]>', '<!--c-->', '<?pi?>', '&amp;', '&#0;', '&#x41;', '\u0001', '\uFEFF');

const mutationArb = fc.array(fc.tuple(fc.nat(), fc.nat(3), markupChar), { minLength: 1, maxLength: 3 });

function mutate(xml: string, mutations: readonly (readonly [number, number, string])[]): string {
  let out = xml;
  for (const [at, deleted, inserted] of mutations) {
    const i = at % (out.length + 1);
    out = out.slice(0, i) + inserted + out.slice(i + deleted);
  }
  return out;
}

describe('the quick XML path', () => {
  test.prop([documentArb], { numRuns: 400 })('returns the full way\'s tree for written documents, or leaves them to it', (xml) => {
    const taken = expectSameAsFull(xml);
    // A written document the full way accepts is in the quick path's shape: it is taken.
    expect(taken, xml).toBe(parseXmlTree(xml).ok);
  });

  test.prop([documentArb, mutationArb], { numRuns: 1500 })('never accepts what the full way refuses, nor reads a document otherwise', (xml, mutations) => {
    expectSameAsFull(mutate(xml, mutations));
  });

  it('reads the golden envelopes as the full way does, and takes every well-formed one but those with comments', () => {
    let taken = 0;
    for (const golden of goldenEnvelopes()) if (expectSameAsFull(golden.xml)) taken++;
    expect(taken).toBeGreaterThan(goldenEnvelopes().length / 2);
  });

  it('reads every XML body of the HAR fixtures as the full way does', () => {
    const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'har');
    let bodies = 0;
    let taken = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.har'))) {
      const har = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { log: { entries: { request: { postData?: { text?: string } }; response: { content: { text?: string } } }[] } };
      for (const entry of har.log.entries) {
        for (const body of [entry.request.postData?.text, entry.response.content.text]) {
          if (!body?.trimStart().startsWith('<')) continue;
          bodies++;
          if (expectSameAsFull(body)) taken++;
        }
      }
    }
    expect(bodies).toBeGreaterThan(50);
    expect(taken / bodies).toBeGreaterThan(0.9);
  });

  it.each([
    ['a comment', '<a><!-- c --></a>'],
    ['CDATA', '<a><![CDATA[x]]></a>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['a processing instruction after the root', '<a/><?pi x?>'],
    ['a space in an end tag', '<a></a >'],
    ['spaces around "="', '<a b = "1"/>'],
    ['a name outside ASCII', '<é/>'],
    ['a byte order mark', '\uFEFF<a/>'],
    ['an XML 1.1 declaration', '<?xml version="1.1"?><a/>'],
    ['nesting deeper than the full way\'s parser takes', `${'<a>'.repeat(70)}${'</a>'.repeat(70)}`],
    ['an attribute written twice', '<a b="1" b="2"/>'],
    ['an attribute named twice through two prefixes', '<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>'],
  ])('leaves %s to the full way', (_what, xml) => {
    expect(quickXmlTree(xml)).toBeUndefined();
    expect(parseXmlTree(xml)).toEqual(parseXmlTreeFully(xml.replace(/\r\n?/g, '\n')));
  });
});
