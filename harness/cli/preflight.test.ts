import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkClientCommand, checkClientModule, checkOutDir } from './preflight.ts';
import { usage } from '../../test/support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tds-preflight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'file.txt');
writeFileSync(file, 'x');


describe('the report directory', () => {
  it('is created with its parents when absent, and left with nothing of the check in it', () => {
    const out = join(dir, 'a', 'b', 'c');
    checkOutDir(out);
    expect(statSync(out).isDirectory()).toBe(true);
    checkOutDir(out); // an existing one is fine
    expect(existsSync(join(out, `.tds-conformance-write-check-${process.pid}`))).toBe(false);
  });

  it('is refused when it is a file, or a file is in its way', () => {
    expect(usage(() => checkOutDir(file, 'file.txt'))).toBe('--out "file.txt" is a file, not a directory: give a directory for the reports (it is created if absent).');
    expect(usage(() => checkOutDir(join(file, 'sub'), 'file.txt/sub')))
      .toBe('--out "file.txt/sub" cannot be created: a part of its path is a file. Give a directory for the reports (it is created if absent).');
  });
});

describe('the --client command', () => {
  const hint = 'give the command that starts the driver as you would type it in a shell, as in --client "node my-driver.js" (docs/driver-protocol.md).';

  it('is accepted when the shell can start its first word: a program on PATH, a builtin, a file that can be run', () => {
    const script = join(dir, 'driver.sh');
    writeFileSync(script, '#!/bin/sh\n');
    chmodSync(script, 0o755);
    for (const command of ['node driver.js', 'FOO=1 BAR="a b" node driver.js', 'exec node driver.js', `'${script}' --stdio`, './driver.sh']) {
      expect(() => checkClientCommand(command, dir), command).not.toThrow();
    }
  });

  it('is refused, naming the word, when nothing of that name can be started', () => {
    expect(usage(() => checkClientCommand('tds-no-such-driver --stdio', dir))).toBe(`--client: the command "tds-no-such-driver" was not found on PATH: ${hint}`);
    expect(usage(() => checkClientCommand('./missing.sh', dir))).toBe(`--client: "./missing.sh" does not exist: ${hint}`);
    mkdirSync(join(dir, 'a-dir'), { recursive: true });
    expect(usage(() => checkClientCommand('./a-dir', dir)))
      .toBe(`--client: "./a-dir" is not a program that can be run (make it executable, or start it with its interpreter): ${hint}`);
  });

  it('is refused when empty or unreadable as a shell command', () => {
    expect(usage(() => checkClientCommand('  ', dir))).toBe(`--client is empty: ${hint}`);
    expect(usage(() => checkClientCommand('FOO=1', dir))).toBe(`--client is empty: ${hint}`);
    expect(usage(() => checkClientCommand("node 'driver.js", dir))).toBe(`--client cannot be read: the command line has a single quote that is never closed; ${hint}`);
  });
});

describe('the --client-module path', () => {
  it('must be a file', () => {
    expect(() => checkClientModule(file)).not.toThrow();
    expect(usage(() => checkClientModule(join(dir, 'none.ts'), 'none.ts')))
      .toBe('--client-module "none.ts" is not a file: give the path of a module that exports createClient() (docs/driver-protocol.md).');
    expect(usage(() => checkClientModule(dir, 'the-dir'))).toBe('--client-module "the-dir" is not a file: give the path of a module that exports createClient() (docs/driver-protocol.md).');
  });
});
