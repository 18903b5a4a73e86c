/**
 * From Vitest's reported tasks to {@link TestRecord}s. The shapes below are the parts of Vitest's `TestCase`,
 * `TestModule` and `SerializedError` the reporter reads, so that tests can hand it plain objects.
 */
import type { CheckMeta } from './meta.ts';
import type { TestRecord, TestRecordError } from './model.ts';

/** The part of an error (Vitest's `TestError` / `SerializedError`) the reporter reads. */
export interface ErrorLike {
  readonly message: string;
  readonly stack?: string | undefined;
  readonly name?: string | undefined;
  readonly code?: unknown;
  readonly cause?: unknown;
  readonly expected?: string | undefined;
  readonly actual?: string | undefined;
}

/** The part of Vitest's `TestCase` the reporter reads. */
export interface TestCaseLike {
  readonly id: string;
  /** The test's own title (without describe blocks). */
  readonly name: string;
  readonly project: { readonly name: string };
  readonly module: { readonly moduleId: string; readonly relativeModuleId: string };
  result(): {
    readonly state: TestRecord['state'];
    readonly errors?: readonly ErrorLike[] | undefined;
    /** The note of `ctx.skip(note)`. */
    readonly note?: string | undefined;
  };
  meta(): { readonly tds?: CheckMeta | undefined };
  diagnostic(): { readonly duration: number } | undefined;
}

/** The part of Vitest's `TestModule` the reporter reads. */
export interface TestModuleLike {
  readonly moduleId: string;
  readonly relativeModuleId: string;
  readonly project: { readonly name: string };
  readonly children: {
    allTests(): Iterable<TestCaseLike>;
    allSuites(): Iterable<{ readonly name: string; errors(): readonly ErrorLike[] }>;
  };
  /** Errors outside any test, such as a file that does not load. */
  errors(): readonly ErrorLike[];
}

export function toTestRecord(testCase: TestCaseLike): TestRecord {
  const result = testCase.result();
  const meta = testCase.meta().tds;
  return {
    title: testCase.name,
    file: testCase.module.relativeModuleId,
    state: result.state,
    errors: (result.errors ?? []).map(toRecordError),
    ...(meta !== undefined && { meta }),
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    ...(result.note !== undefined && { note: result.note }),
  };
}

function toRecordError(error: ErrorLike): TestRecordError {
  const code = errorCode(error);
  return {
    message: typeof error.message === 'string' ? error.message : String(error.message),
    ...(error.stack !== undefined && { stack: error.stack }),
    ...(code !== undefined && { code }),
    ...(typeof error.expected === 'string' && { expected: error.expected }),
    ...(typeof error.actual === 'string' && { actual: error.actual }),
  };
}

/** The string `code` of an error or of the first error in its `cause` chain that has one (undici nests them). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    current = cause;
  }
  return undefined;
}
