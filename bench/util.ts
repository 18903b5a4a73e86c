import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (bench/..). */
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Whether the module at `url` is the script node was started with (a bench file run on its own). */
export function isMain(url: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(resolve(script)).href === url;
}

/** `node --import tsx <script> ...args`: how a bench file runs another TypeScript file as a child process. */
export function tsxArgs(script: string, ...args: string[]): string[] {
  return ['--import', 'tsx', resolve(ROOT, script), ...args];
}

export interface ChildResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /** Largest RSS of the sampled process tree (the child and all its descendants, summed), in KiB; 0 without /proc. */
  readonly treePeakKiB: number;
  /**
   * Largest PSS of the sampled process tree, summed, in KiB (0 without /proc/<pid>/smaps_rollup): each page shared by
   * several processes (the `node` executable's, mapped by the CLI and its workers alike) counted once in all, where
   * summed RSS counts it in every process that maps it.
   */
  readonly treePssPeakKiB: number;
}

/** Runs a command, sampling the summed RSS of its process tree every `sampleMs` (Linux `/proc`). */
export function runChild(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; sampleMs?: number } = {}): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    let treePeakKiB = 0;
    let treePssPeakKiB = 0;
    const sample = (): void => {
      if (child.pid === undefined) return;
      const tree = treeMemoryKiB(child.pid);
      treePeakKiB = Math.max(treePeakKiB, tree.rss);
      treePssPeakKiB = Math.max(treePssPeakKiB, tree.pss);
    };
    const timer = existsSync('/proc/self/status') ? setInterval(sample, options.sampleMs ?? 100) : undefined;
    child.on('error', (err) => {
      if (timer) clearInterval(timer);
      reject(err);
    });
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      resolvePromise({ code, stdout, stderr, wallMs: performance.now() - started, treePeakKiB, treePssPeakKiB });
    });
  });
}

/** The processes of the tree under `pid` (itself included), read from /proc; empty without it. */
function treePids(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]);
      const list = children.get(ppid);
      if (list) list.push(Number(name));
      else children.set(ppid, [Number(name)]);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

/** Summed RSS and PSS (KiB) of `pid` and all its descendants, read from /proc (0 where a figure cannot be read). */
export function treeMemoryKiB(pid: number): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const p of treePids(pid)) {
    try {
      rss += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended while we looked, or has no smaps_rollup (Linux before 4.14)
    }
  }
  return { rss, pss };
}

/** The machine, for the header of the results: a shared or busy machine makes every figure slower. */
export function machineLine(): string {
  const cpu = cpus();
  const [one = 0, five = 0] = loadavg();
  return `${cpu.length} CPU (${cpu[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, load average ${one.toFixed(2)} (1 min) ${five.toFixed(2)} (5 min)`;
}

export const fmt = {
  int: (n: number): string => Math.round(n).toLocaleString('en-US'),
  s: (ms: number): string => `${(ms / 1000).toFixed(2)} s`,
  mib: (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`,
};

/** The median of the figures (the mean of the middle two for an even count); 0 for none. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}
