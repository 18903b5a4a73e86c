import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BodySpool } from './spool.ts';

const parents: string[] = [];
afterEach(() => {
  for (const p of parents.splice(0)) rmSync(p, { recursive: true, force: true });
});

function spoolIn(): { spool: BodySpool; parent: string } {
  const parent = mkdtempSync(join(tmpdir(), 'spool-test-'));
  parents.push(parent);
  return { spool: new BodySpool(parent), parent };
}

describe('BodySpool', () => {
  it('gives back each body as written, and the file holds none of them in clear', () => {
    const { spool, parent } = spoolIn();
    const secret = 'T1RLAQ-the-token-Pa55w0rd-é';
    const bodies = ['', secret, `<wsse:BinarySecurityToken>${secret}</wsse:BinarySecurityToken>`, 'x'.repeat(100_000)];
    const at = bodies.map((b) => spool.write(b));
    expect(at.map((a) => spool.read(a))).toEqual(bodies);
    const [dir] = readdirSync(parent);
    const file = readFileSync(join(parent, dir as string, 'bodies'));
    expect(file.length).toBe(spool.size);
    expect(file.includes(Buffer.from('T1RLAQ'))).toBe(false);
    expect(file.includes(Buffer.from('Pa55w0rd'))).toBe(false);
    spool.close();
    expect(existsSync(join(parent, dir as string))).toBe(false);
    expect(() => spool.read(at[1]!)).toThrow(/closed/);
  });

  it('spooled(): a copy whose body is read when asked for, and serializes as the original', () => {
    const { spool } = spoolIn();
    const part = { status: 200, headers: { 'content-type': 'text/xml' }, body: '<a>b</a>' };
    const copy = spool.spooled(part);
    expect(spool.reads).toBe(0);
    expect(copy.body).toBe('<a>b</a>');
    expect(spool.reads).toBe(1);
    expect(JSON.parse(JSON.stringify(copy))).toEqual(part);
    expect({ ...copy }).toEqual(part);
    spool.close();
  });
});
