/** The spawn arguments several tools share: environment (object or JSON string), directory, persistent-history suppression. */
import { checkStartDirectory, withoutPersistentHistory } from '../../core/index.js';
import type { ObjectOf } from '../../mcp/tools/schema.js';
import { defaulted, optional, stringMap, stringMapValue } from './schema.js';

export const SPAWN_FIELDS = {
  start_directory: optional(
    'string',
    "Directory the new process starts in: an absolute path, or ~ / ~/... for the home directory. It must exist. Default: tmux's default.",
  ),
  environment: stringMap(
    'Extra environment variables for the new process only, as {"NAME": "value"} (or that object as a JSON string). Values can show in process listings: do not pass secrets.',
  ),
  suppress_persistent_history: defaulted(
    'boolean',
    false,
    'Keep the new shell from writing its history file: sets HISTFILE="" (bash, zsh), fish_private_mode (fish) and adds ' +
      'ignorespace to HISTCONTROL. Default false. Best effort: it only affects shells that honour these variables.',
  ),
};

export type SpawnArgs = ObjectOf<typeof SPAWN_FIELDS, never>;

/** The checked environment (history suppression merged in) and directory, before anything touches tmux. */
export async function spawnSettings(args: SpawnArgs): Promise<{ environment?: Record<string, string>; startDirectory?: string }> {
  // Values are checked as strings by core (checkSpawnOptions) before tmux runs.
  let environment = stringMapValue(args.environment, 'environment', 'Pass an object such as {"NAME": "value"}.') as
    | Record<string, string>
    | undefined;
  if (args.suppress_persistent_history) environment = withoutPersistentHistory(environment);
  const startDirectory = args.start_directory != null ? await checkStartDirectory(args.start_directory, 'start_directory') : undefined;
  return { ...(environment ? { environment } : {}), ...(startDirectory ? { startDirectory } : {}) };
}
