import { describe, expect, it } from 'vitest';
import { loadedInFreshProcess } from '../../test/support/fresh-process.ts';

/** In a fresh process (the test worker may have loaded fast-xml-parser for another file): is it loaded after `code`? */
function loadedAfter(code: string): Promise<boolean> {
  return loadedInFreshProcess(`
    import { parseXmlTree } from './harness/soap/xml-tree.ts';
    import { writeXml, element } from './harness/soap/xml-builder.ts';
    ${code}`, 'fast-xml-parser');
}

describe('fast-xml-parser, loaded when first needed', () => {
  it('is not loaded to read and write envelopes in the shape the harness writes', async () => {
    expect(await loadedAfter(`
      const tree = parseXmlTree('<?xml version="1.0"?><a xmlns="urn:x"><b c="d">text</b></a>');
      if (!tree.ok) throw new Error('not parsed');
      writeXml(element('a', { b: 'c' }, 'text'));`)).toBe(false);
  }, 30_000);

  it('is loaded for what the quick path gives up on, and for indented output', async () => {
    expect(await loadedAfter(`parseXmlTree('<a><!-- a comment --></a>');`)).toBe(true);
    expect(await loadedAfter(`writeXml(element('a', {}, element('b')), { pretty: true });`)).toBe(true);
  }, 30_000);
});
