import { describe, expect, it } from 'vitest';
import { parseEnvelope, VALID, type ParsedEnvelope } from '../soap/index.ts';
import {
  soap01HeaderProblems, soap01SchemaProblem, soap03ManifestProblem, soap03UsernameTokenProblem, soap04ActionProblem, soap04TokenProblem,
  soap05ConversationProblem, soap05CpaIdProblem,
} from './index.ts';

/** Parts of a hand-written request envelope; `undefined` leaves a header element out. */
interface Parts {
  action?: string;
  cpaId?: string;
  conversationId?: string;
  timeToLive?: string;
  /** The inside of wsse:Security; `null` leaves the Security header out. */
  security?: string | null;
  /** The Body's children. */
  body?: string;
}

const el = (name: string, value: string | undefined) => (value === undefined ? '' : `<eb:${name}>${value}</eb:${name}>`);

function xml(p: Parts = {}): string {
  const action = 'action' in p ? p.action : 'OTA_PingRQ';
  const header = `<eb:MessageHeader xmlns:eb="http://www.ebxml.org/namespaces/messageHeader" eb:version="1.0">`
    + `<eb:From><eb:PartyId>agency</eb:PartyId></eb:From><eb:To><eb:PartyId>webservices.sabre.com</eb:PartyId></eb:To>`
    + el('CPAId', 'cpaId' in p ? p.cpaId : 'PC12') + el('ConversationId', 'conversationId' in p ? p.conversationId : 'conv-1')
    + el('Service', action ?? 'OTA_PingRQ') + el('Action', action)
    + `<eb:MessageData><eb:MessageId>m-1</eb:MessageId><eb:Timestamp>2026-01-01T00:00:00Z</eb:Timestamp>${el('TimeToLive', 'timeToLive' in p ? p.timeToLive : '2026-01-01T01:00:00Z')}</eb:MessageData>`
    + `</eb:MessageHeader>`;
  const security = p.security === null ? '' : `<wsse:Security xmlns:wsse="http://schemas.xmlsoap.org/ws/2002/12/secext">${p.security ?? '<wsse:BinarySecurityToken>T-1</wsse:BinarySecurityToken>'}</wsse:Security>`;
  return `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header>${header}${security}</soap-env:Header>`
    + `<soap-env:Body>${p.body ?? '<OTA_PingRQ xmlns="http://www.opentravel.org/OTA/2002/11" Version="1.0"/>'}</soap-env:Body></soap-env:Envelope>`;
}

function envelope(p: Parts = {}): ParsedEnvelope {
  const parsed = parseEnvelope(xml(p));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.envelope;
}

const ut = (f: { username?: string; password?: string; organization?: string; domain?: string }) => `<wsse:UsernameToken>`
  + (f.username === undefined ? '' : `<wsse:Username>${f.username}</wsse:Username>`)
  + (f.password === undefined ? '' : `<wsse:Password>${f.password}</wsse:Password>`)
  + (f.organization === undefined ? '' : `<Organization>${f.organization}</Organization>`)
  + (f.domain === undefined ? '' : `<Domain>${f.domain}</Domain>`)
  + `</wsse:UsernameToken>`;
const fullToken = ut({ username: 'EPR7', password: 'secret', organization: 'PC12', domain: 'DEFAULT' });
const manifest = (n: number) => `<eb:Manifest xmlns:eb="http://www.ebxml.org/namespaces/messageHeader" xmlns:xlink="http://www.w3.org/1999/xlink">`
  + Array.from({ length: n }, (_, i) => `<eb:Reference xlink:href="cid:rootelement${i}"/>`).join('') + `</eb:Manifest>`;
const create = (p: Parts = {}) => envelope({ action: 'TokenCreateRQ', security: fullToken, body: `${manifest(1)}<TokenCreateRQ xmlns="http://webservices.sabre.com" Version="1.0.0"/>`, ...p });
const account = { epr: 'EPR7', pcc: 'PC12', password: 'secret' };

describe('SOAP-01 judges (the client suite and observe)', () => {
  it('find nothing in a complete request', () => {
    const body = xml();
    expect(soap01HeaderProblems({ body, envelope: envelope() })).toEqual([]);
    expect(soap01SchemaProblem(VALID, 'OTA_PingRQ')).toBeUndefined();
  });

  it('name what the header lacks, a missing wsse:Security, an unparsed request and a schema failure', () => {
    const noTtl = { timeToLive: undefined, security: null };
    expect(soap01HeaderProblems({ body: xml(noTtl), envelope: envelope(noTtl) }).map((p) => [p.clause, p.message])).toEqual([
      ['SOAP-01.message-header', 'the OTA_PingRQ request lacks MessageData/TimeToLive'],
      ['SOAP-01.security-header', 'the OTA_PingRQ request lacks wsse:Security'],
    ]);
    // An empty <wsse:Security/> is a Security header: what it lacks is SOAP-03's and SOAP-04's.
    expect(soap01HeaderProblems({ body: xml({ security: '' }), envelope: envelope({ security: '' }) })).toEqual([]);
    expect(soap01HeaderProblems({ body: '<not-soap/>', envelope: undefined, error: 'not an envelope' })).toEqual([
      { clause: 'SOAP-01.message-header', message: 'the SOAP request lacks eb:MessageHeader', expected: 'every element the interface document lists', actual: 'not an envelope' },
    ]);
    expect(soap01SchemaProblem({ valid: false, code: 'schema-invalid', errors: ['[error] a', '[error] b', '[error] c'] }, undefined)).toMatchObject({
      clause: 'SOAP-01.schema', message: 'the SOAP request does not validate against the request schema', actual: 'schema-invalid: [error] a; [error] b',
    });
  });
});

describe('SOAP-03 judges (the client suite and observe)', () => {
  it('find nothing in a complete TokenCreateRQ, with or without the account', () => {
    expect(soap03UsernameTokenProblem(create(), account)).toBeUndefined();
    expect(soap03UsernameTokenProblem(create())).toBeUndefined();
    expect(soap03ManifestProblem(create())).toBeUndefined();
  });

  it('name the missing UsernameToken, its missing fields, the wrong identity and a manifest without a single reference', () => {
    expect(soap03UsernameTokenProblem(create({ security: '<wsse:BinarySecurityToken>T</wsse:BinarySecurityToken>' }))).toMatchObject({ clause: 'SOAP-03.username-token', actual: 'binarySecurityToken' });
    expect(soap03UsernameTokenProblem(create({ security: ut({ username: 'EPR7', password: 'secret' }) }))).toMatchObject({
      message: 'the UsernameToken of TokenCreateRQ lacks Organization, Domain', actual: 'no Organization, Domain',
    });
    // Present, but in the wsse namespace: said so, not merely "lacks".
    const qualified = '<wsse:UsernameToken><wsse:Username>EPR7</wsse:Username><wsse:Password>secret</wsse:Password><wsse:Organization>PC12</wsse:Organization><wsse:Domain>DEFAULT</wsse:Domain></wsse:UsernameToken>';
    expect(soap03UsernameTokenProblem(create({ security: qualified }), account)).toMatchObject({
      message: 'the UsernameToken of TokenCreateRQ lacks Organization, Domain ({http://schemas.xmlsoap.org/ws/2002/12/secext}Organization, {http://schemas.xmlsoap.org/ws/2002/12/secext}Domain in another namespace: Username and Password are wsse elements, Organization and Domain unqualified)',
    });
    expect(soap03UsernameTokenProblem(create({ security: ut({ username: 'PC12', password: 'secret', organization: 'PC12', domain: 'DEFAULT' }) }), account)).toMatchObject({ message: 'Username of TokenCreateRQ is not the EPR', expected: 'EPR7', actual: 'PC12' });
    expect(soap03UsernameTokenProblem(create({ security: ut({ username: 'EPR7', password: 'other', organization: 'PC12', domain: 'DEFAULT' }) }), account)).toMatchObject({ message: 'Password of TokenCreateRQ is not the account password', actual: 'another value' });
    // Without the password (observe finds the account by it), only the EPR and PCC are compared.
    expect(soap03UsernameTokenProblem(create({ security: ut({ username: 'EPR7', password: 'other', organization: 'PC12', domain: 'DEFAULT' }) }), { epr: 'EPR7', pcc: 'PC12' })).toBeUndefined();
    expect(soap03UsernameTokenProblem(create({ security: ut({ username: 'EPR7', password: 'secret', organization: 'EPR7', domain: 'DEFAULT' }) }), account)).toMatchObject({ message: 'Organization of TokenCreateRQ is not the PCC', expected: 'PC12' });
    // "Organization (the PCC/iPCC)": an iPCC the target config declares for the account.
    expect(soap03UsernameTokenProblem(create({ security: ut({ username: 'EPR7', password: 'secret', organization: '7TZA', domain: 'DEFAULT' }) }), { ...account, groupAlternatives: ['7TZA'] })).toBeUndefined();
    expect(soap03ManifestProblem(create({ body: `${manifest(2)}<TokenCreateRQ xmlns="http://webservices.sabre.com"/>` }))).toMatchObject({ clause: 'SOAP-03.manifest', expected: '1', actual: '2 references' });
    expect(soap03ManifestProblem(create({ body: '<TokenCreateRQ xmlns="http://webservices.sabre.com"/>' }))?.actual).toBe('0 references');
  });
});

describe('SOAP-04 judges (the client suite and observe)', () => {
  const calls = [envelope({ action: 'BargainFinderMaxRQ' }), envelope(), envelope({ action: 'SessionCloseRQ' })];

  it('find nothing in calls with a BinarySecurityToken and action codes, asked or not', () => {
    expect(soap04TokenProblem(envelope())).toBeUndefined();
    expect(soap04TokenProblem(envelope(), (t) => t === 'T-1')).toBeUndefined();
    expect(soap04ActionProblem(calls)).toBeUndefined();
    expect(soap04ActionProblem(calls, ['OTA_PingRQ', 'BargainFinderMaxRQ'])).toBeUndefined();
  });

  it('name a token outside wsse:BinarySecurityToken, a token not issued, and an action that is not the code', () => {
    expect(soap04TokenProblem(envelope({ security: fullToken }))).toMatchObject({ clause: 'SOAP-04.binary-security-token', actual: 'usernameToken' });
    expect(soap04TokenProblem(envelope(), () => false)).toMatchObject({ message: 'the OTA_PingRQ request carries a token the service did not issue', actual: 'another value' });
    const ota = [envelope({ action: 'BargainFinderMaxRQ' }), envelope({ action: 'OTA' })];
    expect(soap04ActionProblem(ota)).toEqual({ problem: { clause: 'SOAP-04.action-code', message: 'eb:Action does not carry the called API\'s action code', expected: 'an action code such as OTA_PingRQ', actual: 'OTA' }, call: 1 });
    // With the asked actions (a driver), every one of them must be sent; SessionCloseRQ is not one of the calls.
    expect(soap04ActionProblem(ota, ['BargainFinderMaxRQ', 'OTA_PingRQ'])).toEqual({ problem: expect.objectContaining({ expected: 'BargainFinderMaxRQ, OTA_PingRQ', actual: 'BargainFinderMaxRQ, OTA' }), call: undefined });
    expect(soap04ActionProblem(calls, ['SessionCloseRQ'])?.problem.actual).toBe('BargainFinderMaxRQ, OTA_PingRQ');
  });
});

describe('SOAP-05 judges (the client suite and observe)', () => {
  it('find nothing when eb:CPAId is the PCC and a session keeps its ConversationId', () => {
    expect(soap05CpaIdProblem(envelope(), 'PC12')).toBeUndefined();
    expect(soap05ConversationProblem([create({ action: 'SessionCreateRQ' }), envelope(), envelope({ action: 'SessionCloseRQ' })])).toBeUndefined();
  });

  it('name a CPAId that is not the PCC, a missing one, and a session with two ConversationIds', () => {
    expect(soap05CpaIdProblem(envelope({ cpaId: 'EPR7' }), 'PC12')).toEqual({ clause: 'SOAP-05.cpaid', message: 'eb:CPAId of OTA_PingRQ is not the caller\'s PCC', expected: 'PC12', actual: 'EPR7' });
    expect(soap05CpaIdProblem(envelope({ cpaId: undefined }), 'PC12')?.actual).toBe('(none)');
    // "eb:CPAId: The PCC/iPCC of the caller": an iPCC the target config declares for the account.
    expect(soap05CpaIdProblem(envelope({ cpaId: '7TZA' }), 'PC12', ['7TZA'])).toBeUndefined();
    expect(soap05CpaIdProblem(envelope({ cpaId: '7TZA' }), 'PC12')?.actual).toBe('7TZA');
    expect(soap05ConversationProblem([create({ action: 'SessionCreateRQ' }), envelope({ conversationId: 'conv-2' })])).toMatchObject({ clause: 'SOAP-05.conversation-id', actual: 'conv-1, conv-2' });
  });
});
