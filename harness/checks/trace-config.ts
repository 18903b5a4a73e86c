/**
 * What the main process decides of a run's tracing (harness/checks/trace.ts traces the requests in the workers): the
 * header's default name, the run's ID, the configuration handed to the workers. A module of its own so that the CLI
 * has it without loading the tracing transport and what that imports.
 */
import { createHash } from 'node:crypto';

/** The default name of the correlation header. */
export const CORRELATION_HEADER = 'X-Conformance-Check';

/** How a run traces its requests (part of the run configuration the CLI hands the workers). */
export interface TraceConfig {
  /** The run's ID (`r` + 8 hex digits), in every correlation ID of the run. */
  readonly runId: string;
  /** The header's name; `false`: no header is sent (the IDs are still recorded). */
  readonly header: string | false;
  /** A directory where each worker writes the run's exchanges as HAR entries (one JSON line each), when a HAR is asked for. */
  readonly harDir?: string | undefined;
}

/** A new run ID: `r` and 8 random hex digits. */
export function newRunId(): string {
  return `r${createHash('sha256').update(`${process.pid}-${Date.now()}-${Math.random()}`).digest('hex').slice(0, 8)}`;
}

