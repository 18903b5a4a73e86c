import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import type { Report } from '../report/index.ts';
import { packagePrefix, serverStatus } from './run-server-client.ts';

/**
 * The run server (harness/cli/run-server.ts) as a user meets it: the CLI, in a terminal (here TDS_RUN_SERVER=1),
 * starts it after a run, hands it the next runs on the simulator, and gets the same console, reports and exit codes.
 * The compiled CLI (dist/, which `npm test` builds first) is the one a server runs.
 */
const dir = mkdtempSync(join(tmpdir(), 'tds-run-server-'));
const env: NodeJS.ProcessEnv = { ...process.env, TDS_RUN_SERVER: '1', TDS_RUN_SERVER_DIR: join(dir, 'sockets'), TDS_RUN_SERVER_IDLE_SECONDS: '60' };
delete env['TDS_TIMING'];

interface Cli { readonly code: number | null; readonly stdout: string; readonly stderr: string }

/** Runs the CLI; `interruptWhenRunning`: Ctrl-C (SIGINT) once the server's run is under way. */
function cli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; interruptWhenRunning?: boolean } = {}): Promise<Cli> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), ...args], { cwd: dir, env: options.env ?? env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  if (options.interruptWhenRunning) void until(async () => ((await serverStatus(env))?.running ? true : undefined), 30_000).then(() => child.kill('SIGINT'));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const verdicts = (out: string) => {
  const report = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as Report;
  return report.rules.map((r) => [r.id, r.status, r.checks.map((c) => [c.name, c.status])]);
};

async function until<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  const status = await serverStatus(env);
  if (status) {
    await serverStatus(env, 'stop');
    try {
      process.kill(status.pid, 'SIGKILL');
    } catch {
      // ended
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the run server', () => {
  it('takes the runs after the first, with the same console lines, reports and exit codes', async () => {
    const { distIsFresh } = (await import(pathToFileURL(join(PACKAGE_ROOT, 'scripts', 'dist-fresh.mjs')).href)) as { distIsFresh: (root: string) => boolean };
    expect(distIsFresh(PACKAGE_ROOT), 'dist/ is older than the sources: run "npm run build"').toBe(true);

    // A server of an earlier build of this package (it was rebuilt): the new one ends it.
    const sockets = join(dir, 'sockets');
    mkdirSync(sockets, { mode: 0o700 });
    let heard = '';
    const old = createServer((socket) => socket.on('data', (d) => (heard += d.toString())));
    await new Promise<void>((resolve) => old.listen(join(sockets, `${packagePrefix(PACKAGE_ROOT)}earlierbuild.sock`), resolve));

    const first = await cli(['run', '--only', 'REST,SESS-02', '--runs', '3', '--out', 'first']);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/started a run server for the next runs on the simulator \(pid \d+; it ends after 60 s without a run; TDS_RUN_SERVER=0 turns it off\)/);
    const up = await until(() => serverStatus(env), 20_000);
    expect(up?.runs).toBe(0);
    expect(await until(async () => (heard ? heard : undefined), 10_000)).toBe('{"op":"stop"}\n');
    old.close();

    const served = await cli(['run', '--only', 'REST,SESS-02', '--runs', '3', '--out', 'served']);
    expect((await serverStatus(env))?.runs).toBe(1);
    expect(served.code).toBe(0);
    expect(served.stdout).toBe(first.stdout.replace('/first', '/served'));
    expect(served.stderr).not.toMatch(/started a run server/);
    expect(verdicts('served')).toEqual(verdicts('first'));
    // The summary line, as the CLI's (the progress lines come in the order the files end).
    const summary = (s: string) => s.split('\n').find((l) => l.includes(' pass, '));
    expect(summary(served.stderr)).toBe(summary(first.stderr));

    // A failing run: its exit code, through the server.
    const failing = await cli(['run', '--only', 'REST-03', '--runs', '2', '--defect', 'rest03-token-type-capitalized', '--out', 'failing']);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/REST-03/);

    // A usage error: the CLI's one line and exit code 2, and no report.
    const bad = await cli(['run', '--runs', '-1', '--out', 'bad']);
    const own = await cli(['run', '--runs', '-1', '--out', 'bad'], { env: { ...env, TDS_RUN_SERVER: '0' } });
    expect({ code: bad.code, stderr: bad.stderr, stdout: bad.stdout }).toEqual({ code: 2, stderr: own.stderr, stdout: own.stdout });
    expect(existsSync(join(dir, 'bad'))).toBe(false);
    expect((await serverStatus(env))?.runs).toBe(3);

    // Not handed over: TDS_RUN_SERVER=0 (above), another target.
    const cert = await cli(['run', '--target', 'cert', '--only', 'REST-03', '--out', 'cert'], { env: { ...env, TDS_CERT_CLIENT_ID: '', TDS_CERT_PASSWORD: '' } });
    expect(cert.code).toBe(2);
    expect((await serverStatus(env))?.runs).toBe(3);
  }, 120_000);

  it('stops a run on Ctrl-C as the CLI does (its report marked interrupted, exit 130), and then ends', async () => {
    const status = await until(() => serverStatus(env), 20_000);
    expect(status).toBeDefined();
    const stopped = await cli(['run', '--only', 'CRED,REST,ERR', '--runs', '3000', '--out', 'stopped'], { interruptWhenRunning: true });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/SIGINT: stopping the run/);
    const report = JSON.parse(readFileSync(join(dir, 'stopped', 'report.json'), 'utf8')) as Report;
    expect(report.completion).toBe('interrupted');
    expect(await until(async () => ((await serverStatus(env)) ? undefined : true), 10_000)).toBe(true);
    expect(readdirSync(join(dir, 'sockets'))).toEqual([]);
  }, 60_000);

  it('stops a run whose caller went away (its report marked interrupted), and then ends', async () => {
    const server = spawn(process.execPath, [join(PACKAGE_ROOT, 'dist', 'harness', 'cli', 'run-server-main.js')], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    expect((await until(() => serverStatus(env), 20_000))?.pid).toBe(server.pid);
    const caller = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), 'run', '--only', 'CRED,REST,ERR', '--runs', '3000', '--out', 'abandoned'], { cwd: dir, env, stdio: 'ignore' });
    // Once the run is under way (on a busy machine the caller's start, or the server's warming run, takes seconds).
    expect(await until(async () => ((await serverStatus(env))?.running ? true : undefined), 30_000)).toBe(true);
    caller.kill('SIGKILL');
    expect(await exited).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'abandoned', 'report.json'), 'utf8')) as Report;
    expect(report.completion).toBe('interrupted');
    expect(readdirSync(join(dir, 'sockets'))).toEqual([]);
  }, 60_000);

  it('ended by a signal, takes its socket with it', async () => {
    const server = spawn(process.execPath, [join(PACKAGE_ROOT, 'dist', 'harness', 'cli', 'run-server-main.js')], { env, stdio: 'ignore' });
    const up = await until(() => serverStatus(env), 20_000);
    expect(up?.pid).toBe(server.pid);
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(readdirSync(join(dir, 'sockets'))).toEqual([]);
  }, 30_000);
});
