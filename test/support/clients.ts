import { readFileSync } from 'node:fs';

/** Whether a process still runs (a zombie waiting to be reaped counts as ended). Linux only: reads /proc. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** For tests: whether a process has ended, waiting (bounded) for a kill signal to be delivered. */
export async function processEnded(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && running(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !running(pid);
}
