import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** In a fresh process (the test worker may have loaded fast-xml-parser for another file): is it loaded after `code`? */
function loadedAfter(code: string): Promise<boolean> {
  const script = `
    import { createRequire } from 'node:module';
    import { parseXmlTree } from './harness/soap/xml-tree.ts';
    import { writeXml, element } from './harness/soap/xml-builder.ts';
    ${code}
    const require = createRequire(import.meta.url);
    const path = require.resolve('fast-xml-parser');
    process.stdout.write(String(path in require.cache));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: join(import.meta.dirname, '..', '..'), timeout: 30_000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout.trim() === 'true');
    });
  });
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
