/**
 * A stand-in from a learned profile: the simulator's profile with the values the target showed (the simulator's own
 * defaults where a latitude was not observed), and — with `withDeviations` — the defects that reproduce the
 * deviations it showed, each named by its rule.
 */
import { readFileSync } from 'node:fs';
import { parseDefects, type DefectId } from '../sim/defects.ts';
import { DEFAULT_PROFILE, PROFILE_CHOICES, type LatitudeProfile } from '../sim/latitude.ts';
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
  if (typeof p.values !== 'object' || p.values === null) throw new ProfileFileError(`${file} has no "values": give a profile.json written by a live run`);
  for (const [key, v] of Object.entries(p.values)) {
    if (!KEYS.has(key)) throw new ProfileFileError(`${file}: "values.${key}" is not a freedom the simulator knows (known: ${[...KEYS].join(', ')})`);
    const expected = typeof DEFAULT_PROFILE[key as keyof LatitudeProfile];
    const type = Array.isArray(v) ? 'object' : typeof v;
    if (type !== expected) throw new ProfileFileError(`${file}: "values.${key}" must be a ${expected === 'object' ? 'JSON object or list' : expected}, not ${JSON.stringify(v)}`);
    const listed = PROFILE_CHOICES[key as keyof LatitudeProfile] as readonly unknown[];
    // Enumerated freedoms must hold one of the values the simulator makes; texts, numbers and shapes may be any.
    if (typeof v === 'string' && listed.every((c) => typeof c === 'string') && ['tokenFieldOrder', 'missingContentType', 'apiRefusalBody', 'responseMessageId', 'responseTimestamp', 'bstAttributes', 'headerBlock', 'tokenCreateBody', 'createBody', 'closeBody', 'closeAction', 'stackTracePlacement', 'sessionlessAction', 'garbageAnswer', 'businessBody', 'throttle'].includes(key) && !listed.includes(v)) {
      throw new ProfileFileError(`${file}: "values.${key}" is ${JSON.stringify(v)}, which the simulator cannot serve (one of ${listed.map((c) => JSON.stringify(c)).join(', ')})`);
    }
  }
  if (!Array.isArray(p.deviations)) throw new ProfileFileError(`${file} has no "deviations" list: give a profile.json written by a live run`);
  return p as LearnedProfile;
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
