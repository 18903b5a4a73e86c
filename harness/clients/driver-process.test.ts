import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import { DriverFailure, DriverProcess } from './driver-process.ts';
import { ClientError } from './protocol.ts';
import { processEnded } from '../../test/support/clients.ts';

const driver = (name: string) => `node ${join(PACKAGE_ROOT, 'fixtures/bad-drivers', `${name}.mjs`)}`;
const started: DriverProcess[] = [];
const dirs: string[] = [];

function start(name: string, options: { opTimeoutMs?: number; pidFile?: string; redact?: (text: string) => string } = {}): DriverProcess {
  const env = { ...process.env, ...(options.pidFile && { BAD_DRIVER_PIDFILE: options.pidFile }) };
  const d = new DriverProcess(driver(name), { opTimeoutMs: options.opTimeoutMs ?? 10_000, shutdownTimeoutMs: 2_000, env, ...(options.redact && { redact: options.redact }) });
  started.push(d);
  return d;
}

function pidFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tds-driver-'));
  dirs.push(dir);
  return join(dir, 'pid');
}

const configure = { environments: {}, sessionPoolSize: 2 };

afterEach(() => {
  for (const d of started.splice(0)) d.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('driver process', () => {
  it('speaks the protocol with a well-behaved driver and ends it at shutdown', async () => {
    const file = pidFile();
    const d = start('echo', { pidFile: file });
    await d.configure(configure);
    expect(await d.openSession({ environment: 'cert' })).toEqual({ session: 's1' });
    await d.shutdown();
    await d.exited;
    expect(await processEnded(Number(readFileSync(file, 'utf8')))).toBe(true);
  });

  it('reports a driver that crashes, naming the op, the exit code and its stderr', async () => {
    const err = await start('crash').configure(configure).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverFailure);
    expect((err as DriverFailure).code).toBe('DRIVER_EXITED');
    expect((err as Error).message).toMatch(/exited \(code 3\) during "configure"; its stderr ends: driver: cannot handle configure: segmentation fault \(simulated\)/);
  });

  it('gives up on a driver that does not answer, naming the op, and ends the process', async () => {
    const file = pidFile();
    // Time to start (and write its pid file) on a loaded machine, before the op times out.
    const d = start('hang', { opTimeoutMs: 3_000, pidFile: file });
    const err = await d.restCall({ environment: 'cert', method: 'GET', path: '/v1/lists/supported/shop/themes' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverFailure);
    expect((err as DriverFailure).code).toBe('DRIVER_TIMEOUT');
    expect((err as Error).message).toBe('the driver did not answer "rest.call" within 3000 ms');
    await d.exited;
    expect(await processEnded(Number(readFileSync(file, 'utf8')))).toBe(true);
  });

  it('reads a line that is not an answer as a diagnostic, and quotes it when the op then times out', async () => {
    // Time to start and print on a loaded machine, before the op times out.
    const d = start('garbage', { opTimeoutMs: 3_000 });
    const err = await d.configure(configure).catch((e: unknown) => e);
    expect((err as DriverFailure).code).toBe('DRIVER_TIMEOUT');
    expect((err as Error).message).toBe('the driver did not answer "configure" within 3000 ms; it printed 1 line(s) on stdout that are not answers, the last: "handling configure... done" (answers are JSON objects with "id" and "ok"; logs belong on stderr)');
    expect(d.diagnostics()).toEqual({ lines: ['handling configure... done'], total: 1 });
  });

  it('keeps a library\'s JSON log lines on stdout as diagnostics and still reads the answers; takes "unsupported" without a message', async () => {
    const script = [
      "const rl = require('node:readline').createInterface({ input: process.stdin });",
      "rl.on('line', (line) => { const r = JSON.parse(line);",
      "  console.log(JSON.stringify({ name: 'SomeLib', level: 50, msg: 'token request failed', id: 'not-a-number' }));",
      "  console.log(JSON.stringify({ id: r.id, level: 30 }));",
      "  if (r.op === 'soap.call') console.log(JSON.stringify({ id: r.id, ok: false, error: { kind: 'unsupported' } }));",
      "  else console.log(JSON.stringify({ id: r.id, ok: true, result: {} })); });",
    ].join(' ');
    const d = new DriverProcess(`node -e ${JSON.stringify(script)}`, { opTimeoutMs: 5_000, shutdownTimeoutMs: 2_000 });
    started.push(d);
    await d.configure(configure);
    const err = await d.soapCall({ environment: 'cert', action: 'BargainFinderMaxRQ' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ClientError).toJSON()).toEqual({ kind: 'unsupported', message: '' });
    expect(d.diagnostics().total).toBe(4);
    expect(d.diagnostics().lines[0]).toBe('{"name":"SomeLib","level":50,"msg":"token request failed","id":"not-a-number"}');
    expect(d.diagnostics().lines[1]).toBe('{"id":1,"level":30}');
  });

  it('reports an answer to a request that was never sent', async () => {
    const err = await start('wrong-id').configure(configure).catch((e: unknown) => e);
    expect((err as DriverFailure).code).toBe('DRIVER_PROTOCOL');
    expect((err as Error).message).toMatch(/^the driver answered request id 1001, which was never sent or was answered already \(pending: configure\)/);
  });

  it('reports a driver that could not read a request line (its answer with id -1) with the driver\'s own message', async () => {
    const script = [
      "require('readline').createInterface({ input: process.stdin }).on('line', () =>",
      "  console.log(JSON.stringify({ id: -1, ok: false, error: { kind: 'protocol', message: 'cannot parse line' } })));",
    ].join(' ');
    const d = new DriverProcess(`node -e ${JSON.stringify(script)}`, { opTimeoutMs: 5_000, shutdownTimeoutMs: 2_000 });
    started.push(d);
    const err = await d.configure(configure).catch((e: unknown) => e);
    expect((err as DriverFailure).code).toBe('DRIVER_PROTOCOL');
    expect((err as Error).message).toBe('the driver could not read a request line (its answer with id -1: "cannot parse line"; pending: configure)');
  });

  it('passes on a driver\'s own error answers as ClientError with kind, code and description', async () => {
    const err = await start('unknown-op').configure(configure).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ClientError).kind).toBe('unsupported');
    expect((err as Error).message).toBe('unknown operation configure');
  });

  it('reports a command that cannot be run', async () => {
    const d = new DriverProcess('/nonexistent/driver --flag', { opTimeoutMs: 5_000 });
    started.push(d);
    const err = await d.configure(configure).catch((e: unknown) => e);
    expect((err as DriverFailure).code).toBe('DRIVER_EXITED');
    expect((err as Error).message).toMatch(/exited \(code 127\)/);
  });

  it('keeps the first way the driver broke, so that a check that caught the op\'s error is still an error of the driver', async () => {
    const d = start('exit-after-configure');
    await d.configure(configure);
    await d.exited;
    expect(d.failure).toBeInstanceOf(DriverFailure);
    expect(d.failure?.message).toMatch(/exited \(code 0\) before it was asked to shut down/);
    // Shut down as asked, a driver leaves no failure.
    const ok = start('echo');
    await ok.configure(configure);
    await ok.shutdown();
    expect(ok.failure).toBeUndefined();
  });

  it('refuses an answer without what its op must hold (a rest.call result with no status) as a protocol failure', async () => {
    const d = start('echo');
    const err = await d.restCall({ environment: 'cert', method: 'GET', path: '/v1/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverFailure);
    expect((err as Error).message).toMatch(/the driver's answer to "rest.call" has no integer "status"/);
    expect(d.failure).toBe(err);
  });

  it('reports "unsupported" on shutdown as a broken driver (every driver must take it)', async () => {
    const d = start('refuse-shutdown');
    await d.configure(configure);
    const err = await d.shutdown().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverFailure);
    expect((err as Error).message).toMatch(/the client refused "shutdown" \(error kind "unsupported"\)/);
  });

  it('redacts what the driver printed before clipping it, so that no part of a secret survives the cut', async () => {
    const secret = 'WsAEfv3mVKen!';
    const d = start('leaky', { redact: (text) => text.replaceAll(secret, '«redacted»') });
    const err = await d.configure({ environments: { cert: { restBaseUrl: 'http://x', soapUrl: 'http://x', credentials: { epr: 'e', pcc: 'p', password: secret } } }, sessionPoolSize: 2 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/password=«re/);
    expect((err as Error).message).not.toMatch(/password=Ws/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('a process ended by %s ends its drivers, even one that ignores the signal and its stdin', async (signal) => {
    const file = pidFile();
    const holder = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'test/support/driver-holder.ts'), join(PACKAGE_ROOT, 'fixtures/bad-drivers/stubborn.mjs')], {
      cwd: PACKAGE_ROOT, env: { ...process.env, BAD_DRIVER_PIDFILE: file }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => holder.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    const driverPid = Number(readFileSync(file, 'utf8'));
    const ended = new Promise((resolve) => holder.once('exit', (_code, s) => resolve(s)));
    holder.kill(signal);
    expect(await ended).toBe(signal);
    expect(await processEnded(driverPid)).toBe(true);
  }, 30_000);
});
