import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { DEFAULT_MAX_ENVELOPE_BYTES, screenInput } from './hostile-input.ts';
import { compiledHelperDir, HELPER_CLASS, JavaHelperError, javaTool } from './java-helper.ts';
import { SCHEMA_NAMES, schemaPath, type SchemaName } from './schemas.ts';
import { VALID, type Verdict, type VerdictCode } from './verdict.ts';

export interface ValidatorOptions {
  /** Bound on a document, in UTF-8 bytes (default 1 MiB); larger ones get `too-large` without reaching Java. */
  readonly maxBytes?: number;
  /** Where the helper class is compiled (default `node_modules/.cache/tds-auth-conformance`, else the OS temp dir). */
  readonly cacheDir?: string;
  /** How long the JVM may take to start and compile the schemas (default 30 s). */
  readonly startTimeoutMs?: number;
  /** Extra JVM options, before the defaults' class path. */
  readonly jvmOptions?: readonly string[];
}

/** The fast validation path: one long-lived JVM answering many documents, several in flight at once. */
export interface EnvelopeValidator {
  /** Validates `xml` against `fixtures/xsd/<schema>.xsd`. Rejects with `JavaHelperError` if the helper is gone. */
  validate(xml: string, schema: SchemaName): Promise<Verdict>;
  /** Lets the documents in flight be answered, then ends the JVM (killed if it has not exited after 5 s). */
  close(): Promise<void>;
  /** The JVM's process ID (for diagnostics and tests). */
  readonly pid: number | undefined;
}

const DEFAULT_JVM_OPTIONS = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xms32m', '-Xmx256m', '-Duser.language=en', '-Duser.country=US'];
const VERDICT_CODES = new Set<string>(['schema-invalid', 'not-well-formed', 'doctype-forbidden', 'too-large']);

// Every JVM still running is killed when this process exits, whatever the caller forgot to close.
const live = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;
function track(child: ChildProcessWithoutNullStreams): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const running of live) running.kill('SIGKILL');
    });
  }
  live.add(child);
}

interface Pending {
  readonly resolve: (verdict: Verdict) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Starts the fast validation path: compiles `harness/soap/java/EnvelopeValidatorServer.java` at first use, starts one
 * JVM that compiles both schemas once, and resolves when it is ready. Documents are framed on its stdin
 * (`<id> <schema> <length>\n<bytes>`) and answered one line each; DOCTYPEs are refused in Node and again in Java
 * (secure processing, `disallow-doctype-decl`). Close it when done; it is killed at process exit in any case.
 */
export async function createValidator(options: ValidatorOptions = {}): Promise<EnvelopeValidator> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_ENVELOPE_BYTES;
  const classDir = await compiledHelperDir(options.cacheDir);
  const args = [
    ...DEFAULT_JVM_OPTIONS,
    ...(options.jvmOptions ?? []),
    '-cp', classDir, HELPER_CLASS,
    `--max-bytes=${maxBytes}`,
    ...SCHEMA_NAMES.map((name) => `${name}=${schemaPath(name)}`),
  ];
  const child = spawn(javaTool('java'), args, { stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);

  const pending = new Map<string, Pending>();
  let nextId = 0;
  let failure: JavaHelperError | undefined;
  let closing: Promise<void> | undefined;
  let stderr = '';
  let buffered = '';
  let onReady: ((error?: JavaHelperError) => void) | undefined;
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const handles = [child.stdin, child.stdout, child.stderr] as unknown as Socket[];
  const setRef = (on: boolean): void => {
    if (on) child.ref();
    else child.unref();
    for (const handle of handles) (on ? handle.ref : handle.unref)?.call(handle);
  };

  const fail = (error: JavaHelperError): void => {
    failure ??= error;
    onReady?.(failure);
    for (const { reject } of pending.values()) reject(failure);
    pending.clear();
  };

  child.stdin.on('error', () => {
    // EPIPE when the JVM died: reported through 'close' below.
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.on('error', (error) => {
    live.delete(child);
    fail(new JavaHelperError('java-not-found', `cannot start java (${error.message}); install a JDK (17 or later) or set JAVA_HOME`));
  });
  // 'close', not 'exit': answers still in the stdout pipe are read before pending requests are failed.
  child.on('close', (code, signal) => {
    live.delete(child);
    const detail = stderr.trim() ? `: ${stderr.trim()}` : '';
    fail(closing
      ? new JavaHelperError('closed', 'the validator is closed')
      : new JavaHelperError('helper-exited', `the validator JVM exited (code ${code}, signal ${signal})${detail}`));
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      handleLine(line);
    }
  });

  function handleLine(line: string): void {
    const fields = line.split('\t');
    const [head = '', status, code, ...messages] = fields;
    if (head === 'READY') {
      onReady?.();
      onReady = undefined;
      return;
    }
    if (head === 'FATAL' || head === 'PROTOCOL') {
      fail(new JavaHelperError(head === 'FATAL' ? 'start-failed' : 'protocol', `validator helper: ${unescape(fields.slice(1).join(' '))}`));
      return;
    }
    const request = pending.get(head);
    if (!request) return;
    pending.delete(head);
    if (pending.size === 0 && !closing) setRef(false);
    if (status === 'OK') {
      request.resolve(VALID);
    } else if (status === 'INVALID' && code !== undefined && VERDICT_CODES.has(code)) {
      request.resolve({ valid: false, code: code as VerdictCode, errors: messages.map(unescape) });
    } else {
      request.reject(new JavaHelperError('protocol', `unexpected answer from the validator helper: ${line}`));
    }
  }

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new JavaHelperError('start-failed', `the validator JVM did not start within ${options.startTimeoutMs ?? 30_000} ms`));
    }, options.startTimeoutMs ?? 30_000);
    onReady = (error) => {
      clearTimeout(timer);
      onReady = undefined;
      if (error) reject(error);
      else resolve();
    };
  }).catch(async (error: unknown) => {
    // A JVM that never started (no pid) emits no 'close' to wait for.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    live.delete(child);
    throw error;
  });
  setRef(false);

  return {
    pid: child.pid,
    validate(xml: string, schema: SchemaName): Promise<Verdict> {
      if (failure || closing) return Promise.reject(failure ?? new JavaHelperError('closed', 'the validator is closed'));
      if (!SCHEMA_NAMES.includes(schema)) return Promise.reject(new TypeError(`unknown schema "${String(schema)}"`));
      const screened = screenInput(xml, maxBytes);
      if (screened) return Promise.resolve({ valid: false, code: screened.code, errors: [`[fatal] ${screened.message}`] });
      const id = String(nextId++);
      const body = Buffer.from(xml, 'utf8');
      return new Promise<Verdict>((resolve, reject) => {
        if (pending.size === 0) setRef(true);
        pending.set(id, { resolve, reject });
        child.stdin.write(Buffer.concat([Buffer.from(`${id} ${schema} ${body.length}\n`, 'ascii'), body]));
      });
    },
    close(): Promise<void> {
      closing ??= (async () => {
        setRef(true);
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}

function unescape(text: string): string {
  return text.replace(/\\([\\tnr])/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c] ?? '\\');
}
