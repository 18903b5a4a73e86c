/** The facts a run gathers of a target's style, as data: kept by the main process (no parsing here). */

/** The facts counted by name and value, the access tokens seen (at most {@link MAX_TOKENS}), durations by endpoint. */
export interface ProfileFacts {
  readonly counts: Record<string, Record<string, number>>;
  readonly tokens: string[];
  readonly durations: Record<'token' | 'rest' | 'soap', number[]>;
}

export const MAX_TOKENS = 32;
export const MAX_DURATIONS = 4_000;
export const MAX_VALUES = 64;

export const emptyFacts = (): ProfileFacts => ({ counts: {}, tokens: [], durations: { token: [], rest: [], soap: [] } });

/** Adds `more` into `into` (the main process joins what each worker saw). */
export function mergeFacts(into: ProfileFacts, more: ProfileFacts): void {
  for (const [name, values] of Object.entries(more.counts)) {
    for (const [value, n] of Object.entries(values)) {
      const byValue = (into.counts[name] ??= {});
      if (byValue[value] === undefined && Object.keys(byValue).length >= MAX_VALUES) continue;
      byValue[value] = (byValue[value] ?? 0) + n;
    }
  }
  for (const t of more.tokens) if (into.tokens.length < MAX_TOKENS && !into.tokens.includes(t)) into.tokens.push(t);
  for (const k of ['token', 'rest', 'soap'] as const) for (const d of more.durations[k]) if (into.durations[k].length < MAX_DURATIONS) into.durations[k].push(d);
}
