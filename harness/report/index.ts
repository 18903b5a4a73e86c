/**
 * Conformance reports: the result model (`report.json`), building a report from test results, redaction of
 * secrets, the writers (JSON, JUnit XML, Markdown) and the Vitest reporter.
 */
export { buildReport, checkResult, exitCodeFor, ruleStatus, summarize, TOOL_NAME, UNREACHABLE_CODES } from './build.ts';
export { ReportError, ReportWriteError, UnknownRuleError } from './errors.ts';
export { renderJson } from './json.ts';
export { renderJunit } from './junit.ts';
export { renderMarkdown } from './markdown.ts';
export { EXIT_CODES, REPORT_SCHEMA_VERSION, STATUSES } from './model.ts';
export { errorCode, toTestRecord } from './record.ts';
export { MIN_SECRET_LENGTH, REDACTED, Redactor, redactPatterns, secretForms } from './redact.ts';
export { ConformanceReporter } from './reporter.ts';
export { REPORT_FILES, renderReports, writeReports } from './write.ts';

export type { BuildOptions } from './build.ts';
export type { ReportErrorCode } from './errors.ts';
export type { CheckFailureDetail, CheckMeta, CheckOutcome } from './meta.ts';
export type {
  CheckResult, CheckStatus, Completion, ErroredCheck, FailedCheck, InfoCheck, NotRunCheck, PassedCheck, Report,
  ReportExitCode, ReportTarget, Resources, RuleResult, RuleStatus, RunError, Status, Summary, TestRecord,
  TestRecordError, UnmappedTest,
} from './model.ts';
export type { ErrorLike, TestCaseLike, TestModuleLike } from './record.ts';
export type { ConformanceReporterOptions } from './reporter.ts';
export type { RenderedReports, WrittenReports } from './write.ts';
