import type { RuleId } from './types.ts';

/**
 * The state tables of the interface document ("States and transitions"), as data.
 * The simulator follows them, the model-based tests check against them, and the docs draw them.
 */
export interface Transition<S extends string> {
  readonly from: S | 'none';
  readonly trigger: string;
  readonly condition: string;
  readonly to: S;
  readonly also: string;
  /** Rules that check this transition. */
  readonly rules: readonly RuleId[];
}

export interface StateTable<S extends string> {
  readonly name: string;
  readonly section: string;
  readonly states: readonly S[];
  readonly transitions: readonly Transition<S>[];
}

export type SessionlessState = 'valid' | 'expired';
export type SessionState = 'open' | 'closed' | 'expired';

export const sessionlessToken: StateTable<SessionlessState> = {
  name: 'Sessionless token (REST or SOAP)',
  section: 'States and transitions › Sessionless token (REST or SOAP)',
  states: ['valid', 'expired'],
  transitions: [
    {
      from: 'none',
      trigger: '`POST /v2/auth/token` or `TokenCreateRQ`',
      condition: 'Valid credentials',
      to: 'valid',
      also: 'Response carries the token; no session is allocated',
      rules: ['REST-03', 'REST-04', 'STOK-01', 'CRED-03'],
    },
    {
      from: 'valid',
      trigger: 'Elapse of `expires_in` (604800 s)',
      condition: 'Lifetime passed',
      to: 'expired',
      also: 'The token must be refreshed by requesting a new one',
      rules: ['LIFE-01', 'LIFE-02', 'LIFE-03'],
    },
    {
      from: 'valid',
      trigger: 'Call to a published API with the token',
      condition: 'Token sent in the Authorization header',
      to: 'valid',
      also: 'The same token is reused for many requests until it expires',
      rules: ['API-01', 'API-04'],
    },
  ],
};

export const sessionToken: StateTable<SessionState> = {
  name: 'Session token (SOAP)',
  section: 'States and transitions › Session token (SOAP)',
  states: ['open', 'closed', 'expired'],
  transitions: [
    {
      from: 'none',
      trigger: '`SessionCreateRQ`',
      condition: 'Valid credentials',
      to: 'open',
      also: 'A session is allocated from the caller\'s pool; the token is returned in wsse:BinarySecurityToken',
      rules: ['STOK-02', 'SESS-04'],
    },
    {
      from: 'open',
      trigger: 'Any request to an API with the token, for example the Refresh Session API',
      condition: 'Sent before the timeout',
      to: 'open',
      also: 'The timeout is prevented (the Refresh Session API is the recommended simple ping)',
      rules: ['SESS-01'],
    },
    {
      from: 'open',
      trigger: '`SessionCloseRQ`',
      condition: 'Request carries eb:ConversationId, eb:CPAId and the token',
      to: 'closed',
      also: 'The token becomes invalid; session resources are released',
      rules: ['SESS-02', 'SESS-05', 'SESS-06'],
    },
    {
      from: 'open',
      trigger: 'Inactivity timeout',
      condition: 'Default 15 minutes; set when the credentials are created',
      to: 'expired',
      also: 'The session stays allocated against the pool until it times out; if sessions are not closed, the pool can be exhausted',
      rules: ['SESS-03', 'SESS-04'],
    },
  ],
};

export const stateTables = [sessionlessToken, sessionToken] as const;
