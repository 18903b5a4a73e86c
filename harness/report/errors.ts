/** Errors of `harness/report`. Each has a stable string `code`. */

export type ReportErrorCode = 'UNKNOWN_RULE' | 'REPORT_WRITE_FAILED';

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
