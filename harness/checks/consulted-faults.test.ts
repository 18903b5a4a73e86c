import { describe, expect, it } from 'vitest';
import type { ClientAdapter } from '../clients/protocol.ts';
import { addConsultedFaults, consultedFaults, resetConsultedFaults } from './consulted-faults.ts';

const noop = async () => undefined as never;
const adapter = (asked?: readonly string[] | 'all'): ClientAdapter => ({
  configure: noop, restCall: noop, soapCall: noop, openSession: noop, sessionCall: noop, closeSession: noop, shutdown: noop,
  ...(asked !== undefined && { deliberateFaults: () => ({ on: [], asked }) }),
});

describe('the faults a file\'s clients asked about', () => {
  it('gathers every check\'s client\'s, sorted, and forgets them at the next file', () => {
    resetConsultedFaults();
    addConsultedFaults(adapter(['sess06-never-closes']));
    addConsultedFaults(adapter(['cred01-no-v1', 'sess06-never-closes']));
    expect(consultedFaults()).toEqual(['cred01-no-v1', 'sess06-never-closes']);
    resetConsultedFaults();
    expect(consultedFaults()).toEqual([]);
  });

  it('is `all` once a check\'s client could not say: a driver, a module without deliberateFaults, a client that did not start', () => {
    for (const client of [adapter(), undefined, adapter('all')]) {
      resetConsultedFaults();
      addConsultedFaults(adapter(['cred01-no-v1']));
      addConsultedFaults(client);
      addConsultedFaults(adapter(['sess06-never-closes']));
      expect(consultedFaults()).toBe('all');
    }
    resetConsultedFaults();
  });
});
