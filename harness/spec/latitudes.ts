import type { Latitude } from './types.ts';

/**
 * The freedoms the interface document leaves a conforming service or client: each with the sentence (or the
 * silence) that allows it. Rules name the ones their checks must accept (`Rule.latitudes`); the simulator's latitude
 * profiles vary them, and a property runs the whole service suite over random profiles (zero fail, warn or error).
 */
export const latitudes: readonly Latitude[] = [];

export function findLatitude(id: string): Latitude | undefined {
  return latitudes.find((l) => l.id === id);
}
