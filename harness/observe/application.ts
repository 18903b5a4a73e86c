import { spawn } from 'node:child_process';

/** How an application run by `observe -- <command>` ended. */
export type ApplicationExit =
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'failed-to-start'; readonly message: string };

/**
 * Runs the application under observation: `command` through the shell, with the environment plus `env` (the proxy's
 * URLs and, with the simulator upstream, its accounts), its output going to ours. Resolves when it has exited;
 * `signal` stops it (SIGTERM).
 */
export function runApplication(command: string, env: Readonly<Record<string, string>>, options: { cwd?: string; signal?: AbortSignal; quiet?: boolean } = {}): Promise<ApplicationExit> {
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', options.quiet ? 'pipe' : 'inherit'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString('utf8');
    });
    const stop = () => child.kill('SIGTERM');
    options.signal?.addEventListener('abort', stop, { once: true });
    child.once('error', (err) => resolve({ kind: 'failed-to-start', message: err.message }));
    child.once('exit', (code, signal) => {
      options.signal?.removeEventListener('abort', stop);
      resolve({ kind: 'exited', code, signal });
    });
  });
}
