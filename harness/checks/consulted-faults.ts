import type { ClientAdapter } from '../clients/protocol.ts';
import { consultedList } from '../consulted-set.ts';

/**
 * The deliberate client faults the clients of this test file's checks asked about (harness/clients/protocol.ts,
 * `deliberateFaults`), for the session: the self-test reuses a fault-free run's verdicts for the files whose client
 * never asked about a mutant's fault. `all` once a check's client could not say (a driver, a module without
 * `deliberateFaults`, a client that did not start).
 */
let asked: Set<string> | 'all' = new Set();

/** Forgets the earlier file's (at each file's start). */
export function resetConsultedFaults(): void {
  asked = new Set();
}

/** Adds what a check's client asked about, once the check is done with it (`undefined`: no client was started). */
export function addConsultedFaults(client: ClientAdapter | undefined): void {
  if (asked === 'all') return;
  const faults = client?.deliberateFaults?.().asked ?? 'all';
  if (faults === 'all') asked = 'all';
  else for (const f of faults) asked.add(f);
}

/** What the file's clients asked about so far: sorted names, or `all`. */
export function consultedFaults(): readonly string[] | 'all' {
  return consultedList(asked);
}
