/**
 * What a new pane's process starts with, beyond its directory: extra environment variables
 * (`-e NAME=VALUE`, for that process only) and the command to run instead of the default shell.
 * Checked before tmux runs; the command goes to tmux as one argument, which tmux hands to
 * `sh -c` as a shell command, like typing it.
 */
import { ENVIRONMENT_NAME } from '../settings/environment.js';
import { invalidArgument } from '../failure.js';

export interface SpawnOptions {
  readonly environment?: Readonly<Record<string, string>>;
  readonly shell?: string;
}

const MAX_VARIABLES = 256;
const MAX_VALUE_BYTES = 64 * 1024;

export function checkSpawnOptions(options: SpawnOptions, fields = { environment: 'environment', shell: 'shell' }): void {
  const entries = Object.entries(options.environment ?? {});
  if (entries.length > MAX_VARIABLES)
    throw invalidArgument(`${fields.environment} sets ${entries.length} variables; at most ${MAX_VARIABLES}`);
  for (const [name, value] of entries) {
    if (!ENVIRONMENT_NAME.test(name))
      throw invalidArgument(
        `${fields.environment}: ${JSON.stringify(name.slice(0, 64))} is not a variable name (letters, digits, "_", not starting with a digit; at most 256)`,
      );
    if (typeof value !== 'string') throw invalidArgument(`${fields.environment}.${name} must be a string`);
    if (value.includes('\0')) throw invalidArgument(`${fields.environment}.${name} contains a NUL byte`);
    if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES)
      throw invalidArgument(`${fields.environment}.${name} is longer than ${MAX_VALUE_BYTES} bytes`);
  }
  if (options.shell !== undefined) {
    if (options.shell.trim() === '') throw invalidArgument(`${fields.shell} must not be empty; leave it out for the default shell`);
    if (options.shell.includes('\0')) throw invalidArgument(`${fields.shell} contains a NUL byte`);
  }
}

/** The `-e` flags for the environment (put before the target). */
export function environmentFlags(options: SpawnOptions): string[] {
  return Object.entries(options.environment ?? {}).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
}

/** The trailing shell-command argument, if any (put last). */
export function shellArgument(options: SpawnOptions): string[] {
  return options.shell === undefined ? [] : [options.shell];
}

/**
 * The environment that keeps a shell from writing its history file (bash, zsh: HISTFILE empty;
 * fish: private mode) and from recording space-prefixed commands (HISTCONTROL). A caller value
 * that contradicts it is refused, naming the variable only.
 */
export function withoutPersistentHistory(
  environment: Readonly<Record<string, string>> = {},
  field = 'environment',
): Record<string, string> {
  const wanted: Record<string, string> = { HISTFILE: '', fish_history: '', fish_private_mode: '1' };
  for (const [name, value] of Object.entries(wanted)) {
    if (environment[name] !== undefined && environment[name] !== value) {
      throw invalidArgument(
        `${field}.${name} conflicts with suppress_persistent_history`,
        `Leave ${name} out, or turn suppress_persistent_history off.`,
      );
    }
  }
  const control = environment.HISTCONTROL;
  const histcontrol =
    control === undefined || control === ''
      ? 'ignorespace'
      : /(^|:)(ignorespace|ignoreboth)(:|$)/.test(control)
        ? control
        : `${control}:ignorespace`;
  return { ...environment, ...wanted, HISTCONTROL: histcontrol };
}
