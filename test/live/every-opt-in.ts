/**
 * The simulator served on loopback as a live target, with a config file that declares what a team would for the whole
 * service suite when asked: its CERT and PROD accounts and, with `everyOptIn`, every opt-in rule's needs (the pool,
 * every API's token kinds, every access account). Shared by the live tests that run the whole suite that way.
 */
import { defaultAccounts } from '../../harness/sim/default-accounts.ts';
import { NO_PROXY_ENV, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';

/** The token kinds of the simulator's APIs, as a config declares them. */
const TOKEN_KINDS: Readonly<Record<string, readonly string[]>> = {
  'GET /v1.1.0/get/hoteldetails': ['sessionless'],
  'GET /v5.1.0/shop/altairports/flights?mode=live': ['sessionless'],
  'GET /v1/offers/shop': ['sessionless'],
  'GET /v5.1.0/shop/altdates/flights?mode=live': ['sessionless'],
  'POST /v2.0.0/GetHotelRateInfoRQ': ['sessionless'],
  'POST /v2.0.0/GetHotelLeadRateRQ': ['sessionless'],
  'GET /v1.0.0/fulfillment/document/coupon/association': ['sessionless'],
  'POST /v4.3.0/shop/altdates/flights': ['sessionless'],
  'GET /v4.3.0/shop/calendar/flights': ['sessionless'],
  'GET /v1/lists/supported/shop/themes': ['sessionless'],
  'OTA_PingRQ': ['session'],
  'OTA_HotelAvailLLSRQ': ['session'],
  'BargainFinderMaxRQ': ['sessionless', 'session'],
};

const PUBLIC_API = 'GET /v1/lists/supported/shop/themes';
/** The REST APIs of {@link TOKEN_KINDS} but the public one. */
const AGENCY_APIS = Object.keys(TOKEN_KINDS).filter((api) => /^(?:GET|POST) /.test(api) && api !== PUBLIC_API);

/** The simulator (with `defects`) as a live target: a config file with its CERT and PROD accounts. */
export async function simulatorTarget(defects: readonly string[], everyOptIn = false): Promise<string> {
  const accounts = defaultAccounts(1);
  const { server } = await serveSimulator({ accounts: accounts.accounts, defects, seed: 1 });
  const a = { ...accounts.main, ...accounts };
  setEnv({
    ...NO_PROXY_ENV, TDS_ORDER_CERT_PASSWORD: a.cert.password, TDS_ORDER_PROD_PASSWORD: a.prod.password,
    TDS_ORDER_AGENCY_PASSWORD: a.otherAgency.password, TDS_ORDER_PORTAL_PASSWORD: a.portal.password, TDS_ORDER_NOAMEND_PASSWORD: a.noAmendment.password,
    TDS_ORDER_CERTONLY_PASSWORD: a.certOnly.password,
  });
  const main = (x: { epr: string; pcc: string }, env: string) => ({ epr: x.epr, pcc: x.pcc, passwordEnv: `TDS_ORDER_${env}_PASSWORD` });
  // An access account as the config file has it (`extra` keys are written as they are).
  const access = (x: { epr: string; pcc: string; restDomain?: string }, env: string) => ({ epr: x.epr, pcc: x.pcc, password: { env: `TDS_ORDER_${env}_PASSWORD` }, ...(x.restDomain && { restDomain: x.restDomain }) });
  return writeTargetConfig(tempDir('order'), 'target.json', {
    name: `simulator${defects.length ? ` (${defects.join(', ')})` : ''}`,
    environments: { cert: server.urls.cert, prod: server.urls.prod },
    accounts: { cert: main(a.cert, 'CERT'), prod: main(a.prod, 'PROD') },
    // The simulator releases a slot as it answers the close: no pauses for a slot released late.
    slotReleaseMs: 0,
    // Every opt-in rule selected, each with what it needs: the pool, PROD, every access account.
    ...(everyOptIn && {
      sessionPoolSize: a.cert.poolSize,
      extra: {
        allowOptIn: true,
        // What a team would declare for the whole suite: every API's token kinds, every access account's APIs.
        tokenKinds: TOKEN_KINDS,
        access: {
          // Every REST API but the public one is the agency's own, and the portal may call none of them.
          otherAgency: { account: access(a.otherAgency, 'AGENCY'), agencyApis: [...AGENCY_APIS.filter((x) => x !== 'GET /v1/offers/shop'), 'OTA_HotelAvailLLSRQ'] },
          portal: { account: access(a.portal, 'PORTAL'), publicApis: [PUBLIC_API], otherApis: AGENCY_APIS },
          noAmendment: { account: access(a.noAmendment, 'NOAMEND'), amendmentApis: ['GET /v1/offers/shop', 'BargainFinderMaxRQ'] },
          certOnly: access(a.certOnly, 'CERTONLY'),
        },
      },
    }),
  });
}

