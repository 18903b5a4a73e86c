/**
 * A stand-in from a learned profile: the simulator's profile with the values the target showed (the simulator's own
 * defaults where a latitude was not observed), and — with `withDeviations` — the defects that reproduce the
 * deviations it showed, each named by its rule.
 */
import { readFileSync } from 'node:fs';
import { parseDefects, type DefectId } from '../sim/defects.ts';
import { DEFAULT_PROFILE, PROFILE_CHOICES, type LatitudeProfile } from '../sim/latitude.ts';
import { CONFORMING_TESTS } from './conforming-values.ts';
import { PROFILE_SCHEMA, type LearnedProfile } from './types.ts';

/** A profile file that cannot be served: said in one line, before anything runs (exit code 2). */
export class ProfileFileError extends Error {
  readonly code = 'PROFILE_FILE_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'ProfileFileError';
  }
}

export interface StandIn {
  readonly profile: LatitudeProfile;
  /** The simulator's defects that reproduce the target's deviations (with `withDeviations`), with their rules. */
  readonly defects: readonly DefectId[];
  readonly deviations: readonly { readonly rule: string; readonly defect: DefectId }[];
}

const KEYS = new Set(Object.keys(DEFAULT_PROFILE));

/** Checks a parsed profile file: its schema, and values of the right type for each field it holds. */
export function parseLearnedProfile(value: unknown, file = 'the profile'): LearnedProfile {
  if (typeof value !== 'object' || value === null) throw new ProfileFileError(`${file} is not a JSON object: give a profile.json written by a live run`);
  const p = value as Partial<LearnedProfile>;
  if (p.schema !== PROFILE_SCHEMA) throw new ProfileFileError(`${file} is not a profile of this tool (its "schema" is ${JSON.stringify(p.schema)}, not "${PROFILE_SCHEMA}"): give a profile.json written by a live run`);
  if (typeof p.values !== 'object' || p.values === null || Array.isArray(p.values)) throw new ProfileFileError(`${file} has no "values": give a profile.json written by a live run`);
  for (const [key, v] of Object.entries(p.values)) {
    if (!KEYS.has(key)) throw new ProfileFileError(`${file}: "values.${key}" is not a freedom the simulator knows (known: ${[...KEYS].join(', ')})`);
    const expected = typeof DEFAULT_PROFILE[key as keyof LatitudeProfile];
    const type = Array.isArray(v) ? 'object' : typeof v;
    if (type !== expected) throw new ProfileFileError(`${file}: "values.${key}" must be a ${expected === 'object' ? 'JSON object or list' : expected}, not ${JSON.stringify(v)}`);
    const listed = PROFILE_CHOICES[key as keyof LatitudeProfile] as readonly unknown[];
    // Enumerated freedoms must hold one of the values the simulator makes; texts, numbers and shapes may be any.
    if (typeof v === 'string' && listed.every((c) => typeof c === 'string') && ['tokenFieldOrder', 'missingContentType', 'apiRefusalBody', 'responseMessageId', 'responseTimestamp', 'bstAttributes', 'headerBlock', 'responseHeader', 'tokenCreateBody', 'createBody', 'closeBody', 'closeAction', 'stackTracePlacement', 'sessionlessAction', 'garbageAnswer', 'businessBody', 'throttle', 'gatewayErrors', 'otherTokenErrorCode'].includes(key) && !listed.includes(v)) {
      throw new ProfileFileError(`${file}: "values.${key}" is ${JSON.stringify(v)}, which the simulator cannot serve (one of ${listed.map((c) => JSON.stringify(c)).join(', ')})`);
    }
  }
  for (const [key, v] of Object.entries(p.values)) {
    const wrong = valueProblem(key as keyof LatitudeProfile, v);
    if (wrong) throw new ProfileFileError(`${file}: "values.${key}" is ${JSON.stringify(v)}, which the simulator cannot serve: ${wrong}`);
  }
  // The values are the target's conforming style: one that breaks a rule is a deviation, which a learned profile
  // lists under "deviations" (served with --with-deviations where the simulator can make it), never as a value.
  for (const t of CONFORMING_TESTS) {
    const v = (p.values as Record<string, unknown>)[t.key];
    if (v !== undefined && !t.ok(v as never)) throw new ProfileFileError(`${file}: "values.${t.key}" is ${JSON.stringify(v)}, which breaks ${t.rule}: a profile's values are the target's conforming style (a learned profile lists a deviation under "deviations")`);
  }
  if (p.latitudes !== undefined && !isLatitudes(p.latitudes)) throw new ProfileFileError(`${file}: "latitudes" must be a JSON object of {"observed": true|false, …} entries, as a live run writes it`);
  if (!Array.isArray(p.deviations)) throw new ProfileFileError(`${file} has no "deviations" list: give a profile.json written by a live run`);
  const badDeviation = (p.deviations as unknown[]).findIndex((d) => typeof d !== 'object' || d === null || Array.isArray(d) || typeof (d as { rule?: unknown }).rule !== 'string'
    || ((d as { defect?: unknown }).defect !== undefined && typeof (d as { defect?: unknown }).defect !== 'string'));
  if (badDeviation >= 0) throw new ProfileFileError(`${file}: "deviations[${badDeviation}]" must be an object with a "rule" (and, where the simulator can make it, a "defect"), not ${JSON.stringify(p.deviations[badDeviation])}`);
  return p as LearnedProfile;
}

function isLatitudes(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    && Object.values(v).every((o) => typeof o === 'object' && o !== null && typeof (o as { observed?: unknown }).observed === 'boolean');
}

/** Visible ASCII: what a token's alphabet, prefix and suffix may hold (a token travels in a header and in XML). */
const VISIBLE_ASCII = /^[\x21-\x7e]*$/;

/** An HTTP header name (RFC 9110 token), an XML prefix (an NCName), a header value without control characters. */
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NC_NAME = /^[A-Za-z_][\w.-]*$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Why a value of a profile file cannot be served (its type already checked), or `undefined`. */
function valueProblem(key: keyof LatitudeProfile, v: unknown): string | undefined {
  const intIn = (min: number, max: number) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? undefined : `a whole number from ${min} to ${max}`);
  switch (key) {
    case 'otherTokenErrorStatus':
    case 'apiRefusalStatus':
    case 'faultStatus':
      return intIn(200, 599);
    case 'poolSize':
      return intIn(1, 1000);
    case 'sessionTimeoutSeconds':
      return intIn(1, 86_400);
    case 'latencyMs':
      return intIn(0, 60_000);
    case 'soapEnvPrefix':
    case 'ebPrefix':
      if (/^xml/i.test(v as string)) return 'an XML prefix: names starting with "xml" are reserved';
      return NC_NAME.test(v as string) ? undefined : 'an XML prefix (a name of letters, digits, ".", "-" or "_", not starting with a digit)';
    case 'jsonContentType':
      return HEADER_VALUE.test(v as string) && (v as string).length > 0 ? undefined : 'a header value (no control characters)';
    case 'extraHeaders':
      return Array.isArray(v) && v.every((h) => typeof h === 'string' && HTTP_TOKEN.test(h)) ? undefined : 'a list of HTTP header names';
    case 'tokenShape':
      return tokenShapeProblem(v);
    default:
      return undefined;
  }
}

function tokenShapeProblem(v: unknown): string | undefined {
  const s = v as { kind?: unknown; prefix?: unknown; suffix?: unknown; alphabet?: unknown; length?: unknown; header?: unknown; payloadLength?: unknown; signatureLength?: unknown };
  const positive = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 4096;
  switch (s.kind) {
    case 'uuid': return undefined;
    case 'chars':
      if (!(typeof s.prefix === 'string' && typeof s.suffix === 'string' && typeof s.alphabet === 'string' && s.alphabet.length > 0 && positive(s.length))) {
        return 'a "chars" token shape needs a prefix, a suffix, a non-empty alphabet and a length';
      }
      return VISIBLE_ASCII.test(s.prefix + s.suffix + s.alphabet) ? undefined : 'a token\'s prefix, suffix and alphabet are visible ASCII characters (no spaces, no redaction marks)';
    case 'jwt':
      return typeof s.header === 'string' && positive(s.payloadLength) && positive(s.signatureLength)
        ? undefined : 'a "jwt" token shape needs a header, a payloadLength and a signatureLength';
    default:
      return 'a token shape of kind "chars", "jwt" or "uuid"';
  }
}

export function loadLearnedProfile(file: string): LearnedProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProfileFileError(`cannot read the profile ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}): give the profile.json a live run wrote`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    throw new ProfileFileError(`${file} is not JSON: give the profile.json a live run wrote`);
  }
  return parseLearnedProfile(json, file);
}

/** The stand-in of a learned profile: conforming by default in the target's style; its deviations when asked for. */
export function standIn(learned: LearnedProfile, options: { readonly withDeviations?: boolean } = {}): StandIn {
  const profile = { ...DEFAULT_PROFILE, ...learned.values } as LatitudeProfile;
  if (!options.withDeviations) return { profile, defects: [], deviations: [] };
  const deviations = learned.deviations.flatMap((d) => (d.defect ? [{ rule: d.rule, defect: d.defect }] : []));
  const defects = [...parseDefects([...new Set(deviations.map((d) => d.defect))])] as DefectId[];
  return { profile, defects, deviations };
}
