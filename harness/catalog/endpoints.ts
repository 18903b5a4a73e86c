import type { TokenKind } from './types.ts';

/** Where a fact about an endpoint comes from: the interface document, or an assumption of this harness. */
export type FactSource = 'document' | 'assumed';

export interface RestEndpoint {
  /** Stable key used by the simulator, the checks and the docs. */
  readonly key: string;
  readonly api: string;
  /** The method as listed; `null` where the document gives none (the simulator then accepts GET and POST). */
  readonly method: 'GET' | 'POST' | null;
  /** Path as listed, normalised to start with `/`; a query string, where listed, is kept in `query`. */
  readonly path: string;
  readonly query?: string;
  readonly version: string;
  /** Release date (ISO) from the document's release history. */
  readonly released: string;
  /** Token kinds the API accepts. The document says each API declares them in its own reference (not shown). */
  readonly accepts: readonly TokenKind[];
  readonly acceptsSource: FactSource;
  /** A contractual amendment the account needs besides a token (ACCESS-04). */
  readonly amendment?: string;
  /** Reachable with developer-portal test credentials (ACCESS-03): a publicly available REST API. */
  readonly public: boolean;
  readonly facts: readonly string[];
}

/** The ten business endpoints named in the interface document ("Other published endpoints named with their versions"). */
export const restEndpoints: readonly RestEndpoint[] = [
  {
    key: 'hotel-details', api: 'Get Hotel Details', method: null, path: '/v1.1.0/get/hoteldetails', version: 'v1.1.0',
    released: '2019-06-21', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Rate information is reduced to totals that include commission; the rate-level tags Taxes, Fees, Rates, CancelPenalties and Guarantee (and further ones) are removed.'],
  },
  {
    key: 'alt-airport-shop', api: 'Alternate Airport Shop', method: null, path: '/v5.1.0/shop/altairports/flights', query: 'mode=live',
    version: 'v5.1.0', released: '2019-03-28', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Classic requests are available in JSON; air streaming splits the final response into several packages by setting a limited number of items.'],
  },
  {
    key: 'air-low-fare-shop', api: 'Air low-fare shop (grouped itinerary response in JSON)', method: null, path: '/v1/offers/shop',
    version: 'v1', released: '2019-03-28', accepts: ['sessionless'], acceptsSource: 'assumed', amendment: 'air-low-fare-shop', public: false,
    facts: ['JSON response in grouped itinerary format; the OTA JSON response type is no longer available in this version.', 'Requires a separate contractual amendment in addition to a token.'],
  },
  {
    key: 'alt-date', api: 'Alternate Date', method: null, path: '/v5.1.0/shop/altdates/flights', query: 'mode=live',
    version: 'v5.1.0', released: '2019-03-28', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Classic requests are available in JSON; air streaming splits the final response into several packages by setting a limited number of items.'],
  },
  {
    key: 'hotel-rate-info', api: 'Get Hotel Rate Info', method: 'POST', path: '/v2.0.0/GetHotelRateInfoRQ', version: 'v2.0',
    released: '2019-02-15', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Returns rate details from several sources (the distribution system and aggregators); search criteria include check-in/check-out dates, number of guests, hotel property ID, rate range.'],
  },
  {
    key: 'hotel-lead-rate', api: 'Get Hotel Lead Rate', method: 'POST', path: '/v2.0.0/GetHotelLeadRateRQ', version: 'v2',
    released: '2019-02-15', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Shops the lowest available rate from the distribution system and several aggregator sources.'],
  },
  {
    key: 'coupon-association', api: 'EMD-ETKT coupons association', method: null, path: '/v1.0.0/fulfillment/document/coupon/association',
    version: 'v1.0', released: '2018-12-12', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Associates EMD and ETKT coupons.'],
  },
  {
    key: 'alt-date-v4', api: 'Alternate Date (older version)', method: 'POST', path: '/v4.3.0/shop/altdates/flights',
    version: 'v4.3.0', released: '2018-09-20', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Schema version upgrade only.', 'Listed without a leading slash (`v4.3.0/shop/altdates/flights`).'],
  },
  {
    key: 'calendar-search', api: 'Advanced Calendar Search', method: null, path: '/v4.3.0/shop/calendar/flights',
    version: 'v4.3.0', released: '2018-09-20', accepts: ['sessionless'], acceptsSource: 'assumed', public: false,
    facts: ['Schema version upgrade only.'],
  },
  {
    key: 'shop-themes', api: 'Supported shop themes lookup', method: 'GET', path: '/v1/lists/supported/shop/themes',
    version: 'v1', released: '', accepts: ['sessionless'], acceptsSource: 'assumed', public: true,
    facts: ['The document\'s example of calling a published REST API with the bearer header.'],
  },
];

/** One release of a business API ("Versioning", release history, newest first). */
export interface Release {
  readonly api: string;
  readonly version: string;
  readonly released: string;
  readonly note?: string;
}

export const releaseHistory: readonly Release[] = [
  { api: 'Get Hotel Details', version: 'v1.1.0', released: '2019-06-21' },
  { api: 'Alternate Airport Shop', version: 'v5.1.0', released: '2019-03-28' },
  { api: 'Air low-fare shop', version: 'v1', released: '2019-03-28' },
  { api: 'Alternate Date', version: 'v5.1.0', released: '2019-03-28' },
  { api: 'Get Hotel Rate Info', version: 'v2.0', released: '2019-02-15' },
  { api: 'Get Hotel Lead Rate', version: 'v2', released: '2019-02-15' },
  { api: 'EMD-ETKT coupons association', version: 'v1.0', released: '2018-12-12' },
  { api: 'Alternate Date', version: 'v4.3.0', released: '2018-09-20' },
  { api: 'Advanced Calendar Search', version: 'v4.3.0', released: '2018-09-20' },
  {
    api: 'Air low-fare shop', version: 'v4.3.0', released: '2018-09-20',
    note: 'Added optional search parameters: shop by fare type code (include or exclude a fare option) and shop by brand ID.',
  },
];

/** A SOAP action the simulator answers and the checks call. */
export interface SoapAction {
  readonly action: string;
  readonly purpose: 'token-create' | 'session-create' | 'session-close' | 'ping' | 'business';
  /** Token kinds accepted in the BinarySecurityToken; empty for token-creating actions (UsernameToken). */
  readonly accepts: readonly TokenKind[];
  readonly acceptsSource: FactSource;
  readonly amendment?: string;
}

export const soapActions: readonly SoapAction[] = [
  { action: 'TokenCreateRQ', purpose: 'token-create', accepts: [], acceptsSource: 'document' },
  { action: 'SessionCreateRQ', purpose: 'session-create', accepts: [], acceptsSource: 'document' },
  { action: 'SessionCloseRQ', purpose: 'session-close', accepts: ['session'], acceptsSource: 'document' },
  /** The Refresh Session API, "the recommended simple ping". */
  { action: 'OTA_PingRQ', purpose: 'ping', accepts: ['session'], acceptsSource: 'assumed' },
  /** A business action that needs a session token (hotel availability). */
  { action: 'OTA_HotelAvailLLSRQ', purpose: 'business', accepts: ['session'], acceptsSource: 'assumed' },
  /** A business action that accepts sessionless tokens too (air low-fare shop; needs the amendment). */
  { action: 'BargainFinderMaxRQ', purpose: 'business', accepts: ['sessionless', 'session'], acceptsSource: 'assumed', amendment: 'air-low-fare-shop' },
];

export function findRestEndpoint(method: string, path: string): RestEndpoint | undefined {
  return restEndpoints.find((e) => e.path === path && (e.method === null ? method === 'GET' || method === 'POST' : e.method === method));
}

export function findSoapAction(action: string): SoapAction | undefined {
  return soapActions.find((a) => a.action === action);
}
