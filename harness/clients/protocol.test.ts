import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import { ClientError } from './protocol.ts';

describe('ClientError', () => {
  it('recognises the errors of another copy of the class (a client module built against the sources, the harness running dist/)', async () => {
    // Another copy: the compiled package's (npm test builds it first), as a second install would be.
    const copy = (await import(/* @vite-ignore */ pathToFileURL(join(PACKAGE_ROOT, 'dist/harness/clients/protocol.js')).href)) as typeof import('./protocol.ts');
    expect(copy.ClientError).not.toBe(ClientError);
    const theirs = new copy.ClientError({ kind: 'auth', message: 'refused', code: 'invalid_client' });
    expect(theirs instanceof ClientError).toBe(true);
    expect(new ClientError({ kind: 'transport', message: 'x' }) instanceof copy.ClientError).toBe(true);
    expect(new Error('refused') instanceof ClientError).toBe(false);
    expect(Object.assign(new Error('x'), { name: 'ClientError', kind: 'auth' }) instanceof ClientError).toBe(false);
    expect((null as unknown as object) instanceof ClientError).toBe(false);
  });
});
