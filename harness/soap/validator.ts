import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { DEFAULT_MAX_ENVELOPE_BYTES, screenInput } from './hostile-input.ts';
import { asUtf8Text } from './text-encoding.ts';
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
 * The framing of the helper's protocol over one byte stream (a JVM's stdio, or a loopback connection to a shared
 * JVM): requests written with an ID, answer lines matched to them.
 */
class FramedValidator {
  readonly #pending = new Map<string, Pending>();
  readonly #maxBytes: number;
  readonly #write: (chunk: Buffer) => void;
  readonly #setRef: (on: boolean) => void;
  #nextId = 0;
  #failure: JavaHelperError | undefined;
  #closing = false;
  #buffered = '';
  /** Called with the first line that is not an answer (READY, FATAL, PROTOCOL). */
  onStatus: ((head: string, rest: string) => void) | undefined;

  constructor(maxBytes: number, write: (chunk: Buffer) => void, setRef: (on: boolean) => void) {
    this.#maxBytes = maxBytes;
    this.#write = write;
    this.#setRef = setRef;
  }

  get failure(): JavaHelperError | undefined {
    return this.#failure;
  }

  /** Stops taking documents (a close is under way). */
  closing(): void {
    this.#closing = true;
  }

  fail(error: JavaHelperError): void {
    this.#failure ??= error;
    for (const { reject } of this.#pending.values()) reject(this.#failure);
    this.#pending.clear();
  }

  receive(chunk: string): void {
    this.#buffered += chunk;
    let newline: number;
    while ((newline = this.#buffered.indexOf('\n')) >= 0) {
      const line = this.#buffered.slice(0, newline);
      this.#buffered = this.#buffered.slice(newline + 1);
      this.#handleLine(line);
    }
  }

  #handleLine(line: string): void {
    const fields = line.split('\t');
    const [head = '', status, code, ...messages] = fields;
    if (head.startsWith('READY')) {
      this.onStatus?.('READY', head.slice('READY'.length).trim());
      return;
    }
    if (head === 'FATAL' || head === 'PROTOCOL') {
      const error = new JavaHelperError(head === 'FATAL' ? 'start-failed' : 'protocol', `validator helper: ${unescape(fields.slice(1).join(' '))}`);
      this.onStatus?.(head, error.message);
      this.fail(error);
      return;
    }
    const request = this.#pending.get(head);
    if (!request) return;
    this.#pending.delete(head);
    if (this.#pending.size === 0 && !this.#closing) this.#setRef(false);
    if (status === 'OK') {
      request.resolve(VALID);
    } else if (status === 'INVALID' && code !== undefined && VERDICT_CODES.has(code)) {
      request.resolve({ valid: false, code: code as VerdictCode, errors: messages.map(unescape) });
    } else {
      request.reject(new JavaHelperError('protocol', `unexpected answer from the validator helper: ${line}`));
    }
  }

  validate(xml: string, schema: SchemaName): Promise<Verdict> {
    if (this.#failure || this.#closing) return Promise.reject(this.#failure ?? new JavaHelperError('closed', 'the validator is closed'));
    if (!SCHEMA_NAMES.includes(schema)) return Promise.reject(new TypeError(`unknown schema "${String(schema)}"`));
    const screened = screenInput(xml, this.#maxBytes);
    if (screened) return Promise.resolve({ valid: false, code: screened.code, errors: [`[fatal] ${screened.message}`] });
    const id = String(this.#nextId++);
    const body = Buffer.from(asUtf8Text(xml), 'utf8');
    return new Promise<Verdict>((resolve, reject) => {
      if (this.#pending.size === 0) this.#setRef(true);
      this.#pending.set(id, { resolve, reject });
      this.#write(Buffer.concat([Buffer.from(`${id} ${schema} ${body.length}\n`, 'ascii'), body]));
    });
  }
}

/** Starts the helper JVM; resolves with it once it wrote READY. */
async function startHelper(options: ValidatorOptions) {
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

  let closing: Promise<void> | undefined;
  let stderr = '';
  let onReady: ((error?: JavaHelperError, detail?: string) => void) | undefined;
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const handles = [child.stdin, child.stdout, child.stderr] as unknown as Socket[];
  const setRef = (on: boolean): void => {
    if (on) child.ref();
    else child.unref();
    for (const handle of handles) (on ? handle.ref : handle.unref)?.call(handle);
  };
  const framed = new FramedValidator(maxBytes, (chunk) => child.stdin.write(chunk), setRef);
  framed.onStatus = (head, rest) => {
    if (head === 'READY') onReady?.(undefined, rest);
    else onReady?.(new JavaHelperError('start-failed', rest));
  };
  const fail = (error: JavaHelperError): void => {
    framed.fail(error);
    onReady?.(framed.failure);
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
  child.stdout.on('data', (chunk: string) => framed.receive(chunk));

  await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new JavaHelperError('start-failed', `the validator JVM did not start within ${options.startTimeoutMs ?? 30_000} ms`));
    }, options.startTimeoutMs ?? 30_000);
    onReady = (error, detail) => {
      clearTimeout(timer);
      onReady = undefined;
      if (error) reject(error);
      else resolve(detail ?? '');
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
    framed,
    pid: child.pid,
    close(): Promise<void> {
      closing ??= (async () => {
        framed.closing();
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

/**
 * Starts the fast validation path: compiles `harness/soap/java/EnvelopeValidatorServer.java` at first use, starts one
 * JVM that compiles both schemas once, and resolves when it is ready. Documents are framed on its stdin
 * (`<id> <schema> <length>\n<bytes>`) and answered one line each; DOCTYPEs are refused in Node and again in Java
 * (secure processing, `disallow-doctype-decl`). Close it when done; it is killed at process exit in any case.
 */
export async function createValidator(options: ValidatorOptions = {}): Promise<EnvelopeValidator> {
  const helper = await startHelper(options);
  return { pid: helper.pid, validate: (xml, schema) => helper.framed.validate(xml, schema), close: () => helper.close() };
}

function unescape(text: string): string {
  return text.replace(/\\([\\tnr])/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c] ?? '\\');
}
