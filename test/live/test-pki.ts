import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the tests expect the `openssl` command line tool. */
export const OPENSSL = '/usr/bin/openssl';

/** A throw-away certificate authority and a server certificate it signed, as PEM text and files. */
export interface TestPki {
  /** The CA certificate (what a client trusts: a target config's `caFile`). */
  readonly caFile: string;
  readonly ca: string;
  /** The server's private key and certificate (for `127.0.0.1` and `localhost`). */
  readonly key: string;
  readonly cert: string;
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Makes a throw-away CA and a server certificate for `127.0.0.1`, `::1` and `localhost` in `dir` (a temporary
 * directory the caller removes), with the `openssl` command line tool. EC P-256 keys: fast to generate.
 * @throws Error saying to install openssl when it is missing.
 */
export function makeTestPki(dir: string): TestPki {
  if (!existsSync(OPENSSL)) {
    throw new Error(`the HTTPS tests generate a throw-away CA with the openssl command line tool, and ${OPENSSL} is missing: install openssl (apt-get install openssl)`);
  }
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=tds-conformance test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  openssl(dir, ['req', '-new', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'server.ext'), [
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature,keyEncipherment',
    'extendedKeyUsage=serverAuth',
    'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
    '',
  ].join('\n'));
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext']);
  const caFile = join(dir, 'ca.pem');
  return {
    caFile,
    ca: readFileSync(caFile, 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  };
}
