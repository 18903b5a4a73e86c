import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actualShape, clientIdShape, expectedShape } from './credential-shape.ts';

const account = { epr: '7971', pcc: 'Z2NL', password: 'Ws7kq2+/XbR=x', domain: 'AA' };
const odd = { epr: 'us:er', pcc: 'Z2NL', password: 'pä:ss wörd+/=€', domain: 'AA' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const form = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
const clientId = (a: typeof account) => `V1:${a.epr}:${a.pcc}:${a.domain}`;

describe('credential shapes (CRED-01, CRED-02 evidence)', () => {
  it('writes the expected credentials as layers with every value of the account masked by its length', () => {
    expect(expectedShape(account)).toBe('scheme "Basic", credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:13>) )');
  });

  it.each([
    ['the right double base64', (a: typeof account) => `Basic ${b64(`${b64(clientId(a))}:${b64(a.password)}`)}`,
      'scheme "Basic", credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:13>) )'],
    ['one layer of base64', (a: typeof account) => `Basic ${b64(`${clientId(a)}:${a.password}`)}`,
      'scheme "Basic", credentials b64("V1:<epr:4>:<pcc:4>:AA:<password:13>")'],
    ['form-encoded values in one layer (RFC 6749 §2.3.1)', (a: typeof account) => `Basic ${b64(`${form(clientId(a))}:${form(a.password)}`)}`,
      'scheme "Basic", credentials b64( urlenc("V1:<epr:4>:<pcc:4>:AA") ":" urlenc(<password:13>) )'],
    ['form-encoded base64 values', (a: typeof account) => `Basic ${b64(`${form(b64(clientId(a)))}:${form(b64(a.password))}`)}`,
      'scheme "Basic", credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" urlenc(b64(<password:13>)) )'],
    ['the wrong scheme and two spaces', (a: typeof account) => `Bearer  ${b64(`${b64(clientId(a))}:${b64(a.password)}`)}`,
      'scheme "Bearer" (2 spaces after it), credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:13>) )'],
    ['unpadded base64 outside', (a: typeof account) => `Basic ${b64(`${b64(clientId(a))}:${b64(a.password)}`).replace(/=+$/, '')}`,
      'scheme "Basic", credentials b64 unpadded( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:13>) )'],
  ])('shows %s', (_name, header, shape) => {
    expect(actualShape(header(account), account)).toBe(shape);
  });

  it('finds the parts of a Client ID whose user ID holds a colon, and a non-ASCII password', () => {
    expect(actualShape(`Basic ${b64(`${b64(clientId(odd))}:${b64(odd.password)}`)}`, odd))
      .toBe('scheme "Basic", credentials b64( b64("V1:<epr:5>:<pcc:4>:AA") ":" b64(<password:14>) )');
    expect(clientIdShape('V1:Z2NL:us:er:AA', odd)).toBe('"V1:<pcc:4>:<epr:5>:AA"');
  });

  it('shows no header, and a header without a scheme, without their content', () => {
    expect(actualShape(undefined, account)).toBe('(no Authorization header)');
    expect(actualShape('Ws7kq2+/XbR=', account)).toBe('an Authorization header of 12 chars without "<scheme> <credentials>"');
  });

  it('never shows a value of the account, whatever the account and the encoding', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 5, maxLength: 12 });
    fc.assert(fc.property(text, text, fc.constantFrom(0, 1, 2), (epr, password, how) => {
      const a = { epr: `E${epr}`, pcc: 'PCC1', password: `P${password}`, domain: 'AA' };
      const encoded = [b64(`${b64(clientId(a))}:${b64(a.password)}`), b64(`${clientId(a)}:${a.password}`), b64(`${form(clientId(a))}:${form(a.password)}`)][how]!;
      const shape = `${expectedShape(a)} ${actualShape(`Basic ${encoded}`, a)}`;
      expect(shape).not.toContain(a.epr);
      expect(shape).not.toContain(a.password);
    }), { seed: 12 });
  });
});
