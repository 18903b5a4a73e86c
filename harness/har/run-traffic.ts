/**
 * The traffic of a conformance run as one HAR 1.2 file (`run --har <file>`, `--report-har`): the workers write each
 * exchange as a tagged HAR entry, one JSON line, redacted with the secrets they know (harness/checks/trace.ts); this
 * module joins their files in the order the requests started and redacts the whole once more with the main
 * process's secrets. Browser devtools ("Import HAR"), Charles and `tds-conformance judge` open the result.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { redactedJson, type Redactor } from '../report/redact.ts';
import type { TaggedHarEntry } from './har.ts';

/** A HAR document of a run: the entries, and the run's ID in the log's comment. */
export interface RunHar {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly comment: string;
    readonly entries: readonly TaggedHarEntry[];
  };
}

export type RunTrafficErrorCode = 'HAR_WRITE_FAILED';

/** The HAR file could not be written (a directory that cannot be created, a full disk). */
export class RunTrafficError extends Error {
  readonly code: RunTrafficErrorCode = 'HAR_WRITE_FAILED';
  constructor(readonly file: string, cause: unknown) {
    super(`could not write the HAR file "${file}": ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'RunTrafficError';
  }
}

/** A fresh directory for the workers' traffic files. */
export function trafficDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'tds-traffic-'));
}

/** Reads the workers' traffic files of `dir` into one HAR document, entries in the order the requests started. */
export async function collectRunHar(dir: string, meta: { readonly runId: string; readonly creator: { name: string; version: string } }): Promise<RunHar> {
  const entries: TaggedHarEntry[] = [];
  for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort()) {
    const text = await readFile(join(dir, name), 'utf8');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        entries.push(JSON.parse(line) as TaggedHarEntry);
      } catch {
        // a line cut short by a worker that was killed: the rest of the traffic is still worth having
      }
    }
  }
  entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime) || a._correlationId.localeCompare(b._correlationId, 'en', { numeric: true }));
  return {
    log: {
      version: '1.2',
      creator: meta.creator,
      comment: `tds-conformance run ${meta.runId}: every request carries its correlation ID (_correlationId); _rules and _check name the check that sent it. Secrets are redacted.`,
      entries,
    },
  };
}

/** Writes the run's HAR (redacted with `redactor`) to each file, to a temporary name first. */
export async function writeRunHar(har: RunHar, files: readonly string[], redactor: Redactor): Promise<void> {
  const text = `${redactedJson(har, (t) => redactor.redact(t), 1)}\n`;
  for (const file of files) {
    try {
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, file);
    } catch (err) {
      throw new RunTrafficError(file, err);
    }
  }
}

/** Removes the workers' traffic files. */
export async function removeTrafficDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
