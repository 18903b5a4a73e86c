import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_CODES } from '../classify/index.ts';
import { readHar } from '../har/har.ts';
import type { EnvelopeValidator } from '../soap/index.ts';
import { loadTargetConfig } from '../targets/index.ts';
import type { JudgeContext, ObservedExchange } from './exchange.ts';
import { judgeTraffic, tryValidator } from './judge.ts';
import { RunningJudge } from './running-judge.ts';
import { knownFromConfig } from './session.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'har');
const config = loadTargetConfig(join(fixtures, 'accounts.json'));
const context = (wholeRun: boolean): JudgeContext => ({
  accounts: { cert: knownFromConfig(config, 'cert'), prod: knownFromConfig(config, 'prod') },
  sessionPoolSize: config.sessionPoolSize,
  faultCodes: DEFAULT_FAULT_CODES,
  wholeRun,
  expired: new Map(),
  source: 'har',
});

/** The exchanges in the order the running judge reads them (the proxy hands them over so: start-order.ts). */
const inOrder = (xs: readonly ObservedExchange[]) => [...xs].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);

let validator: EnvelopeValidator | undefined;
beforeAll(async () => {
  validator = await tryValidator();
});
afterAll(async () => {
  await validator?.close();
});

describe('the running judge', () => {
  const files = readdirSync(fixtures).filter((f) => f.endsWith('.har')).sort();
  it.each(files.flatMap((f) => [[f, true], [f, false]] as const))('gives the batch judge\'s verdicts on %s (whole run: %s)', async (file, wholeRun) => {
    const exchanges = readHar(readFileSync(join(fixtures, file), 'utf8'), { environments: config.environments });
    const batch = await judgeTraffic(exchanges, context(wholeRun), { validator });
    const running = new RunningJudge(context(wholeRun));
    running.attachValidator(validator);
    for (const x of inOrder(exchanges)) running.add(x);
    const streamed = await running.finish();
    expect(streamed.verdicts).toEqual(batch.verdicts);
    expect(streamed.selection).toEqual(batch.selection);
  });

  it('gives the batch judge\'s verdicts with a validator given at the end, or none, and a selection', async () => {
    const exchanges = readHar(readFileSync(join(fixtures, 'conforming.har'), 'utf8'), { environments: config.environments });
    for (const v of [validator, undefined]) {
      const running = new RunningJudge(context(true));
      for (const x of inOrder(exchanges)) running.add(x);
      const only = ['SOAP-01', 'SOAP-02', 'API-04'] as const;
      expect(await running.finish({ validator: v, only })).toEqual(await judgeTraffic(exchanges, context(true), { validator: v, only }));
    }
  });
});

describe('a session\'s closing refused for its own token (ERR-04)', () => {
  const exchanges = readHar(readFileSync(join(fixtures, 'conforming.har'), 'utf8'), { environments: config.environments });
  const refusedClose = (x: ObservedExchange) => x.request.body.includes('SessionCloseRQ') && (x.response?.body.includes('InvalidSecurityToken') ?? false);
  // The same traffic, with every refused SessionCloseRQ answered within the millisecond it was sent.
  const instant = exchanges.map((x) => (refusedClose(x) ? { ...x, endedAt: x.startedAt } : x));
  const err04 = (verdicts: readonly { clause: string }[]) => verdicts.filter((v) => v.clause.startsWith('ERR-04.'));

  it('is not a request "of a closed session", however fast it was answered, for either judge', async () => {
    expect(exchanges.filter(refusedClose).length).toBeGreaterThan(0);
    const slow = err04((await judgeTraffic(exchanges, context(true), { validator })).verdicts);
    const fast = err04((await judgeTraffic(instant, context(true), { validator })).verdicts);
    // Before: the batch judge counted such a close as closed before itself when answered within its millisecond.
    expect(fast).toEqual(slow);
    const running = new RunningJudge(context(true));
    running.attachValidator(validator);
    for (const x of inOrder(instant)) running.add(x);
    expect(err04((await running.finish()).verdicts)).toEqual(fast);
  });
});

describe('a throttled call inside a session (SESS-06.after-failure)', () => {
  const exchanges = readHar(readFileSync(join(fixtures, 'sess-06.har'), 'utf8'), { environments: config.environments });
  // Each call inside a session answered first with a throttle or a gateway's page, then as recorded (the client sent it
  // again): a call the client waited out and sent again has not failed.
  const throttledFirst = (status: number) => exchanges.flatMap((x) => {
    if (x.protocol !== 'soap' || !x.request.body.includes('BinarySecurityToken') || /SessionCloseRQ|SessionCreateRQ|TokenCreateRQ/.test(x.request.body)) return [x];
    const page = { status, headers: { 'content-type': 'text/html' }, body: `<html><body><h1>${status}</h1></body></html>` };
    return [{ ...x, seq: x.seq - 0.5, endedAt: x.startedAt, response: page }, x];
  });
  const afterFailure = (verdicts: readonly { clause: string }[]) => verdicts.find((v) => v.clause === 'SESS-06.after-failure');

  it.each([429, 503, 502, 504])('%s: the same verdict as the recorded traffic, for either judge', async (status) => {
    const before = afterFailure((await judgeTraffic(exchanges, context(true), { validator })).verdicts);
    const traffic = throttledFirst(status);
    expect(traffic.length).toBeGreaterThan(exchanges.length);
    expect(afterFailure((await judgeTraffic(traffic, context(true), { validator })).verdicts)).toEqual(before);
    const running = new RunningJudge(context(true));
    running.attachValidator(validator);
    for (const x of inOrder(traffic)) running.add(x);
    expect(afterFailure((await running.finish()).verdicts)).toEqual(before);
  });
});
