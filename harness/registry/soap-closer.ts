import { buildRequest, makeRequestHeader, parseEnvelope, sessionCloseRQBody } from '../soap/index.ts';
import type { Transport } from '../targets/index.ts';
import type { EnvironmentEndpoints } from '../targets/index.ts';
import type { Environment } from '../catalog/index.ts';
import type { CloseAnswer, RegisteredSession, SessionCloser } from './registry.ts';
import { DEFAULT_FAULT_CODES, type FaultCodes } from '../classify/fault-codes.ts';
import { classifySoap } from '../classify/soap-answer.ts';

let sequence = 0;

/** The `SessionCloseRQ` of a registered session, as the checks send it (binary security token, its conversation). */
export function sessionCloseEnvelope(session: RegisteredSession, now = new Date()): string {
  const header = makeRequestHeader({
    action: 'SessionCloseRQ',
    cpaId: session.cpaId,
    conversationId: session.conversationId,
    messageId: `${process.pid}-close-${++sequence}@tds-conformance`,
    now,
  });
  return buildRequest({
    header,
    security: { kind: 'binarySecurityToken', token: session.token },
    body: sessionCloseRQBody({ pseudoCityCode: session.cpaId, timeStamp: now.toISOString().slice(0, 19) + 'Z' }),
  });
}

/**
 * Closes sessions from the main process over `transport`, to the SOAP URL of the session's environment in the
 * target config. An answer that is not a SOAP envelope counts as no answer (the session may still be open). A fault
 * is read with `faultCodes`: the target's own (its config's), as the checks read them.
 */
export function soapSessionCloser(environments: Partial<Record<Environment, EnvironmentEndpoints>>, transport: Transport, faultCodes: FaultCodes = DEFAULT_FAULT_CODES): SessionCloser {
  return async (session, timeoutMs): Promise<CloseAnswer> => {
    const url = environments[session.env]?.soapUrl;
    if (url === undefined) throw new Error(`the target has no ${session.env.toUpperCase()} environment`);
    const response = await transport.request({
      method: 'POST',
      url,
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'OTA' },
      body: sessionCloseEnvelope(session),
      timeoutMs,
    });
    const parsed = parseEnvelope(response.body);
    if (!parsed.ok) throw new Error(`the answer to SessionCloseRQ is not a SOAP envelope (HTTP ${response.status})`);
    const fault = parsed.envelope.fault;
    if (!fault) return { kind: 'closed' };
    // Refused as an invalid token: the session is over already (closed, expired). Any other refusal leaves it open for
    // all the run knows (a service that refused to close it): it stays on the open list, and the run says so.
    // With the target's own fault codes (its config's `faultCodes`), as the checks read them.
    const answer = classifySoap({ status: response.status, envelope: parsed.envelope }, faultCodes);
    if (answer.kind !== 'refused' || answer.why !== 'invalid-token') throw new Error(`the service refused to close the session (${fault.faultcodeLocal || fault.faultcode})`);
    return { kind: 'refused', fault: fault.faultcodeLocal || fault.faultcode };
  };
}
