/**
 * The shape of a learned profile (profile.json, and `report.profile`): see learn.ts. Types only, so that the report
 * model can name it.
 */
import type { DefectId } from '../sim/defects.ts';
import type { LatitudeProfile } from '../sim/latitude.ts';

export const PROFILE_SCHEMA = 'tds-auth-conformance/profile@1';
export const PROFILE_FILE = 'profile.json';

export type LatitudeObservation =
  | { readonly observed: true; readonly fields: readonly (keyof LatitudeProfile)[]; readonly unobservedFields?: readonly (keyof LatitudeProfile)[] }
  | { readonly observed: false; readonly reason: string };

export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** A deviation the target showed: the rule it broke, what was seen, and the simulator defect that reproduces it. */
export interface LearnedDeviation {
  readonly rule: string;
  readonly status: 'fail' | 'warn';
  readonly observed: string;
  /** The simulator's defect that reproduces it (`serve --with-deviations`); absent where none does. */
  readonly defect?: DefectId;
}

export interface LearnedProfile {
  readonly schema: typeof PROFILE_SCHEMA;
  readonly target: string;
  readonly learnedAt: string;
  readonly tool: string;
  /** The values observed, by profile field: a stand-in serves them, and the simulator's defaults elsewhere. */
  readonly values: Partial<LatitudeProfile>;
  readonly latitudes: Readonly<Record<string, LatitudeObservation>>;
  /** What the tokens seen show beyond their shape: the range of their lengths, and how many were read. */
  readonly tokens?: { readonly lengths: { readonly min: number; readonly max: number }; readonly samples: number };
  readonly latency: Readonly<Partial<Record<'token' | 'rest' | 'soap', Percentiles>>>;
  readonly throttling?: { readonly statuses: Readonly<Record<string, number>>; readonly retryAfter: readonly string[] };
  readonly deviations: readonly LearnedDeviation[];
}

