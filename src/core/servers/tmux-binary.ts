/** The local tmux binary check (src/tmux/binary.ts) for start-up, whose layer speaks to tmux only through core. */
import { checkTmuxBinary } from '../../tmux/binary.js';
import { NEWEST_TESTED, newerThanTested, parseVersion } from '../../tmux/versions.js';
import { asFailure } from '../failure.js';

/**
 * Runs `bin -V`: the version of a tmux this server can drive (3.3a or newer), or what is wrong
 * with it (it does not run, is not tmux, is too old), as a sentence and what to do.
 */
export async function localTmuxCheck(
  bin: string,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly version: string } | { readonly problem: string }> {
  try {
    return { version: await checkTmuxBinary(bin, env) };
  } catch (error) {
    const failure = asFailure(error);
    if (!failure) throw error;
    return { problem: failure.sentence };
  }
}

/** The version as the banner says it: "tmux 3.5a", or "tmux 3.9 (newer than the newest tested, 3.5a)". */
export function describeTmuxVersion(version: string): string {
  return `tmux ${version}${newerThanTested(parseVersion(version)) ? ` (newer than the newest tested, ${NEWEST_TESTED})` : ''}`;
}
