import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../report/index.ts';
import { ConformanceSession, type RunOptions } from '../runner.ts';
import { PACKAGE_ROOT } from '../package-info.ts';
import type { RuleId } from '../catalog/index.ts';
import { driverWorkers } from './session.ts';
import { endWorkerEarly, startWorkerEarly } from './worker-pool.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * A SOAP rule's run with its traffic (--report-har): the numbers its requests' ConversationIds
 * (`tds-conformance-<pid>-<n>`) and MessageIds (`<pid>-<n>@tds-conformance`) carry, which the worker counts.
 */
async function run(session: ConformanceSession, extra: Partial<RunOptions> = {}): Promise<{ report: Report; ids: { pid: number; n: number }[] }> {
  const outDir = mkdtempSync(join(tmpdir(), 'tds-worker-pool-'));
  dirs.push(outDir);
  const { report } = await session.run({ target: 'sim', only: ['STOK-01'], runs: 1, outDir, reportHar: true, quiet: true, log: () => {}, ...extra });
  const har = JSON.parse(readFileSync(join(outDir, 'traffic.har'), 'utf8')) as { log: { entries: { request: { postData?: { text?: string } } }[] } };
  const ids = har.log.entries.flatMap((e) => [...(e.request.postData?.text ?? '').matchAll(/tds-conformance-(\d+)-(\d+)<|>(\d+)-(\d+)@tds-conformance</g)].map((m) => ({ pid: Number(m[1] ?? m[3]), n: Number(m[2] ?? m[4]) })));
  return { report, ids };
}

const statuses = (r: Report) => Object.fromEntries(r.rules.map((x) => [x.id, x.status]));

describe('the test workers of a session', () => {
  it('the first run takes the worker started before Vitest was loaded; the next runs get the same worker, with none of the last run\'s state', async () => {
    const session = await ConformanceSession.open('sim');
    try {
      const first = await run(session);
      const second = await run(session);
      const third = await run(session, { defects: ['stok01-no-token'] });
      expect(session.workerStats).toEqual({ forked: 1, spares: 1, reused: 2 });
      expect(first.ids.length).toBeGreaterThan(0);
      // One worker process made every run's requests…
      expect(new Set([...first.ids, ...second.ids, ...third.ids].map((i) => i.pid)).size).toBe(1);
      // …and each run numbered its messages from 1 again: what the harness's modules kept for a run (here the
      // message counter; also the budget, the sessions' ledgers, the transport's pace) was reset when the next began.
      for (const r of [first, second, third]) expect(Math.min(...r.ids.map((i) => i.n))).toBe(1);
      expect(statuses(first.report)['STOK-01']).toBe('pass');
      expect(statuses(second.report)).toEqual(statuses(first.report));
      expect(statuses(third.report)['STOK-01']).toBe('fail');
    } finally {
      await session.close();
    }
  }, 120_000);

  it('a kept worker runs the checks each run selects (--only), not those of the run it was started for', async () => {
    const session = await ConformanceSession.open('sim');
    try {
      const stok = await run(session);
      const rest = await run(session, { only: ['REST-03'] });
      expect(session.workerStats).toEqual({ forked: 1, spares: 1, reused: 1 });
      expect(statuses(stok.report)).toMatchObject({ 'STOK-01': 'pass', 'REST-03': 'skipped' });
      expect(rest.report.rules.find((r) => r.id === 'REST-03')).toMatchObject({ status: 'pass' });
      expect(rest.report.rules.find((r) => r.id === 'STOK-01')).toMatchObject({ notSelected: true });
    } finally {
      await session.close();
    }
  }, 120_000);

  it('a session of several workers keeps them all: the next run takes every one, none is forked again', async () => {
    for (const workers of [0, 1.5]) await expect(ConformanceSession.open('sim', { workers })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    const session = await ConformanceSession.open('sim', { workers: 3 });
    try {
      // Four rules of four suite files: the run's three workers each run files.
      const only: RunOptions['only'] = ['STOK-01', 'REST-03', 'ERR-02', 'SESS-01'];
      const first = await session.run({ target: 'sim', only, runs: 1, outDir: '', write: false, quiet: true, log: () => {} });
      expect(session.workerStats).toEqual({ forked: 3, spares: 1, reused: 0 });
      const second = await session.run({ target: 'sim', only, runs: 1, outDir: '', write: false, quiet: true, log: () => {} });
      // Before, the first worker to start ended the other two kept ones, and each run forked two workers anew.
      expect(session.workerStats).toEqual({ forked: 3, spares: 1, reused: 3 });
      expect(statuses(second.report)).toEqual(statuses(first.report));
      expect(only.map((id) => statuses(second.report)[id])).toEqual(['pass', 'pass', 'pass', 'pass']);
    } finally {
      await session.close();
    }
  }, 120_000);

  it('a kept worker takes the next run\'s values of variables read during a run; one read at a worker\'s start gets a fresh worker, as does every run with reuseWorkers: false', async () => {
    const session = await ConformanceSession.open('sim');
    const dir = mkdtempSync(join(tmpdir(), 'tds-worker-pool-env-'));
    dirs.push(dir);
    const pidFile = (name: string) => join(dir, name);
    // A driver the run starts writes its pid to $BAD_DRIVER_PIDFILE (fixtures/bad-drivers): the worker started it
    // with the environment it had when the run began.
    const driverRun = () => run(session, { suite: 'client', only: ['CRED-01'], client: { kind: 'command', command: `"${process.execPath}" fixtures/bad-drivers/crash.mjs`, cwd: join(import.meta.dirname, '..', '..') } });
    try {
      await run(session);
      process.env['BAD_DRIVER_PIDFILE'] = pidFile('first');
      await driverRun();
      process.env['BAD_DRIVER_PIDFILE'] = pidFile('second');
      await driverRun();
      delete process.env['BAD_DRIVER_PIDFILE'];
      const after = await run(session);
      expect(session.workerStats).toEqual({ forked: 1, spares: 1, reused: 3 });
      expect(readdirSync(dir).sort()).toEqual(['first', 'second']);
      expect(statuses(after.report)['STOK-01']).toBe('pass');

      // The variable's removal reached the worker too: a run without it starts a driver that writes no pid file.
      await driverRun();
      expect(readdirSync(dir).sort()).toEqual(['first', 'second']);

      // NODE_* variables are read by Node as a process starts: a kept worker cannot take them on.
      process.env['NODE_PENDING_DEPRECATION'] = '0';
      const other = await run(session);
      delete process.env['NODE_PENDING_DEPRECATION'];
      expect(session.workerStats).toEqual({ forked: 2, spares: 1, reused: 4 });
      expect(statuses(other.report)['STOK-01']).toBe('pass');
    } finally {
      delete process.env['BAD_DRIVER_PIDFILE'];
      delete process.env['NODE_PENDING_DEPRECATION'];
      await session.close();
    }
    const fresh = await ConformanceSession.open('sim', { reuseWorkers: false });
    try {
      const a = await run(fresh);
      const b = await run(fresh);
      expect(fresh.workerStats).toEqual({ forked: 2, spares: 1, reused: 0 });
      expect(a.ids[0]?.pid).not.toBe(b.ids[0]?.pid);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it('a run whose client is a driver process gets two workers or more (driverWorkers), with the same verdicts; a session opened with a count keeps it', async () => {
    expect(driverWorkers()).toBeGreaterThanOrEqual(2);
    // Two rules of two client suite files, and the reference Python driver: a process per check.
    const only: RuleId[] = ['CRED-01', 'REST-01'];
    const client = { kind: 'command', command: 'python3 examples/clients/python/driver.py', cwd: PACKAGE_ROOT } as const;
    const options = { target: 'sim', suite: 'client', client, only, runs: 1, outDir: '', write: false, quiet: true, log: () => {} } satisfies RunOptions;
    const [free, one] = await Promise.all([ConformanceSession.open('sim'), ConformanceSession.open('sim', { workers: 1 })]);
    try {
      const both = await free.run(options);
      const alone = await one.run(options);
      // The worker started with the session, and one more for the second file.
      expect(free.workerStats).toMatchObject({ forked: 2, spares: 1 });
      expect(one.workerStats).toMatchObject({ forked: 1, spares: 1 });
      const verdicts = (r: Report) => only.map((id) => r.rules.find((x) => x.id === id)?.status);
      expect(verdicts(both.report)).toEqual(['pass', 'pass']);
      expect(verdicts(alone.report)).toEqual(verdicts(both.report));
      // The count of workers is not part of what a worker was started with: the next run, with the session's own
      // count, takes a kept worker and forks none.
      const after = await run(free);
      expect(statuses(after.report)['STOK-01']).toBe('pass');
      expect(free.workerStats).toMatchObject({ forked: 2, spares: 1, reused: 1 });
    } finally {
      await Promise.all([free.close(), one.close()]);
    }
  }, 120_000);
});

describe('the worker the CLI starts early', () => {
  const bin = join(import.meta.dirname, '..', '..', 'bin', 'tds-conformance.js');
  function cli(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (err, _stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr });
      });
    });
  }

  /** The processes whose environment holds `mark` (Linux's /proc). */
  function marked(mark: string): number[] {
    const found: number[] = [];
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark)) found.push(Number(pid));
      } catch {
        // a process that ended meanwhile, or one we may not read
      }
    }
    return found;
  }

  it('is the worker the run gets: it was forked as Vitest forks its workers', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'tds-worker-pool-'));
    dirs.push(outDir);
    const { code, stderr } = await cli(['run', '--only', 'REST-03', '--quiet', '--out', outDir], { TDS_TIMING: '1' });
    expect(code).toBe(0);
    expect(stderr).toContain('worker-spare-taken');
    expect(stderr).not.toContain('worker-not-taken');
  }, 60_000);

  it.runIf(process.platform === 'linux')('does not hold the CLI open, and is gone once the CLI stopped on a usage error', async () => {
    const mark = `TDS_WORKER_POOL_MARK=${process.pid}-${Date.now()}`;
    const { code, stderr } = await cli(['run', '--only', 'NOPE-99'], { TDS_WORKER_POOL_MARK: mark.split('=')[1]! });
    expect(code).toBe(2);
    expect(stderr).toContain('NOPE-99');
    let left = marked(mark);
    for (let i = 0; i < 20 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = marked(mark);
    }
    expect(left).toEqual([]);
  }, 60_000);

  it.runIf(process.platform === 'linux')('is ended when the bin runs the sources instead (endWorkerEarly), and another may start', async () => {
    const mark = `TDS_WORKER_POOL_MARK=${process.pid}-${Date.now()}-ended`;
    const saved = process.env.TDS_WORKER_POOL_MARK;
    process.env.TDS_WORKER_POOL_MARK = mark.split('=')[1]!;
    try {
      /** The marked processes, once they are `n` (a forked child shows its environment once it has started), or after 2 s. */
      const settled = async (n: number) => {
        let found = marked(mark);
        for (let i = 0; i < 20 && found.length !== n; i++) {
          await new Promise((r) => setTimeout(r, 100));
          found = marked(mark);
        }
        return found;
      };
      startWorkerEarly();
      startWorkerEarly(); // once only
      expect(await settled(1)).toHaveLength(1);
      endWorkerEarly();
      expect(await settled(0)).toEqual([]);
      startWorkerEarly();
      expect(await settled(1)).toHaveLength(1);
    } finally {
      endWorkerEarly();
      if (saved === undefined) delete process.env.TDS_WORKER_POOL_MARK;
      else process.env.TDS_WORKER_POOL_MARK = saved;
    }
  }, 30_000);
});
