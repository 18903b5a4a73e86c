import fc from 'fast-check';
import { op, sessionsLeftOpen, type ClientContext } from '../../../harness/checks/client.ts';

/** One SOAP workflow: sessionless calls, then a session with calls in it, closed at the end. */
export interface SoapWorkload {
  readonly sessionless: readonly string[];
  readonly inSession: readonly string[];
}

export const soapWorkload: fc.Arbitrary<SoapWorkload> = fc.record({
  sessionless: fc.array(fc.constant('BargainFinderMaxRQ'), { minLength: 0, maxLength: 3 }),
  inSession: fc.array(fc.constantFrom('OTA_PingRQ', 'OTA_HotelAvailLLSRQ', 'BargainFinderMaxRQ'), { minLength: 1, maxLength: 4 }),
});

/** Drives the workload through the client; returns the actions the harness asked for, in order. */
export async function runSoapWorkload(ctx: ClientContext, w: SoapWorkload, environment: 'cert' | 'prod' = 'cert'): Promise<string[]> {
  // Each case starts with the account's whole pool: the service drops the sessions earlier cases left open, as it
  // would at their timeout (SESS-06 judges closing; a leak must not fail the next case of another rule).
  for (const token of sessionsLeftOpen(await ctx.history())) await ctx.sim.revokeToken(token);
  const asked: string[] = [];
  for (const action of w.sessionless) {
    asked.push(action);
    await op('soap.call', () => ctx.client.soapCall({ environment, action }));
  }
  const { session } = await op('soap.session.open', () => ctx.client.openSession({ environment }));
  for (const action of w.inSession) {
    asked.push(action);
    await op('soap.session.call', () => ctx.client.sessionCall({ session, action }));
  }
  await op('soap.session.close', () => ctx.client.closeSession({ session }));
  return asked;
}

/**
 * Drives the workload and keeps going to the verdict when an op fails: the requests the client sent before are
 * judged all the same (a check then throws `failure`, explained by {@link explainFailure}).
 */
export async function runSoapWorkloadSettled(ctx: ClientContext, w: SoapWorkload, environment: 'cert' | 'prod' = 'cert'): Promise<{ asked: string[]; failure: unknown }> {
  try {
    return { asked: await runSoapWorkload(ctx, w, environment), failure: undefined };
  } catch (failure) {
    return { asked: [], failure };
  }
}
