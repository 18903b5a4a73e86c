/** A whole or partial live run for the token-slot tests, on the test worker's live session, and what they read in its report. */
import { join } from 'node:path';
import type { RuleId } from '../../harness/catalog/index.ts';
import type { Report } from '../../harness/report/model.ts';
import type { ConformanceSession } from '../../harness/run/session.ts';
import { sharedSession } from '../support/shared-session.ts';
import { tempDir } from './support.ts';

export async function run(config: string, options: { fileOrderSeed?: number; only?: RuleId[] } = {}): Promise<Report> {
  const session: ConformanceSession = await sharedSession('live');
  const { report } = await session.run({
    target: config, budget: { requestsPerSecond: 1000 }, outDir: join(tempDir('token-slot-out'), 'r'), write: false, quiet: true, log: () => {}, ...options,
  });
  return report;
}

export const status = (r: Report, id: string) => r.rules.find((x) => x.id === id)?.status;
export const clause = (r: Report, id: string) => r.rules.find((x) => x.id === id.split('.')[0])?.clauses?.find((c) => c.id === id)?.status;
export const failed = (r: Report) => r.rules.filter((x) => x.side === 'service' && x.status === 'fail').map((x) => x.id);
export const messages = (r: Report, id: string) => (r.rules.find((x) => x.id === id)?.checks ?? []).map((c) => ('message' in c ? String(c.message) : ''));

