import { describe, expect, it } from 'vitest';
import { buildResponse, faultBody, parseEnvelope } from '../soap/index.ts';
import { classifySoap, codeNamesAction } from './soap-answer.ts';

const replyTo = { conversationId: 'c1', messageId: 'm1', cpaId: 'AB12', from: 'client', to: 'service', version: '2.0.0' as const };

function fault(faultcode: string, faultstring = 'x') {
  const xml = buildResponse({ header: { inReplyTo: replyTo, action: 'ErrorRS', messageId: '1', timestamp: new Date(0) }, security: { kind: 'empty' }, body: faultBody({ faultcode, faultstring }) });
  const parsed = parseEnvelope(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  return { status: 500, envelope: parsed.envelope };
}

describe('codeNamesAction', () => {
  it('finds "action" as a word of the faultcode, not inside another word', () => {
    for (const code of ['Client.InvalidAction', 'Client.ActionNotSupported', 'Client.UnknownACTION', 'Client.ACTION_UNKNOWN', 'Client.action', 'Client.Invalid-Action', 'Action']) {
      expect(codeNamesAction(code), code).toBe(true);
    }
    for (const code of ['Client.TransactionLimitReached', 'Client.NotAuthorizedForTransaction', 'Client.Transactional', 'Server.Reaction', 'Client.Actionable', 'Client.InvalidSecurityToken']) {
      expect(codeNamesAction(code), code).toBe(false);
    }
  });
});

describe('classifySoap: unknown action', () => {
  it('does not read a code with "action" inside another word as an unknown action', () => {
    expect(classifySoap(fault('Client.TransactionLimitReached', 'too many transactions'))).toMatchObject({ kind: 'other-fault', code: 'Client.TransactionLimitReached' });
    expect(classifySoap(fault('Client.NotAuthorizedForTransaction', 'not allowed'))).toMatchObject({ kind: 'other-fault', code: 'Client.NotAuthorizedForTransaction' });
  });

  it('still reads a code naming the action as one', () => {
    expect(classifySoap(fault('Client.InvalidAction', 'unsupported'))).toMatchObject({ kind: 'unknown-action', code: 'Client.InvalidAction' });
    expect(classifySoap(fault('Client.UnsupportedAction'))).toMatchObject({ kind: 'unknown-action' });
  });
});
