/**
 * Reading tmux's environment tables (global, or one session's). The listing is one `NAME=value`
 * line per variable, but a value may itself contain newlines and so fake further lines; every
 * name the listing suggests is therefore read again on its own, and only what tmux confirms is kept.
 */
import { TmuxCommandError } from '../tmux/errors.js';
import type { Engine } from './engine.js';

/** Variable name -> value; null marks a variable the table removes (`-NAME`, set-environment -r). */
export type Environment = Record<string, string | null>;

/** The global table, or `sessionId`'s own table (without the inherited global entries). */
export async function showEnvironment(engine: Engine, sessionId?: string): Promise<Environment> {
  const where = sessionId === undefined ? ['-g'] : ['-t', sessionId];
  const listing = (await engine.tmux.runIfServer(['show-environment', ...where])) ?? [];
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
    lines = await engine.tmux.run(['show-environment', ...where, name]);
  } catch (error) {
    if (error instanceof TmuxCommandError && /unknown variable/i.test(error.message)) return undefined;
    throw error;
  }
  const text = lines.join('\n');
  if (text === `-${name}`) return null;
  return text.startsWith(`${name}=`) ? text.slice(name.length + 1) : undefined;
}
