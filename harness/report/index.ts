/**
 * Conformance reports: the result model (`report.json`), building a report from test results, redaction of
 * secrets, the writers (JSON, JUnit XML, Markdown, HTML, EARL), known-failures baselines, GitHub Actions
 * annotations, comparing two reports, and the Vitest reporter.
 */
export { applyBaseline, createBaseline, parseBaseline, readBaselineFile, renderBaseline, unexpectedPassMessage, writeBaselineFile } from './baseline.ts';
export { buildReport, checkResult, exitCodeFor, ruleStatus, summarize, TOOL_NAME, UNREACHABLE_CODES } from './build.ts';
export { diffReports, parseReportJson, renderDiff } from './diff.ts';
export { earlDocument, earlOutcome, EARL_CONTEXT, renderEarl, ruleIri } from './earl.ts';
export { BaselineError, ReportError, ReportFileError, ReportWriteError, UnknownRuleError } from './errors.ts';
export { annotation, escapeData, escapeProperty, githubAnnotations } from './github.ts';
export { escapeHtml, renderHtml } from './html.ts';
export { renderJson } from './json.ts';
export { renderJunit } from './junit.ts';
export { renderMarkdown } from './markdown.ts';
export { EXIT_CODES, isNotSelected, NOT_SELECTED_REASON, REPORT_SCHEMA_VERSION, STATUSES } from './model.ts';
export { errorCode, toTestRecord } from './record.ts';
export { MIN_SECRET_LENGTH, REDACTED, Redactor, redactPatterns, secretForms } from './redact.ts';
export {
  formatReplayTarget, parseReplayTarget, REPLAY_PREFIX, replayCommand, shellQuote, ShellSyntaxError, splitShellWords, withContext,
} from './replay.ts';
export { ConformanceReporter } from './reporter.ts';
export { REPORT_FILES, renderReports, writeReports } from './write.ts';

export type { Baseline, BaselineOutcome, KnownFailure } from './baseline.ts';
export type { BuildOptions } from './build.ts';
export type { ComparableReport, DiffStatus, ReportDiff, StatusChange } from './diff.ts';
export type { EarlOutcome } from './earl.ts';
export type { AnnotationLevel } from './github.ts';
export type { ReplayTarget } from './replay.ts';
export type { ReportErrorCode } from './errors.ts';
export type { CheckFailureDetail, CheckMeta, CheckOutcome } from './meta.ts';
export type {
  BaselineSummary, CheckResult, CheckStatus, Completion, ErroredCheck, FailedCheck, InfoCheck, NotRunCheck, PassedCheck, Report,
  ReportExitCode, ReportTarget, Resources, RuleResult, RuleStatus, RunError, Status, Summary, TestRecord,
  TestRecordError, UnmappedTest,
} from './model.ts';
export type { ErrorLike, TestCaseLike, TestModuleLike } from './record.ts';
export type { ConformanceReporterOptions } from './reporter.ts';
export type { RenderedReports, ReportKind, WrittenReports } from './write.ts';
