import fc from 'fast-check';
import { op, type ClientContext } from '../../../harness/checks/client.ts';

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
export async function runSoapWorkload(ctx: ClientContext, w: SoapWorkload): Promise<string[]> {
  const asked: string[] = [];
  for (const action of w.sessionless) {
    asked.push(action);
    await op('soap.call', () => ctx.client.soapCall({ environment: 'cert', action }));
  }
  const { session } = await op('soap.session.open', () => ctx.client.openSession({ environment: 'cert' }));
  for (const action of w.inSession) {
    asked.push(action);
    await op('soap.session.call', () => ctx.client.sessionCall({ session, action }));
  }
  await op('soap.session.close', () => ctx.client.closeSession({ session }));
  return asked;
}
