import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadTargetConfig, parseTargetConfig, resolveAccount, resolveSecret, sessionTimeoutOf, slotReleaseOf, type ConfigErrorCode } from './config.ts';
import { presetConfig } from './presets.ts';

const HINT = 'See docs/target-config.md for the format.';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

function expectConfigError(fn: () => unknown, code: ConfigErrorCode, message: string): ConfigError {
  const err = configError(fn);
  expect(err.name).toBe('ConfigError');
  expect(err.code).toBe(code);
  expect(err.message).toBe(message);
  return err;
}

const cert = { restBaseUrl: 'https://api.cert.example.test', soapUrl: 'https://ws.cert.example.test/websvc' };
const account = { epr: '7971', pcc: 'Z2NL', password: { env: 'TDS_TEST_PASSWORD' } };

/** A minimal valid config, with `patch` applied on top. */
function config(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'test target', environments: { cert }, accounts: { cert: account }, ...patch };
}

/** A CA certificate (self-signed, EC P-256, no key kept): what a caFile holds. */
const CA_PEM = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBmzCCAUGgAwIBAgIUIRU8IYoRXQig8dmhNOE+R7XkgC8wCgYIKoZIzj0EAwIw',
  'IjEgMB4GA1UEAwwXdGRzLWNvbmZvcm1hbmNlIHRlc3QgQ0EwIBcNMjYxMTI3MDc1',
  'MDUxWhgPMjEyNjExMDMwNzUwNTFaMCIxIDAeBgNVBAMMF3Rkcy1jb25mb3JtYW5j',
  'ZSB0ZXN0IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExWhGkqxtCCng6fXf',
  'frvZnVcHBBdJjfG3BtDNwqS34nFHbyZSgRqxgh/lYH5TBp1eRpV3A1UR9vjhE6oe',
  'fHVY96NTMFEwHQYDVR0OBBYEFHgXPsGvobjZ+PX+E35ZLVk722bMMB8GA1UdIwQY',
  'MBaAFHgXPsGvobjZ+PX+E35ZLVk722bMMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZI',
  'zj0EAwIDSAAwRQIhAMi+yvDHtygnvrnVcj6GraSADOsmxAj+Wqi+UifOgtt5AiAq',
  'AQn4akvVnzTDzMri6B3e9mlxsclGvdt0GWIh14MJxw==',
  '-----END CERTIFICATE-----',
].join('\n');

describe('parseTargetConfig', () => {
  it('reads a complete config, trimming trailing slashes of URLs and resolving caFile against the config file', () => {
    const parsed = parseTargetConfig(
      {
        name: 'my-cert',
        environments: {
          cert: { restBaseUrl: 'https://api.cert.example.test/', soapUrl: 'https://ws.cert.example.test//' },
          prod: { restBaseUrl: 'http://127.0.0.1:8080', soapUrl: 'http://127.0.0.1:8080/websvc' },
        },
        accounts: {
          cert: { epr: '7971', pcc: 'Z2NL', password: { env: 'TDS_CERT_PASSWORD' }, restDomain: 'EXT', soapDomain: 'AA' },
          prod: { epr: '7971', pcc: 'Z2NL', password: 'literal-secret' },
        },
        sessionPoolSize: 4,
        sessionTimeoutSeconds: 900,
        requestTimeoutMs: 20000,
        allowOptIn: false,
        caFile: 'certs/ca.pem',
      },
      '/etc/tds/target.json',
    );
    expect(parsed).toStrictEqual({
      name: 'my-cert',
      environments: {
        cert: { restBaseUrl: 'https://api.cert.example.test', soapUrl: 'https://ws.cert.example.test' },
        prod: { restBaseUrl: 'http://127.0.0.1:8080', soapUrl: 'http://127.0.0.1:8080/websvc' },
      },
      accounts: {
        cert: { epr: '7971', pcc: 'Z2NL', password: { env: 'TDS_CERT_PASSWORD' }, restDomain: 'EXT', soapDomain: 'AA' },
        prod: { epr: '7971', pcc: 'Z2NL', password: 'literal-secret' },
      },
      sessionPoolSize: 4,
      sessionTimeoutSeconds: 900,
      requestTimeoutMs: 20000,
      allowOptIn: false,
      caFile: '/etc/tds/certs/ca.pem',
    });
  });

  it('reads slotReleaseMs (0 for a service that releases a slot as it answers the close) and refuses what no pause can be', () => {
    expect(parseTargetConfig(config({ slotReleaseMs: 0 })).slotReleaseMs).toBe(0);
    expect(slotReleaseOf(parseTargetConfig(config({ slotReleaseMs: 10_000 })))).toBe(10_000);
    // Left out: 3 s of pauses, as before the setting.
    expect(slotReleaseOf(parseTargetConfig(config()))).toBe(3_000);
    for (const bad of [-1, 1.5, '3000', 600_001, null]) {
      expect(configError(() => parseTargetConfig(config({ slotReleaseMs: bad }))).message).toBe(`target config (inline): "slotReleaseMs" must be a whole number of milliseconds from 0 to 600000. ${HINT}`);
    }
  });

  it('reads a minimal config with no optional fields and a default name', () => {
    const { name: _name, ...unnamed } = config();
    expect(parseTargetConfig(unnamed)).toStrictEqual({ name: 'live target', environments: { cert }, accounts: { cert: account } });
  });

  it('reads an account\'s iPCC or organization values (CRED-05) and refuses a list that is empty or holds a ":"', () => {
    const parsed = parseTargetConfig(config({ accounts: { cert: { ...account, groupAlternatives: ['7TZA'] } } }), 'target.json');
    expect(parsed.accounts.cert?.groupAlternatives).toEqual(['7TZA']);
    expect(resolveAccount({ ...account, password: 'x', groupAlternatives: ['7TZA'] }).groupAlternatives).toEqual(['7TZA']);
    for (const bad of [[], ['AB:CD'], [''], '7TZA']) {
      const err = configError(() => parseTargetConfig(config({ accounts: { cert: { ...account, groupAlternatives: bad } } }), 'target.json'));
      expect(err.message).toContain('accounts.cert.groupAlternatives');
    }
  });

  it('accepts a PROD environment without an account when CERT has one', () => {
    const prod = { restBaseUrl: 'https://api.example.test', soapUrl: 'https://soap.example.test/websvc' };
    const parsed = parseTargetConfig(config({ environments: { cert, prod } }));
    expect(Object.keys(parsed.environments)).toEqual(['cert', 'prod']);
    expect(Object.keys(parsed.accounts)).toEqual(['cert']);
  });

  it('accepts PROD alone with its account', () => {
    const parsed = parseTargetConfig({ environments: { prod: cert }, accounts: { prod: account } });
    expect(parsed.environments).toStrictEqual({ prod: cert });
    expect(parsed.accounts).toStrictEqual({ prod: account });
  });

  it('names the file in its messages', () => {
    expectConfigError(() => parseTargetConfig({ accounts: {} }, 'targets/my.json'), 'CONFIG_INVALID',
      `target config targets/my.json: "environments" is missing (an object with "cert" and/or "prod"). ${HINT}`);
  });

  it.each([
    ['an array', [], `target config (inline) must be a JSON object. ${HINT}`],
    ['a string', 'cert', `target config (inline) must be a JSON object. ${HINT}`],
    ['no environments', config({ environments: undefined }), `target config (inline): "environments" is missing (an object with "cert" and/or "prod"). ${HINT}`],
    ['environments as an array', config({ environments: [cert] }), `target config (inline): "environments" is missing (an object with "cert" and/or "prod"). ${HINT}`],
    ['an empty environments object', config({ environments: {} }), `target config (inline): "environments" names no environment (add "cert" and/or "prod"). ${HINT}`],
    ['an unknown environment key', config({ environments: { cert, staging: cert } }), `target config (inline): "environments.staging" is not an environment (use "cert" or "prod"). ${HINT}`],
    ['an environment that is not an object', config({ environments: { cert: 'https://api.cert.example.test' } }), `target config (inline): "environments.cert" must be an object with restBaseUrl and soapUrl. ${HINT}`],
    ['no restBaseUrl', config({ environments: { cert: { soapUrl: cert.soapUrl } } }), `target config (inline): "environments.cert.restBaseUrl" is missing. ${HINT}`],
    ['a restBaseUrl that is not a URL', config({ environments: { cert: { ...cert, restBaseUrl: 'api.cert.example.test' } } }), `target config (inline): "environments.cert.restBaseUrl" is not a URL ("api.cert.example.test"). ${HINT}`],
    ['a soapUrl that is not http(s)', config({ environments: { cert: { ...cert, soapUrl: 'ftp://ws.example.test' } } }), `target config (inline): "environments.cert.soapUrl" must be an http(s) URL. ${HINT}`],
    ['an empty soapUrl', config({ environments: { cert: { ...cert, soapUrl: ' ' } } }), `target config (inline): "environments.cert.soapUrl" must be a non-empty string. ${HINT}`],
    ['no accounts', config({ accounts: undefined }), `target config (inline): "accounts" is missing (an object with an account per environment). ${HINT}`],
    ['no CERT account', config({ accounts: { prod: account } }), `target config (inline): "accounts.cert" is missing: environment "cert" needs an account. ${HINT}`],
    ['no account for PROD alone', { environments: { prod: cert }, accounts: {} }, `target config (inline): "accounts.prod" is missing: environment "prod" needs an account. ${HINT}`],
    ['an account that is not an object', config({ accounts: { cert: '7971' } }), `target config (inline): "accounts.cert" must be an object with epr, pcc and password. ${HINT}`],
    ['no epr', config({ accounts: { cert: { pcc: 'Z2NL', password: 'x' } } }), `target config (inline): "accounts.cert.epr" is missing. ${HINT}`],
    ['a blank pcc', config({ accounts: { cert: { ...account, pcc: '  ' } } }), `target config (inline): "accounts.cert.pcc" must be a non-empty string. ${HINT}`],
    ['an empty restDomain', config({ accounts: { cert: { ...account, restDomain: '' } } }), `target config (inline): "accounts.cert.restDomain" must be a non-empty string. ${HINT}`],
    ['a numeric password', config({ accounts: { cert: { ...account, password: 12345 } } }), `target config (inline): "accounts.cert.password" must be a string or { "env": "VARIABLE_NAME" }. ${HINT}`],
    ['no password', config({ accounts: { cert: { epr: '7971', pcc: 'Z2NL' } } }), `target config (inline): "accounts.cert.password" must be a string or { "env": "VARIABLE_NAME" }. ${HINT}`],
    ['a password with an empty variable name', config({ accounts: { cert: { ...account, password: { env: '' } } } }), `target config (inline): "accounts.cert.password" must be a string or { "env": "VARIABLE_NAME" }. ${HINT}`],
    ['a password object without env', config({ accounts: { cert: { ...account, password: { name: 'X' } } } }), `target config (inline): "accounts.cert.password" must be a string or { "env": "VARIABLE_NAME" }. ${HINT}`],
    ['a pool size of 0', config({ sessionPoolSize: 0 }), `target config (inline): "sessionPoolSize" must be a positive integer. ${HINT}`],
    ['a fractional session timeout', config({ sessionTimeoutSeconds: 1.5 }), `target config (inline): "sessionTimeoutSeconds" must be a positive integer of at most 2147483. ${HINT}`],
    ['a request time-out as a string', config({ requestTimeoutMs: '5000' }), `target config (inline): "requestTimeoutMs" must be a positive integer of at most 2147483647. ${HINT}`],
    ['a request time-out no timer can hold', config({ requestTimeoutMs: 1e13 }), `target config (inline): "requestTimeoutMs" must be a positive integer of at most 2147483647. ${HINT}`],
    ['a misspelt setting', config({ sesionPoolSize: 4 }), `target config (inline): "sesionPoolSize" is not a setting of a target config (known here: name, environments, accounts, sessionPoolSize, sessionTimeoutSeconds, requestTimeoutMs, throttleWaitSeconds, slotReleaseMs, allowOptIn, caFile, correlationHeader, probes, faultCodes, tokenKinds, access); see docs/target-config.md. ${HINT}`],
    ['an account key in the wrong case', config({ accounts: { cert: { ...account, restdomain: 'AA' } } }), `target config (inline): "accounts.cert.restdomain" is not a setting of a target config (known here: epr, pcc, password, restDomain, soapDomain, groupAlternatives); see docs/target-config.md. ${HINT}`],
    ['an account of an environment that does not exist', config({ accounts: { cert: account, qa: account } }), `target config (inline): "accounts.qa" is not a setting of a target config (known here: cert, prod); see docs/target-config.md. ${HINT}`],
    ['a password given twice', config({ accounts: { cert: { ...account, password: { env: 'X', value: 'y' } } } }), `target config (inline): "accounts.cert.password.value" is not a setting of a target config (known here: env); see docs/target-config.md. ${HINT}`],
    ['an empty password', config({ accounts: { cert: { ...account, password: '' } } }), `target config (inline): "accounts.cert.password" is empty: give the password, or { "env": "VARIABLE_NAME" } to read it from the environment. ${HINT}`],
    ['PROD at CERT\'s URLs', config({ environments: { cert, prod: cert }, accounts: { cert: account, prod: account } }), `target config (inline): "environments.prod.restBaseUrl" is CERT's restBaseUrl too: give each environment its own URLs (or leave "prod" out). ${HINT}`],
    ['allowOptIn as a string', config({ allowOptIn: 'yes' }), `target config (inline): "allowOptIn" must be true or false. ${HINT}`],
    ['a correlation header with a space', config({ correlationHeader: 'X QA' }), `target config (inline): "correlationHeader" must be an HTTP header name (letters, digits and "-", such as "X-Conformance-Check") or false to send none. ${HINT}`],
    ['correlationHeader true', config({ correlationHeader: true }), `target config (inline): "correlationHeader" must be an HTTP header name (letters, digits and "-", such as "X-Conformance-Check") or false to send none. ${HINT}`],
  ] as const)('refuses a config with %s', (_label, value, message) => {
    expectConfigError(() => parseTargetConfig(value), 'CONFIG_INVALID', message);
  });
});

it('reads correlationHeader: a header name, or false for none', () => {
  expect(parseTargetConfig(config({ correlationHeader: 'X-QA-Trace' })).correlationHeader).toBe('X-QA-Trace');
  expect(parseTargetConfig(config({ correlationHeader: false })).correlationHeader).toBe(false);
  expect(parseTargetConfig(config()).correlationHeader).toBeUndefined();
});

describe('loadTargetConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tds-config-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text, 'utf8');
    return path;
  }

  it('reads a config file and resolves caFile next to it', () => {
    file('ca.pem', `${CA_PEM}\n`);
    const path = file('good.json', JSON.stringify(config({ caFile: 'ca.pem' })));
    expect(loadTargetConfig(path)).toStrictEqual({ name: 'test target', environments: { cert }, accounts: { cert: account }, caFile: join(dir, 'ca.pem') });
  });

  it('reports a file that is not JSON with CONFIG_NOT_JSON and where, never what the parser found (it may be a password)', () => {
    const text = '{ "name": "x",\n  "accounts": { "cert": { "password":Zq9SecretP } } }';
    const path = file('broken.json', text);
    expectConfigError(() => loadTargetConfig(path), 'CONFIG_NOT_JSON', `target config ${path} is not valid JSON (a syntax error at line 2). ${HINT}`);
    expectConfigError(() => loadTargetConfig(file('short.json', '{ "name": ')), 'CONFIG_NOT_JSON', `target config ${join(dir, 'short.json')} is not valid JSON (it ends too early). ${HINT}`);
  });

  it('refuses a caFile that is no readable file, before any command reads it', () => {
    const cfg = (caFile: string) => file(`ca-${caFile.length}.json`, JSON.stringify({ ...config(), caFile }));
    const missing = cfg('none.pem');
    expectConfigError(() => loadTargetConfig(missing), 'CONFIG_INVALID', `target config ${missing}: "caFile" cannot be read (ENOENT: ${join(dir, 'none.pem')}): give the PEM file of the CA to trust, relative to the config file. ${HINT}`);
    const directory = cfg('.');
    expect(() => loadTargetConfig(directory)).toThrow(/"caFile" cannot be read \(EISDIR/);
  });

  it('refuses a caFile with no PEM certificate in it, or one that does not parse (Node would trust nothing more, and say nothing)', () => {
    const cfg = (name: string, text: string) => {
      file(name, text);
      return file(`${name}.json`, JSON.stringify({ ...config(), caFile: name }));
    };
    const empty = cfg('empty.pem', '');
    expectConfigError(() => loadTargetConfig(empty), 'CONFIG_INVALID', `target config ${empty}: "caFile" holds no PEM certificate (${join(dir, 'empty.pem')}): give the PEM file of the CA to trust (-----BEGIN CERTIFICATE-----), relative to the config file. ${HINT}`);
    expect(() => loadTargetConfig(cfg('key.pem', '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n-----END PRIVATE KEY-----\n'))).toThrow(/"caFile" holds no PEM certificate/);
    expect(() => loadTargetConfig(cfg('broken.pem', `${CA_PEM}\n-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n`))).toThrow(/"caFile" holds a certificate that cannot be read \(the second of 2\)/);
    expect(loadTargetConfig(cfg('two.pem', `${CA_PEM}\n${CA_PEM}\n`)).caFile).toBe(join(dir, 'two.pem'));
  });

  it('reports a missing file with CONFIG_NOT_FOUND', () => {
    const path = join(dir, 'absent.json');
    expectConfigError(() => loadTargetConfig(path), 'CONFIG_NOT_FOUND', `target config ${path} cannot be read: check the path given to --target (a JSON file, or "sim").`);
  });

  it('reports a wrong field of a file with CONFIG_INVALID naming the file and the field', () => {
    const path = file('bad-url.json', JSON.stringify(config({ environments: { cert: { ...cert, restBaseUrl: 'nope' } } })));
    expectConfigError(() => loadTargetConfig(path), 'CONFIG_INVALID', `target config ${path}: "environments.cert.restBaseUrl" is not a URL ("nope"). ${HINT}`);
  });
});

describe('resolveSecret and resolveAccount', () => {
  const env = { TDS_TEST_PASSWORD: 's3cret-from-env', TDS_OTHER_PASSWORD: 'another-s3cret' };

  it('returns a literal secret as it is', () => {
    expect(resolveSecret('literal-pw', env)).toBe('literal-pw');
  });

  it('reads a secret from the environment variable it names', () => {
    expect(resolveSecret({ env: 'TDS_TEST_PASSWORD' }, env)).toBe('s3cret-from-env');
  });

  it.each([
    ['unset', {}],
    ['empty', { TDS_MISSING_PASSWORD: '' }],
  ])('throws SECRET_NOT_SET naming the variable when it is %s, and shows no secret', (_label, extra) => {
    const err = expectConfigError(() => resolveSecret({ env: 'TDS_MISSING_PASSWORD' }, { ...env, ...extra }), 'SECRET_NOT_SET',
      'environment variable TDS_MISSING_PASSWORD is not set; the target config reads a password from it. Export it (e.g. from .env) and run again.');
    for (const secret of Object.values(env)) expect(err.message).not.toContain(secret);
  });

  it('defaults the REST domain to AA and the SOAP domain to DEFAULT', () => {
    expect(resolveAccount(account, env)).toStrictEqual({ epr: '7971', pcc: 'Z2NL', password: 's3cret-from-env', restDomain: 'AA', soapDomain: 'DEFAULT' });
  });

  it('keeps domains that are configured', () => {
    expect(resolveAccount({ ...account, password: 'pw', restDomain: 'EXT', soapDomain: 'AA' }, {})).toStrictEqual({
      epr: '7971', pcc: 'Z2NL', password: 'pw', restDomain: 'EXT', soapDomain: 'AA',
    });
  });

  it('uses the default session timeout of 900 s unless the config sets one', () => {
    expect(sessionTimeoutOf(parseTargetConfig(config()))).toBe(900);
    expect(sessionTimeoutOf(parseTargetConfig(config({ sessionTimeoutSeconds: 1800 })))).toBe(1800);
  });
});

describe('presetConfig', () => {
  const READS = 'the "cert" target reads its account from TDS_CERT_EPR, TDS_CERT_PCC and TDS_CERT_PASSWORD.';
  const full = { TDS_CERT_EPR: '7971', TDS_CERT_PCC: 'Z2NL', TDS_CERT_PASSWORD: 'cert-s3cret' };

  it('knows no preset but cert', () => {
    expect(presetConfig('prod', full)).toBeUndefined();
    expect(presetConfig('./cert.json', full)).toBeUndefined();
  });

  it('builds the CERT target from the environment, keeping the password a reference', () => {
    expect(presetConfig('cert', full)).toStrictEqual({
      name: 'CERT',
      environments: { cert: { restBaseUrl: 'https://api.cert.platform.sabre.com', soapUrl: 'https://webservices.cert.platform.sabre.com' } },
      accounts: { cert: { epr: '7971', pcc: 'Z2NL', password: { env: 'TDS_CERT_PASSWORD' } } },
    });
  });

  it('takes the optional domains from the environment, and defaults them to AA and DEFAULT otherwise', () => {
    const withDomains = presetConfig('cert', { ...full, TDS_CERT_REST_DOMAIN: 'EXT', TDS_CERT_SOAP_DOMAIN: 'AA' })?.accounts.cert;
    expect(withDomains).toStrictEqual({ epr: '7971', pcc: 'Z2NL', password: { env: 'TDS_CERT_PASSWORD' }, restDomain: 'EXT', soapDomain: 'AA' });
    const plain = presetConfig('cert', full)?.accounts.cert;
    if (!plain) throw new Error('the cert preset has no account');
    expect(resolveAccount(plain, full)).toStrictEqual({ epr: '7971', pcc: 'Z2NL', password: 'cert-s3cret', restDomain: 'AA', soapDomain: 'DEFAULT' });
  });

  it('throws SECRET_NOT_SET naming every variable when none is set', () => {
    expectConfigError(() => presetConfig('cert', {}), 'SECRET_NOT_SET',
      `environment variables TDS_CERT_EPR, TDS_CERT_PCC, TDS_CERT_PASSWORD are not set; ${READS} Export them (e.g. from .env) and run again.`);
  });

  it('throws SECRET_NOT_SET naming the unset EPR and PCC, without showing the password that is set', () => {
    const err = expectConfigError(() => presetConfig('cert', { TDS_CERT_PASSWORD: 'cert-s3cret' }), 'SECRET_NOT_SET',
      `environment variables TDS_CERT_EPR, TDS_CERT_PCC are not set; ${READS} Export them (e.g. from .env) and run again.`);
    expect(err.message).not.toContain('cert-s3cret');
  });

  it('treats an empty variable as unset', () => {
    expectConfigError(() => presetConfig('cert', { ...full, TDS_CERT_PCC: '' }), 'SECRET_NOT_SET',
      `environment variable TDS_CERT_PCC is not set; ${READS} Export it (e.g. from .env) and run again.`);
  });
});
