/**
 * Test support: the CLI run against the simulator served on loopback as a live target, in a process group of its
 * own (as a terminal starts it), with what the simulator saw: sessions open, SessionCloseRQs received.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';
import { buildResponse, faultBody, parseEnvelope, replyToOf } from '../../harness/soap/index.ts';
import { rules } from '../../harness/catalog/index.ts';
import { defaultAccounts, ManualClock, SimCore, startSimServer, type GatewayAnswer, type SimRequest, type SimServer, type SimServerOptions } from '../../harness/sim/index.ts';

export interface LiveSim {
  readonly core: SimCore;
  readonly dir: string;
  /** SessionCloseRQs received so far. */
  readonly closes: () => number;
  run(args: readonly string[], out: string): CliRun;
  close(): Promise<void>;
}

export interface CliRun {
  readonly child: ChildProcess;
  stderr(): string;
  /** Exit code, or the signal that ended it. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  /** Signals the run's whole process group (the CLI and its workers), as Ctrl-C in a terminal does. */
  signalGroup(signal: NodeJS.Signals): void;
}

export const isSessionClose = (r: SimRequest) => r.body.includes('SessionCloseRQ</') || /<(?:\w+:)?Action>\s*SessionCloseRQ/.test(r.body);
export const isSessionCreate = (r: SimRequest) => /<(?:\w+:)?Action>\s*SessionCreateRQ/.test(r.body);
export const isPing = (r: SimRequest) => r.body.includes('OTA_PingRQ');

/**
 * The simulator on loopback, a target config pointing at it, and a temporary directory. `delay` decides how long
 * each request waits before the simulator acts on it (`Infinity`: never); `front`, a gateway in front, may answer a
 * request itself (the simulator then never sees it), `back` rewrite the simulator's answer; `defects` are switched on, `config` adds to the target config.
 */
export async function startLiveSim(
  delay: (r: SimRequest) => number,
  front?: SimServerOptions['front'],
  more: { readonly back?: SimServerOptions['back']; readonly defects?: readonly string[]; readonly config?: Readonly<Record<string, unknown>> } = {},
): Promise<LiveSim> {
  const dir = mkdtempSync(join(tmpdir(), 'tds-interrupt-'));
  const accounts = defaultAccounts(3);
  const core = new SimCore({ clock: new ManualClock(Date.now()), accounts: accounts.accounts, ...(more.defects && { defects: more.defects }) });
  let closes = 0;
  const server: SimServer = await startSimServer(core, {
    delay: (r) => {
      if (isSessionClose(r)) closes++;
      return delay(r);
    },
    ...(front && { front }),
    ...(more.back && { back: more.back }),
  });
  const config = join(dir, 'target.json');
  writeFileSync(config, JSON.stringify({
    name: 'loopback simulator',
    environments: { cert: server.urls.cert, prod: server.urls.prod },
    accounts: {
      cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, password: { env: 'TDS_TEST_CERT_PASSWORD' } },
      prod: { epr: accounts.main.prod.epr, pcc: accounts.main.prod.pcc, password: { env: 'TDS_TEST_PROD_PASSWORD' } },
    },
    sessionPoolSize: 4,
    ...more.config,
  }));
  const env = {
    ...process.env,
    TDS_TEST_CERT_PASSWORD: accounts.main.cert.password,
    TDS_TEST_PROD_PASSWORD: accounts.main.prod.password,
    HTTPS_PROXY: '',
    https_proxy: '',
  };
  return {
    core,
    dir,
    closes: () => closes,
    run(args, out) {
      const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), 'run', '--target', config, ...args, '--out', out, '--quiet'], {
        cwd: PACKAGE_ROOT,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true, // a process group of its own, as a shell gives a command it starts
      });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      return {
        child,
        stderr: () => stderr,
        exited,
        signalGroup(signal) {
          if (child.pid !== undefined) process.kill(-child.pid, signal);
        },
      };
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `condition` holds (checked every 10 ms), failing with `what` after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The report.json a run wrote to `out`, with what the interrupt tests look at. */
export function readReport(out: string): { completion: string; rules: unknown[]; runErrors: { code: string }[]; resources: { sessionsOpened: number; sessionsClosed: number } } {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReturnType<typeof readReport>;
}

/** Kills what is left of a run's process group (after a failed test). */
export function killGroup(run: CliRun | undefined): void {
  try {
    if (run?.child.pid !== undefined && run.child.exitCode === null) process.kill(-run.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * What every interrupted run must leave: the exit code of its signal, no session open on the simulator, the report
 * of what ran (every rule, marked interrupted, no session left open), and no stack trace on the console.
 */
export async function expectInterrupted(sim: LiveSim, run: CliRun, out: string, signal: NodeJS.Signals, exitCode: number): Promise<void> {
  const { code } = await run.exited;
  const stderr = run.stderr();
  expect(stderr).toContain(`${signal}: stopping the run, closing its sessions and writing the report`);
  expect(stderr).toContain(`Interrupted (${signal}): every session the run opened was closed; the report of what ran is in ${out}.`);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(code).toBe(exitCode);
  expect(sim.core.openSessionCount(), 'sessions left open on the service').toBe(0);
  const report = readReport(out);
  expect(report.completion).toBe('interrupted');
  expect(report.rules).toHaveLength(rules.length);
  const codes = report.runErrors.map((e) => e.code);
  expect(codes).toContain('INTERRUPTED');
  expect(codes).not.toContain('SESSIONS_LEFT_OPEN');
  expect(report.resources.sessionsOpened).toBeGreaterThan(0);
  expect(report.resources.sessionsClosed).toBe(report.resources.sessionsOpened);
}

/** The token in a request's wsse:BinarySecurityToken. */
export function sessionTokenOf(r: SimRequest): string | undefined {
  return /<(?:[\w-]+:)?BinarySecurityToken[^>]*>([^<]+)</.exec(r.body)?.[1];
}

/** A gateway's answer to a SOAP request with a SOAP fault, echoing the request's header. */
export function faultAnswer(requestBody: string, fault: { faultcode: string; faultstring: string; stackTrace: string }): GatewayAnswer {
  const request = parseEnvelope(requestBody);
  const xml = buildResponse({
    header: { inReplyTo: replyToOf(request.ok ? request.envelope.messageHeader : undefined, { from: 'c', to: 's', cpaId: '', conversationId: '' }), action: 'ErrorRS', messageId: '1', timestamp: new Date() },
    security: { kind: 'empty' },
    body: faultBody(fault),
  });
  return { status: 500, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: xml };
}

/** A gateway's answer to a SOAP request as the service refuses one for a full pool (Client.ReachedTALimit), echoing its header. */
export function poolFullAnswer(requestBody: string): GatewayAnswer {
  return faultAnswer(requestBody, { faultcode: 'Client.ReachedTALimit', faultstring: 'You have reached the limit of Host TAs allocated to you', stackTrace: 'USG_RESOURCE_UNAVAILABLE' });
}
