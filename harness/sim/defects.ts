import type { RuleId } from '../spec/index.ts';

/**
 * Deviations the simulator can be told to make, one at a time, to prove that each check can fail (self-test).
 * Every rule checked on the service side has at least one defect that breaks it.
 */
export interface Defect {
  readonly id: string;
  /** The rules whose checks must catch this defect. */
  readonly breaks: readonly RuleId[];
  readonly description: string;
}

export const defects = [
  { id: 'cred03-latin1-decoding', breaks: ['CRED-03'], description: 'decodes the credential layers as Latin-1, so non-ASCII user IDs and passwords fail' },
  { id: 'cred03-client-id-four-fields', breaks: ['CRED-03'], description: 'splits the Client ID into exactly four fields, so a user ID containing ":" fails' },
  { id: 'rest02-source-ip-rejected', breaks: ['REST-02'], description: 'answers 400 invalid_request when the form carries source_ip' },
  { id: 'rest03-token-type-capitalized', breaks: ['REST-03'], description: 'answers token_type "Bearer" instead of "bearer"' },
  { id: 'rest03-expires-in-string', breaks: ['REST-03'], description: 'answers expires_in as the string "604800"' },
  { id: 'rest03-legacy-lifetime', breaks: ['REST-03', 'LIFE-01'], description: 'issues tokens with the former lifetime of 390 s' },
  { id: 'rest04-token-reused', breaks: ['REST-04'], description: 'answers repeated token requests of an account with the same token while it is valid' },
  { id: 'rest05-text-plain', breaks: ['REST-05'], description: 'sends the token response as text/plain' },
  { id: 'api01-single-use-token', breaks: ['API-01'], description: 'refuses a token after its first use on an API' },
  { id: 'api02-unknown-token-accepted', breaks: ['API-02'], description: 'accepts any non-empty bearer token on the APIs' },
  { id: 'life01-never-expires', breaks: ['LIFE-01'], description: 'keeps accepting sessionless tokens after expires_in' },
  { id: 'life02-refresh-returns-expired', breaks: ['LIFE-02'], description: 'answers a token request after expiry with the expired token again' },
  { id: 'err01-wrong-description', breaks: ['ERR-01'], description: 'describes syntax errors as a wrong client ID or secret' },
  { id: 'err01-single-base64-accepted', breaks: ['ERR-01'], description: 'accepts credentials encoded with a single base64 layer' },
  { id: 'err02-syntax-description', breaks: ['ERR-02'], description: 'describes a wrong secret as missing credentials or bad syntax' },
  { id: 'err02-unauthorized-client', breaks: ['ERR-02'], description: 'answers a wrong secret with error "unauthorized_client"' },
  { id: 'err03-status-400', breaks: ['ERR-03'], description: 'answers token errors with status 400 instead of 401' },
  { id: 'err03-secret-echoed', breaks: ['ERR-03'], description: 'quotes the client secret in the error_description' },
  { id: 'err07-hang-on-bad-grant-type', breaks: ['ERR-07'], description: 'never answers a token request with a wrong grant_type' },
  { id: 'err07-drop-on-bad-content-type', breaks: ['ERR-07'], description: 'drops the connection of a token request whose body is not form-encoded' },
] as const satisfies readonly Defect[];

export type DefectId = (typeof defects)[number]['id'];

const ids = new Set<string>(defects.map((d) => d.id));

export function isDefectId(value: string): value is DefectId {
  return ids.has(value);
}

export function defectsBreaking(rule: RuleId): Defect[] {
  return defects.filter((d) => (d.breaks as readonly RuleId[]).includes(rule));
}

export class UnknownDefectError extends Error {
  readonly code = 'UNKNOWN_DEFECT';
  constructor(readonly defect: string) {
    super(`unknown simulator defect "${defect}"; known defects: ${[...ids].join(', ')}`);
    this.name = 'UnknownDefectError';
  }
}

/** Checks a list of defect names, throwing {@link UnknownDefectError} for one that does not exist. */
export function parseDefects(names: readonly string[]): ReadonlySet<DefectId> {
  for (const name of names) if (!isDefectId(name)) throw new UnknownDefectError(name);
  return new Set(names as readonly DefectId[]);
}
