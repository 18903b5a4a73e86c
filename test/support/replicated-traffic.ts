/**
 * For the tests: conforming traffic of any length, as `copies` copies of the reference client's recorded workload
 * (fixtures/har/conforming.har) one after the other, each copy with tokens of its own, later in time (the tokens of a
 * copy expired when the next starts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FAULT_CODES } from '../../harness/classify/index.ts';
import { readHar } from '../../harness/har/har.ts';
import type { JudgeContext, ObservedExchange } from '../../harness/observe/exchange.ts';
import { knownFromConfig } from '../../harness/observe/session.ts';
import { Traffic } from '../../harness/observe/traffic.ts';
import { loadTargetConfig } from '../../harness/targets/index.ts';

const har = join(import.meta.dirname, '../../fixtures/har');
const config = loadTargetConfig(join(har, 'accounts.json'));
/** The recorded workload copied. */
export const base = readHar(readFileSync(join(har, 'conforming.har'), 'utf8'), { environments: config.environments });

/** What the judge needs besides the traffic: the fixture's accounts, and the tokens made to expire. */
export function conformingContext(expired: ReadonlyMap<string, number>): JudgeContext {
  return {
    accounts: { cert: knownFromConfig(config, 'cert'), prod: knownFromConfig(config, 'prod') },
    sessionPoolSize: config.sessionPoolSize, faultCodes: DEFAULT_FAULT_CODES, wholeRun: true, expired, source: 'har',
  };
}

/** The tokens of the base traffic, longest first (so that none is replaced inside a longer one). */
const baseTraffic = new Traffic(base, conformingContext(new Map()));
const tokens = [...new Set([...baseTraffic.issued.keys(), ...baseTraffic.uses.map((u) => u.token)])].sort((a, b) => b.length - a.length);

/** `copies` copies of the base traffic one after the other, each with its own tokens (expired when the next starts). */
export function replicated(copies: number): { exchanges: ObservedExchange[]; expired: Map<string, number> } {
  const start = Math.min(...base.map((x) => x.startedAt));
  const span = Math.max(...base.map((x) => x.endedAt)) - start + 60_000;
  const exchanges: ObservedExchange[] = [];
  const expired = new Map<string, number>();
  for (let i = 0; i < copies; i++) {
    const rename = (text: string) => tokens.reduce((s, tok) => s.replaceAll(tok, `${tok}c${i}`), text);
    const headers = (h: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, rename(v)]));
    const shift = i * span;
    for (const x of base) {
      exchanges.push({
        ...x, seq: x.seq + i * base.length, startedAt: x.startedAt + shift, endedAt: x.endedAt + shift,
        ...(x.earliestSend !== undefined && { earliestSend: x.earliestSend + shift }),
        request: { ...x.request, headers: headers(x.request.headers), body: rename(x.request.body) },
        response: x.response && { ...x.response, headers: headers(x.response.headers), body: rename(x.response.body) },
      });
    }
    for (const tok of tokens) expired.set(`${tok}c${i}`, start + shift + span - 30_000);
  }
  return { exchanges, expired };
}
