/**
 * The pauses before sending a SessionCreateRQ refused for a full pool again, right after a slot should have been
 * released (a close, a timeout): the document gives the release no time ("session resources are released"), and a
 * deployed service may release a slot a little after it acknowledged the close. Doubling from 0.1 s, `totalMs` in
 * all: the target's `slotReleaseMs` (3 s by default on a live target: 0.1, 0.2, 0.4, 0.8 and 1.5 s; none on the
 * simulator, which releases a slot as it answers the close or as its clock passes the timeout).
 */
export function releasePauses(totalMs: number): number[] {
  const pauses: number[] = [];
  for (let left = totalMs, next = 100; left > 0; next *= 2) {
    // The last pause takes what is left where one more doubling would pass the total.
    const pause = left - next < next ? left : next;
    pauses.push(pause);
    left -= pause;
  }
  return pauses;
}
