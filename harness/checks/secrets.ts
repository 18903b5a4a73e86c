import { Redactor } from '../report/redact.ts';

/**
 * The secrets this worker has handled (passwords of the target's accounts, tokens it was given). Everything a check
 * hands the reporter passes through {@link redact} first, so no secret leaves the worker.
 */
export const secrets = new Redactor();

export function registerSecret(value: string | undefined): void {
  if (value) secrets.add(value);
}

/** Registers an account's password: its starts of 8 characters or more are redacted too (see Redactor.addPassword). */
export function registerPassword(value: string | undefined): void {
  if (value) secrets.addPassword(value);
}

export function redact(text: string): string {
  return secrets.redact(text);
}
