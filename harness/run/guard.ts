/**
 * The session guard of a live run: the session registry served to the workers on loopback, the run's budget, and
 * the closes of whatever the checks left open (also when the run is interrupted).
 */
import { readFileSync } from 'node:fs';
import type { Budget } from '../checks/budget.ts';
import type { TraceConfig } from '../checks/trace.ts';
import type { Redactor } from '../report/redact.ts';
import type { ConformanceReporter } from '../report/reporter.ts';
import { SessionRegistry, type SessionCounts } from '../registry/registry.ts';
import { serveRegistry, type RegistryServer } from '../registry/server.ts';
import type { TargetConfig } from '../targets/config.ts';
import type { Transport } from '../targets/transport.ts';

/**
 * The session registry of a live run, served to the workers on loopback, and the transport this process closes
 * sessions with.
 */
export class SessionGuard {
  readonly registry: SessionRegistry;
  readonly #server: RegistryServer;
  readonly #transport: Transport;
  #disposed: Promise<void> | undefined;
  #reported = false;

  private constructor(registry: SessionRegistry, server: RegistryServer, transport: Transport) {
    this.registry = registry;
    this.#server = server;
    this.#transport = transport;
  }

  static async start(config: TargetConfig, budget: Budget, redactor: Redactor, trace: TraceConfig): Promise<SessionGuard> {
    // Loaded when a live run starts (undici, the SOAP builder), not for every command line.
    const { createTransport } = await import('../targets/transport.ts');
    const { soapSessionCloser } = await import('../registry/soap-closer.ts');
    const { setFileScope, tracingTransport } = await import('../checks/trace.ts');
    // The closes of this process carry the correlation header too, as the run's own ("end of run").
    setFileScope('end of run');
    const transport = tracingTransport(createTransport({
      timeoutMs: LEFTOVER_CLOSE_MS,
      useEnvProxy: true,
      ...(config.caFile && { ca: readFileSync(config.caFile, 'utf8') }),
    }), trace);
    // Session tokens are secrets: whatever this process writes masks them.
    const { withFaultCodes } = await import('../classify/fault-codes.ts');
    const registry = new SessionRegistry(budget, soapSessionCloser(config.environments, transport, withFaultCodes(config.faultCodes)), (s) => redactor.add(s.token));
    return new SessionGuard(registry, await serveRegistry(registry), transport);
  }

  get endpoint() {
    return this.#server.endpoint;
  }

  counts(): SessionCounts {
    return this.registry.counts();
  }

  resources() {
    const c = this.registry.counts();
    return { sessionsOpened: c.sessionsOpened, sessionsClosed: c.sessionsClosed, tokenRequests: c.tokenRequests, sessionRequests: c.sessionRequests };
  }

  async closeLeftovers(reporter: ConformanceReporter): Promise<void> {
    if (this.registry.stopped) return; // an interrupted run: its closes are under way
    if (this.registry.openSessions().length > 0) await this.registry.closeAll(LEFTOVER_CLOSE_MS);
    this.reportLeftOpen(reporter);
  }

  /** Adds a run error naming how many sessions stayed open, if any did (once). */
  reportLeftOpen(reporter: ConformanceReporter): void {
    const open = this.registry.openSessions().length;
    if (open === 0 || this.#reported) return;
    this.#reported = true;
    reporter.addRunError({
      code: 'SESSIONS_LEFT_OPEN',
      message: `${open} session${open === 1 ? '' : 's'} the run opened could not be closed (SessionCloseRQ got no answer in time): `
        + 'they stay in the account\'s session pool until the service times them out',
    });
  }

  dispose(): Promise<void> {
    // A close that never got an answer is not waited for (the transport would wait for it until its time limit).
    const transportClosed = Promise.race([this.#transport.close(), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
    this.#disposed ??= Promise.all([this.#server.close(), transportClosed]).then(() => undefined);
    return this.#disposed;
  }
}

/** Time limit of a close of a session the checks left open, at the end of a run. */
const LEFTOVER_CLOSE_MS = 5_000;
