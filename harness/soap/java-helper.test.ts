import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenEnvelope } from '../../fixtures/envelopes/goldens.ts';
import { compiledHelperDir, HELPER_CLASS, JavaHelperError, javaTool } from './java-helper.ts';
import { schemaPath } from './schemas.ts';
import { createValidator } from './validator.ts';

describe('Java validator helper', () => {
  it('reports a missing Java with what to do', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tds-validator-test-'));
    const javaHome = process.env['JAVA_HOME'];
    process.env['JAVA_HOME'] = join(cacheDir, 'no-jdk');
    try {
      await expect(createValidator({ cacheDir })).rejects.toThrow(expect.objectContaining({ name: 'JavaHelperError', code: 'java-not-found' }));
      await expect(createValidator({ cacheDir })).rejects.toThrow(/install a JDK \(17 or later\) or set JAVA_HOME$/);
    } finally {
      if (javaHome === undefined) delete process.env['JAVA_HOME'];
      else process.env['JAVA_HOME'] = javaHome;
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('compiles the helper once into the cache, also when asked concurrently', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tds-validator-cache-'));
    try {
      const dirs = await Promise.all([compiledHelperDir(cacheDir), compiledHelperDir(cacheDir)]);
      expect(dirs[0]).toBe(dirs[1]);
      expect(existsSync(join(dirs[0] ?? '', `${HELPER_CLASS}.class`))).toBe(true);
      expect(readdirSync(cacheDir)).toEqual([expect.stringMatching(/^validator-[0-9a-f]{16}$/)]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 60_000);

  // Drives the helper directly, past the Node-side screening, to show that Java refuses DTDs on its own.
  async function exchange(input: Buffer): Promise<{ lines: string[]; code: number | null }> {
    const dir = await compiledHelperDir();
    const child = spawn(javaTool('java'), ['-cp', dir, HELPER_CLASS, '--max-bytes=4096', `request=${schemaPath('request')}`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.end(input);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { lines: out.split('\n').filter(Boolean), code };
  }
  const frame = (id: string, schema: string, xml: string): Buffer => {
    const body = Buffer.from(xml);
    return Buffer.concat([Buffer.from(`${id} ${schema} ${body.length}\n`), body]);
  };

  it('refuses DOCTYPEs and external entities itself, answers in order, and exits 0 at end of input', async () => {
    const xxe = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>';
    const { lines, code } = await exchange(Buffer.concat([
      frame('a', 'request', xxe),
      frame('b', 'nope', '<x/>'),
      frame('c', 'request', 'x'.repeat(5000)),
      frame('d', 'request', goldenEnvelope('request-ping.xml').xml),
    ]));
    expect(lines).toEqual([
      'READY',
      'a\tINVALID\tdoctype-forbidden\t[fatal] DOCTYPE is disallowed when the feature "http://apache.org/xml/features/disallow-doctype-decl" set to true. (1:10)',
      'b\tINVALID\tunknown-schema\t[fatal] no schema named nope',
      'c\tINVALID\ttoo-large\t[fatal] the document is larger than 4096 bytes',
      'd\tOK',
    ]);
    expect(code).toBe(0);
  }, 60_000);

  it('stops with exit code 2 on a malformed request line', async () => {
    expect(await exchange(Buffer.from('garbage\n'))).toEqual({ lines: ['READY', 'PROTOCOL\tbad request line: garbage'], code: 2 });
  }, 60_000);

  it('is a JavaHelperError with a stable code', () => {
    expect(new JavaHelperError('closed', 'the validator is closed')).toMatchObject({ name: 'JavaHelperError', code: 'closed' });
  });
});
