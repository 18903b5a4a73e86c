import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sharedSession } from '../support/shared-session.ts';
import { simulatorTarget } from './every-opt-in.ts';
import { cleanUp, tempDir } from './support.ts';
afterEach(cleanUp);
it('measure', async () => {
  const config = await simulatorTarget([], true);
  const session = await sharedSession('live');
  for (const fileOrderSeed of [undefined, 7, 20261126]) {
    const { report } = await session.run({ target: config, budget: { requestsPerSecond: 1000, sessions: 1000, tokens: 1000 }, outDir: join(tempDir('m'), 'r'), write: false, quiet: true, log: () => {}, ...(fileOrderSeed !== undefined && { fileOrderSeed }) });
    console.log(fileOrderSeed, JSON.stringify(report.resources), report.rules.filter((x) => x.side === 'service' && !['pass'].includes(x.status)).map((x) => `${x.id}:${x.status}`).join(' '));
  }
  expect(1).toBe(1);
}, 300_000);
