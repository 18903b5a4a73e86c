import { describe, expect, it } from 'vitest';
import { describes } from './errors.ts';
import { DESCRIPTIONS } from '../sim/latitude.ts';
import { UNIFORM_401_BODY } from '../sim/front.ts';

/** ERR-02's text test as the check applies it: it states its case, and not ERR-01's. */
const statesWrongClientOnly = (text: string) => describes(text, 'wrong-client') && !describes(text, 'missing-or-syntax');

describe('describes (error-description-wording)', () => {
  it('reads conforming ERR-01 wordings as stating missing or malformed credentials', () => {
    for (const text of [
      'Client credentials were not provided',
      'Authorization header not present',
      'Credentials not supplied',
      'Client ID must have the form V1:userid:group:domain',
      'Basic credentials could not be read',
      'Authorization header is required',
      'Unsupported authentication scheme; use Basic',
      'Credential string is not valid Base64',
      'No credentials',
      'Missing credentials or invalid credential syntax',
      'Client credentials not well formed',
      'ill-formed Authorization header',
      'Basic authentication expected',
      'Authorization header not present',
      ...DESCRIPTIONS.syntax,
    ]) expect(describes(text, 'missing-or-syntax'), text).toBe(true);
  });

  it('reads conforming ERR-02 wordings as stating a wrong client ID or secret, and not missing or malformed credentials', () => {
    for (const text of [
      'No client found for this client ID and secret',
      'No client matches the given client ID and secret',
      'Invalid client credentials: the encoded client ID is unknown',
      'The client secret doesn\'t match the client ID',
      'Wrong client ID or client secret (no match)',
      'Wrong client secret for the client ID in the Authorization header',
      'Wrong client ID or client secret',
      'No client with this ID and secret',
      'No client for these credentials',
      'No application registered under this client ID',
      // Saying the syntax is fine is not stating ERR-01's case (a blind service's wording).
      'Wrong client ID or client secret (credentials present and syntactically correct)',
      'Wrong client ID or client secret (the syntax of the credentials is fine)',
      'The credentials are well-formed, but the client secret is wrong',
      'Credentials decoded successfully; wrong client ID or secret',
      ...DESCRIPTIONS.wrongClient,
    ]) expect(statesWrongClientOnly(text), text).toBe(true);
  });

  it('still reads a negated "syntax is fine" as ERR-01\'s case', () => {
    for (const text of ['The credentials are not syntactically correct', 'Credentials are not well-formed', 'The syntax is not correct', 'Credentials are missing or the syntax is not correct']) {
      expect(describes(text, 'missing-or-syntax'), text).toBe(true);
    }
  });

  it('still reads a wrong-client text as no ERR-01 text, and a syntax text as no ERR-02 text (err01-wrong-description, err02-syntax-description)', () => {
    for (const text of [...DESCRIPTIONS.wrongClient, 'Client authentication failed', 'Invalid credentials']) expect(describes(text, 'missing-or-syntax'), text).toBe(false);
    for (const text of DESCRIPTIONS.syntax) expect(statesWrongClientOnly(text), text).toBe(false);
    expect(describes(JSON.parse(UNIFORM_401_BODY).error_description, 'missing-or-syntax')).toBe(false);
  });
});
