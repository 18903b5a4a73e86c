import { fc, test } from '../../test/support/property-test.ts';
import { describe, expect, it } from 'vitest';
import { credentialEncoding } from '../catalog/index.ts';
import {
  basicAuthorization, buildClientId, decodeAuthorization, decodeCredentials, encodeCredentials, encodeRestCredentials, parseClientId,
} from './rest.ts';

const { vector } = credentialEncoding;

describe('REST credential encoding', () => {
  it('encodes the public test vector', () => {
    expect(encodeCredentials(vector.clientId, vector.password)).toBe(vector.encoded);
    expect(encodeRestCredentials(vector)).toBe(vector.encoded);
    expect(basicAuthorization(vector)).toBe(`Basic ${vector.encoded}`);
  });

  it('decodes the public test vector', () => {
    expect(decodeAuthorization(`Basic ${vector.encoded}`)).toEqual({
      ok: true,
      clientId: 'V1:userid:group:domain',
      password: '12345',
      parts: { userid: 'userid', group: 'group', domain: 'domain' },
    });
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    [`Bearer ${vector.encoded}`, 'not-basic'],
    [`Basic ${Buffer.from('V1:userid:group:domain:12345').toString('base64')}`, 'client-id-base64'],
    ['Basic not*base64', 'outer-base64'],
    [`Basic ${vector.encoded.slice(0, -1)}`, 'outer-base64'],
    [`Basic ${Buffer.from('VjE6dXNlcmlkOmdyb3VwOmRvbWFpbg==').toString('base64')}`, 'no-colon'],
    [`Basic ${Buffer.from('VjE6dXNlcmlkOmdyb3VwOmRvbWFpbg==:%%%').toString('base64')}`, 'password-base64'],
    [`Basic ${encodeCredentials('V2:userid:group:domain', 'x')}`, 'client-id-form'],
    [`Basic ${encodeCredentials('V1:userid:group', 'x')}`, 'client-id-form'],
    [`Basic ${encodeCredentials('V1::group:domain', 'x')}`, 'client-id-form'],
  ] as const)('rejects %s as %s', (header, code) => {
    const decoded = decodeAuthorization(header);
    expect(decoded.ok).toBe(false);
    expect(decoded.ok ? undefined : decoded.code).toBe(code);
  });

  it('rejects base64 that is not canonical (bad padding) and bytes that are not UTF-8', () => {
    const latin1 = Buffer.from([0xe9]).toString('base64');
    const outer = Buffer.from(`${Buffer.from('V1:u:g:d').toString('base64')}:${latin1}`).toString('base64');
    expect(decodeAuthorization(`Basic ${outer}`)).toMatchObject({ ok: false, code: 'password-base64' });
    expect(decodeAuthorization(`Basic ${vector.encoded.replace(/=$/, '')}`)).toMatchObject({ ok: false, code: 'outer-base64' });
  });

  it('parses group and domain as the last two fields, so a user ID may contain ":"', () => {
    expect(parseClientId('V1:a:b:PCC:AA')).toEqual({ userid: 'a:b', group: 'PCC', domain: 'AA' });
  });
});

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 });
const noColon = text.filter((s) => !s.includes(':'));
const field = fc.oneof(text, fc.constantFrom(':', '+/=', ' a b ', 'ü:ß', '🙂:🙃'), text.map((s) => `${s}:${s}`));

describe('REST credential encoding, properties', () => {
  test.prop({ userid: field, group: field, domain: field, password: fc.oneof(field, fc.constant('')) })(
    'decode inverts encode for arbitrary Unicode user IDs, groups, domains and passwords, ":" included',
    ({ userid, group, domain, password }) => {
      const decoded = decodeCredentials(encodeRestCredentials({ userid, group, domain, password }));
      expect(decoded).toEqual({ ok: true, clientId: buildClientId({ userid, group, domain }), password });
    },
  );

  test.prop({ userid: field, group: noColon, domain: noColon, password: fc.oneof(field, fc.constant('')) })(
    'the Authorization header round-trips with its parts when only the user ID and password contain ":"',
    (credentials) => {
      const { password, ...parts } = credentials;
      expect(decodeAuthorization(basicAuthorization(credentials))).toEqual({ ok: true, clientId: buildClientId(parts), password, parts });
    },
  );

  test.prop({ userid: field, group: noColon, domain: noColon })(
    'parseClientId recovers the parts when only the user ID contains ":"',
    (parts) => {
      expect(parseClientId(buildClientId(parts))).toEqual(parts);
    },
  );

  test.prop({ clientId: fc.string(), password: fc.string() })(
    'the encoded credentials are canonical base64 with no ":" (single base64 would leak the colon)',
    ({ clientId, password }) => {
      expect(encodeCredentials(clientId, password)).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    },
  );
});
