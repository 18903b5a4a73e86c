/**
 * The client driver protocol: how the harness drives a client under test, in-process (a TypeScript adapter) or as a
 * process in any language (JSON lines over stdin/stdout). Documented in docs/driver-protocol.md.
 *
 * Each line the harness writes to the driver's stdin is one request `{"id": 1, "op": "…", …}`; each line the driver
 * writes to stdout is one answer with the same `id`: `{"id": 1, "ok": true, "result": …}` or
 * `{"id": 1, "ok": false, "error": {"kind": "…", "message": "…"}}`. Requests may be in flight at once (the harness
 * sends concurrent `rest.call`s for API-05); answers may come in any order. An answer is a JSON object with an
 * integer `id` and a boolean `ok`; any other stdout line (a library's own log line) is a diagnostic the report shows,
 * never an answer. Logs belong on stderr.
 */

export type Environment = 'cert' | 'prod';

/** Credentials of one environment as the client is configured with them. */
export interface DriverCredentials {
  /** The EPR / user ID. */
  readonly epr: string;
  /** The PCC / iPCC (REST group, SOAP Organization, eb:CPAId). */
  readonly pcc: string;
  readonly password: string;
  /** Left out when the client should use its default (`AA`, CRED-04). */
  readonly restDomain?: string;
  /** Left out when the client should use its default (`DEFAULT`). */
  readonly soapDomain?: string;
}

export interface DriverEnvironment {
  readonly restBaseUrl: string;
  readonly soapUrl: string;
  readonly credentials: DriverCredentials;
}

/** `configure`: where the service is and what credentials to use. Sent once, first. May be sent again to reset. */
export interface ConfigureRequest {
  readonly op: 'configure';
  readonly environments: Readonly<Partial<Record<Environment, DriverEnvironment>>>;
  /** The most sessions the client may hold open per environment (its pool size, SESS-08). */
  readonly sessionPoolSize: number;
  /**
   * `virtual`: the service is the harness's simulator, and the client may skip the waits of its back-offs (a retry
   * after `Client.ReachedTALimit`, say): a wait returns at once and the client's clock moves on by the time it would
   * have waited. The harness counts requests, it does not time them. A driver that ignores it is just as correct,
   * only slower. Left out: waits are real.
   */
  readonly clock?: 'virtual';
}

/** `rest.call`: call a published REST API; the client obtains and reuses tokens as it must. */
export interface RestCallRequest {
  readonly op: 'rest.call';
  readonly environment: Environment;
  readonly method: 'GET' | 'POST';
  /** The API path, with any query string (`/v1/lists/supported/shop/themes`). */
  readonly path: string;
  /** A JSON body for POST. */
  readonly body?: unknown;
}

export interface RestCallResult {
  readonly status: number;
  readonly body: unknown;
}

/** `soap.call`: a SOAP action with a sessionless token (TokenCreateRQ, reused as the client must). */
export interface SoapCallRequest {
  readonly op: 'soap.call';
  readonly environment: Environment;
  /** The eb:Action, e.g. `BargainFinderMaxRQ`. */
  readonly action: string;
}

/** `soap.session.open`: open a session (SessionCreateRQ, or one from the client's pool). */
export interface SessionOpenRequest {
  readonly op: 'soap.session.open';
  readonly environment: Environment;
}

export interface SessionOpenResult {
  /** A handle the harness uses in later requests; any string the driver chooses. */
  readonly session: string;
}

/** `soap.session.call`: a SOAP action within a session. `OTA_PingRQ` is the keep-alive ping. */
export interface SessionCallRequest {
  readonly op: 'soap.session.call';
  readonly session: string;
  readonly action: string;
}

export interface SoapCallResult {
  /** The response's eb:Action, e.g. `BargainFinderMaxRS`. */
  readonly action: string;
}

/** `soap.session.close`: the client is done with the session (SessionCloseRQ, or back to the pool and closed at shutdown). */
export interface SessionCloseRequest {
  readonly op: 'soap.session.close';
  readonly session: string;
}

/** `shutdown`: close everything (every open session) and answer; the driver process then exits. */
export interface ShutdownRequest {
  readonly op: 'shutdown';
}

export type DriverRequest =
  | ConfigureRequest
  | RestCallRequest
  | SoapCallRequest
  | SessionOpenRequest
  | SessionCallRequest
  | SessionCloseRequest
  | ShutdownRequest;

export type DriverOp = DriverRequest['op'];

export const DRIVER_OPS: readonly DriverOp[] = ['configure', 'rest.call', 'soap.call', 'soap.session.open', 'soap.session.call', 'soap.session.close', 'shutdown'];

/** What each op answers with. */
export interface DriverResults {
  readonly configure: Record<string, never>;
  readonly 'rest.call': RestCallResult;
  readonly 'soap.call': SoapCallResult;
  readonly 'soap.session.open': SessionOpenResult;
  readonly 'soap.session.call': SoapCallResult;
  readonly 'soap.session.close': Record<string, never>;
  readonly shutdown: Record<string, never>;
}

/**
 * Why an op failed. `auth`: the service refused the credentials or a token (ERR-06: keep the service's `code` and
 * `description`). `transport`: no answer. `protocol`: the service answered something the client cannot use (a SOAP
 * fault other than an auth one carries its faultcode in `code`). `unsupported`: the client does not do this op.
 */
export type DriverErrorKind = 'auth' | 'transport' | 'protocol' | 'unsupported';

export interface DriverError {
  readonly kind: DriverErrorKind;
  /** The client's own message, for people (no secret). On the wire it may be left out of an `unsupported` answer. */
  readonly message: string;
  /** The service's error code: `invalid_client`, `Client.InvalidSecurityToken`, `Client.ReachedTALimit`, … */
  readonly code?: string;
  /** The service's description (`error_description`, or a faultstring). */
  readonly description?: string;
  /** Optional: the HTTP status the service answered with; ERR-06 compares it when given. */
  readonly status?: number;
}

export type DriverAnswer =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: DriverError };

/** A client under test, in-process: the TypeScript form of the protocol. Methods throw {@link ClientError}. */
export interface ClientAdapter {
  configure(request: Omit<ConfigureRequest, 'op'>): Promise<void>;
  restCall(request: Omit<RestCallRequest, 'op'>): Promise<RestCallResult>;
  soapCall(request: Omit<SoapCallRequest, 'op'>): Promise<SoapCallResult>;
  openSession(request: Omit<SessionOpenRequest, 'op'>): Promise<SessionOpenResult>;
  sessionCall(request: Omit<SessionCallRequest, 'op'>): Promise<SoapCallResult>;
  closeSession(request: Omit<SessionCloseRequest, 'op'>): Promise<void>;
  shutdown(): Promise<void>;
  /**
   * Optional, and no driver of the protocol has it: an in-process client built with deliberate faults (the reference
   * client, whose faults the self-test's mutant clients switch on) says which it switched on and which it asked about
   * so far. The self-test then reuses a fault-free run's verdicts for the suite files whose client never asked about a
   * mutant's fault (harness/selftest.ts).
   */
  deliberateFaults?(): DeliberateFaults;
}

/** What a client with deliberate faults says of them ({@link ClientAdapter.deliberateFaults}). */
export interface DeliberateFaults {
  /** The faults switched on. */
  readonly on: readonly string[];
  /** The faults asked about so far, switched on or not (`all`: the client read its faults otherwise). */
  readonly asked: readonly string[] | 'all';
}

/**
 * The mark every ClientError carries, in the global symbol registry: a client module may construct its errors from
 * another copy of this class (the package's sources and its compiled `dist/`, or two installed versions), and each copy
 * must still recognise them (`instanceof`).
 */
const CLIENT_ERROR = Symbol.for('tds-auth-conformance.ClientError');

/** An op that failed, as an adapter throws it and a driver answers it. */
export class ClientError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CLIENT_ERROR] === true;
  }
  readonly [CLIENT_ERROR] = true;
  readonly kind: DriverErrorKind;
  readonly code: string | undefined;
  readonly description: string | undefined;
  readonly status: number | undefined;
  constructor(error: DriverError) {
    super(error.message);
    this.name = 'ClientError';
    this.kind = error.kind;
    this.code = error.code;
    this.description = error.description;
    this.status = typeof error.status === 'number' ? error.status : undefined;
  }
  toJSON(): DriverError {
    return {
      kind: this.kind, message: this.message,
      ...(this.code !== undefined && { code: this.code }),
      ...(this.description !== undefined && { description: this.description }),
      ...(this.status !== undefined && { status: this.status }),
    };
  }
}

/** A module given to `--client-module` exports `createClient()` (or a default export) returning an adapter. */
export interface ClientModule {
  createClient?: () => ClientAdapter | Promise<ClientAdapter>;
  default?: () => ClientAdapter | Promise<ClientAdapter>;
}
