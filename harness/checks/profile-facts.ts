/**
 * A worker's side of profile learning (harness/profile): on a live run through the CLI, every answer the target gave
 * a check is read for the facts of its style, and the facts go to the main process at the end of each test file.
 */
import { FactCollector } from '../profile/facts.ts';
import type { RunConfig } from '../run-config.ts';
import type { Target, Transport } from '../targets/index.ts';
import { runRegistry } from './registry.ts';

let collector: FactCollector | undefined;

/** `inner`, with every answer read for the facts of the target's style. */
export function factsTransport(inner: Transport, target: Pick<Target, 'environments' | 'faultCodes'>): Transport {
  const soapUrls = Object.values(target.environments).flatMap((e) => (e ? [e.soapUrl] : []));
  const mine = new FactCollector(soapUrls, target.faultCodes);
  collector = mine;
  return {
    async request(req) {
      const res = await inner.request(req);
      try {
        mine.observe(req, res);
      } catch {
        // A fact that cannot be read is a fact less, never a failed request.
      }
      return res;
    },
    close: () => inner.close(),
  };
}

/** Hands the facts of this file's requests to the main process (the end of each test file). Never throws. */
export async function flushFacts(run: RunConfig): Promise<void> {
  const mine = collector;
  collector = undefined;
  const registry = runRegistry(run);
  if (!mine || !registry) return;
  await registry.facts(mine.facts).catch(() => undefined);
}
