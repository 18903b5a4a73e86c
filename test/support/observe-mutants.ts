/**
 * For the tests: the mutant clients of the client suite (fixtures/mutants/), observed through the proxy with no driver: each is the
 * reference client used as a library with one fault switched on, running the same workload. Wherever its rule is
 * observable, observing it must give the verdict the driver-based client suite gives: its rule fails (a MUST rule) or
 * warns (a SHOULD rule), and no other client rule does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleId } from '../../harness/catalog/index.ts';
import type { ClientFault } from '../../examples/clients/typescript/faults.ts';
import { mutants } from '../../fixtures/mutants/index.ts';
import type { EnvelopeValidator } from '../../harness/soap/index.ts';
import { tryValidator } from '../../harness/observe/judge.ts';
import { observeReferenceClient } from './observe.ts';

/** Mutants whose fault traffic cannot show, with the clause that says why (their rule is judged by the driver suite). */
const UNOBSERVABLE: Readonly<Record<string, string>> = {
  'err06-generic-error': 'ERR-06.keeps-error: what the client reports to its caller is not in its traffic',
  'err06-prod-generic-error': 'ERR-06.keeps-error: what the client reports to its caller is not in its traffic',
  // In the traffic (the workload's TokenCreateRQ tokens expire, and the mutant sends the refused one 4 times more), but
  // the workload's first calls overlap, and traffic then needs a longer chain of resends than observe finds here (the
  // clause stays unchecked, not failed). The driver suite judges it.
  'life03-keeps-refused-soap-token': 'LIFE-03.after-expiry: the resends are short of the chain traffic needs from a client whose calls overlap',
  'err06-retry-loop': 'ERR-06.no-retry-loop: traffic cannot tell a retry from the application asking again',
  'soap05-conversation-per-call': 'SOAP-05.conversation-id: traffic does not show where a workflow starts and ends, and a session may serve several',
};

/**
 * Rules of a mutant's `mayFollow` that traffic leaves unjudged: a SessionCloseRQ without eb:ConversationId makes its
 * session carry two (an ID and none), which a driven check counts against SOAP-05 and traffic cannot (a session may
 * serve several workflows: latitude conversation-per-workflow). SOAP-01 and SESS-05 judge the missing element.
 */
const NOT_FOLLOWED_IN_TRAFFIC: Readonly<Record<string, readonly RuleId[]>> = {
  'sess05-close-no-conversation-id': ['SOAP-05'],
};

/**
 * Rules a mutant's traffic breaks besides its own, each by a sentence of the document the traffic really breaks (the
 * driver suite's checks of these rules see the same requests).
 */

/** The tests of the mutants that break rules of `areas` (split in two files to keep each file fast). */
export function describeMutants(areas: readonly string[]): void {
  let validator: EnvelopeValidator | undefined;
  beforeAll(async () => {
    validator = await tryValidator();
  });
  afterAll(async () => {
    await validator?.close();
  });
  const mine = mutants.filter((m) => m.breaks.some((id: RuleId) => areas.includes(id.split('-')[0] as string)));
  describe(`mutant clients observed with no driver (${areas.join(', ')})`, () => {
  for (const mutant of mine) {
    // The rules the mutant also breaks by another sentence of the document (its `mayFollow`, fixtures/mutants): the
    // whole traffic is judged, so they fail too, and no other.
    const also = (mutant.mayFollow ?? []).filter((id) => !NOT_FOLLOWED_IN_TRAFFIC[mutant.id]?.includes(id));
    it(`${mutant.breaks.join(', ')}: the mutant ${mutant.id} observed through the proxy ${UNOBSERVABLE[mutant.id] ? 'is not caught (its fault is not in its traffic)' : also.length ? `fails its rule and only ${also.join(', ')} besides` : 'fails its rule and no other client rule'}`, async () => {
      const { report } = await observeReferenceClient([mutant.id as ClientFault], validator);
      const broken = report.rules.filter((r) => r.side === 'client' && (r.status === 'fail' || r.status === 'warn')).map((r) => r.id);
      if (UNOBSERVABLE[mutant.id]) {
        expect(broken).toEqual([]);
        return;
      }
      const expected = report.rules.filter((r) => mutant.breaks.includes(r.id) || also.includes(r.id)).map((r) => `${r.id} ${r.level === 'MUST' ? 'fail' : 'warn'}`);
      expect(report.rules.filter((r) => broken.includes(r.id)).map((r) => `${r.id} ${r.status}`)).toEqual(expected);
    }, 30_000);
  }
  });
}
