/** Errors of `harness/report`. Each has a stable string `code`. */

export type ReportErrorCode =
  | 'UNKNOWN_RULE'
  | 'REPORT_WRITE_FAILED'
  | 'BASELINE_NOT_FOUND'
  | 'BASELINE_INVALID'
  | 'BASELINE_WRITE_FAILED'
  | 'REPORT_FILE_NOT_FOUND'
  | 'REPORT_FILE_INVALID';

export abstract class ReportError extends Error {
  abstract readonly code: ReportErrorCode;
}

/** A selection names a rule the catalog does not have. */
export class UnknownRuleError extends ReportError {
  readonly code = 'UNKNOWN_RULE';
  override readonly name = 'UnknownRuleError';
  readonly ruleId: string;

  constructor(ruleId: string) {
    super(`rule "${ruleId}" is not in the catalog; selections hold catalog rule IDs such as "REST-03"`);
    this.ruleId = ruleId;
  }
}

/** The report files could not be written. */
export class ReportWriteError extends ReportError {
  readonly code = 'REPORT_WRITE_FAILED';
  override readonly name = 'ReportWriteError';
  readonly outDir: string;

  constructor(outDir: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`could not write the reports to "${outDir}": ${reason}`, { cause });
    this.outDir = outDir;
  }
}

/**
 * A known-failures baseline (`--baseline known.json`) that cannot be used: `BASELINE_NOT_FOUND` (no such file),
 * `BASELINE_INVALID` (not JSON, or not the shape `{ "knownFailures": [...] }`), `BASELINE_WRITE_FAILED`
 * (`--update-baseline` could not write it). The message names the file and says what to do.
 */
export class BaselineError extends ReportError {
  override readonly name = 'BaselineError';
  readonly code: 'BASELINE_NOT_FOUND' | 'BASELINE_INVALID' | 'BASELINE_WRITE_FAILED';
  readonly file: string;

  constructor(code: BaselineError['code'], file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.file = file;
  }
}

/**
 * A file given as a `report.json` that is not one: `REPORT_FILE_NOT_FOUND` (no such file) or `REPORT_FILE_INVALID`
 * (not JSON, or without the `rules` of a report).
 */
export class ReportFileError extends ReportError {
  override readonly name = 'ReportFileError';
  readonly code: 'REPORT_FILE_NOT_FOUND' | 'REPORT_FILE_INVALID';
  readonly file: string;

  constructor(code: ReportFileError['code'], file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.file = file;
  }
}
