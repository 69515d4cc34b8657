/**
 * Reading and changing tmux's environment tables (global, or one session's): what tmux passes to
 * the programs of panes it starts from then on (running programs keep their own). The listing is one `NAME=value`
 * line per variable, but a value may itself contain newlines and so fake further lines; every
 * name the listing suggests is therefore read again on its own, and only what tmux confirms is kept.
 */
import type { Engine } from '../engine.js';
import { invalidArgument, notFound, tmuxSaid } from '../failure.js';

/** Variable name -> value; null marks a variable the table removes (`-NAME`, set-environment -r). */
export type Environment = Record<string, string | null>;

/** The global table, or `sessionId`'s own table (without the inherited global entries). */
export async function showEnvironment(engine: Engine, sessionId?: string): Promise<Environment> {
  const where = sessionId === undefined ? ['-g'] : ['-t', sessionId];
  const listing = (await engine.runIfServer(['show-environment', ...where])) ?? [];
  const candidates = new Set<string>();
  for (const line of listing) {
    const removed = /^-([^=\s]+)$/.exec(line);
    const set = /^([^=\s-][^=]*)=/.exec(line);
    const name = removed?.[1] ?? set?.[1];
    if (name) candidates.add(name);
  }
  const entries = await Promise.all([...candidates].map(async (name) => [name, await readOne(engine, where, name)] as const));
  const environment: Environment = {};
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}

/** The confirmed value; null when removed; undefined when tmux has no such variable (a forged row). */
async function readOne(engine: Engine, where: string[], name: string): Promise<string | null | undefined> {
  let lines: string[];
  try {
    lines = await engine.run(['show-environment', ...where, name]);
  } catch (error) {
    if (tmuxSaid(error, /unknown variable/i)) return undefined;
    throw error;
  }
  const text = lines.join('\n');
  if (text === `-${name}`) return null;
  return text.startsWith(`${name}=`) ? text.slice(name.length + 1) : undefined;
}

/** Portable environment variable names: a letter or `_`, then letters, digits and `_`. */
export const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const MAX_ENVIRONMENT_VALUE_CHARS = 65_536;

function checkEnvironmentName(name: string, field = 'name'): void {
  if (!ENVIRONMENT_NAME.test(name)) {
    throw invalidArgument(
      `${field} must be an environment variable name (a letter or "_", then letters, digits or "_"; at most 256), got ${JSON.stringify(name.slice(0, 80))}`,
    );
  }
}

/**
 * Sets `name` to `value` in the global table or `sessionId`'s, and returns the value tmux now
 * holds. Panes started afterwards (in that session, or anywhere for the global table) get it.
 */
export async function setEnvironment(engine: Engine, name: string, value: string, sessionId?: string): Promise<string> {
  checkEnvironmentName(name);
  if (value.includes('\0')) throw invalidArgument('value must not contain NUL bytes');
  if (value.length > MAX_ENVIRONMENT_VALUE_CHARS) throw invalidArgument(`value is longer than ${MAX_ENVIRONMENT_VALUE_CHARS} characters`);
  const where = tableFlags(sessionId);
  // `--`: a value such as "-r" stays the value.
  await changeTable(engine, ['set-environment', ...where, '--', name, value]);
  const now = await readOne(engine, where, name);
  return now ?? '';
}

/**
 * Takes `name` out of the table. `remove: true` instead marks it removed (tmux's `-r`), so new
 * panes do not get it even when it is in the environment tmux itself started with.
 */
export async function unsetEnvironment(
  engine: Engine,
  name: string,
  options: { sessionId?: string; remove?: boolean } = {},
): Promise<void> {
  checkEnvironmentName(name);
  await changeTable(engine, ['set-environment', options.remove ? '-r' : '-u', ...tableFlags(options.sessionId), '--', name]);
}

const tableFlags = (sessionId: string | undefined): string[] => (sessionId === undefined ? ['-g'] : ['-t', sessionId]);

async function changeTable(engine: Engine, command: string[]): Promise<void> {
  try {
    await engine.run(command);
  } catch (error) {
    if (tmuxSaid(error, /can't find|no such/i)) {
      throw notFound(`no session ${command[command.indexOf('-t') + 1]} on this tmux server`, 'Call list_sessions to see what exists now.');
    }
    throw error;
  }
}
