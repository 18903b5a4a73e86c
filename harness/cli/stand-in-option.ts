import { loadLearnedProfile, ProfileFileError, standIn, type StandIn } from '../profile/serve.ts';
import { UsageError } from './usage-error.ts';

/**
 * `--sim-profile <file>` and `--with-deviations` of a command that starts the simulator (`run`, `observe`): the
 * stand-in of a learned profile, or `undefined` without one. `simOnly` says what the profile goes with (`--target
 * sim`), when the command was given another upstream. A bad profile file is a usage error.
 */
export function standInOption(file: string | undefined, withDeviations: boolean, simOnly: string | undefined): StandIn | undefined {
  if (withDeviations && file === undefined) throw new UsageError('--with-deviations reproduces the deviations of a learned profile: give it with --sim-profile <profile.json>.');
  if (file === undefined) return undefined;
  if (simOnly !== undefined) throw new UsageError(`--sim-profile makes the built-in simulator a stand-in for a learned target: ${simOnly}.`);
  try {
    return standIn(loadLearnedProfile(file), { withDeviations });
  } catch (err) {
    if (err instanceof ProfileFileError) throw new UsageError(`${err.message}.`);
    throw err;
  }
}
