/**
 * Reading named tmux format variables (`version`, `pane_current_command`, ...), each on its own,
 * with names validated so nothing but a plain variable reference ever reaches tmux's format engine.
 *
 * tmux expands a variable it does not know to "" (no error). A value of "" is reported as null
 * unless the name is one of the variables tmux defines in that context (`display-message -a`),
 * so null means "tmux has no such variable here" and "" means "defined and empty".
 */
import { invalidArgument } from '../failure.js';
import type { Engine } from '../engine.js';
import { quoted } from '../quote.js';
import { checkFormatReach } from '../targets/scope-formats.js';

const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
export const MAX_VARIABLES = 32;

export function validateVariableNames(names: readonly string[]): void {
  if (names.length === 0) throw invalidArgument('names must list at least one variable, e.g. ["version", "pane_current_command"]');
  if (names.length > MAX_VARIABLES) throw invalidArgument(`names lists ${names.length} variables; at most ${MAX_VARIABLES} per call`);
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) {
      throw invalidArgument(`names: ${quoted(name)} is not a tmux variable name (a letter, then letters, digits or "_")`);
    }
  }
}

/** Values of `names`, evaluated globally or, given `paneId` (resolved), for that pane. */
export async function readVariables(engine: Engine, names: readonly string[], paneId?: string): Promise<Record<string, string | null>> {
  validateVariableNames(names);
  for (const name of names) checkFormatReach(engine.scope, `#{${name}}`, `names: ${name}`);
  const target = paneId === undefined ? [] : ['-t', paneId];
  const unique = [...new Set(names)];
  // Pipelined over the control connection: one round trip's worth of latency for all of them.
  const values = await Promise.all(
    unique.map(async (name) => (await engine.run(['display-message', '-p', ...target, `#{${name}}`])).join('\n')),
  );
  const defined = values.some((value) => value === '') ? await definedVariables(engine, target) : new Set<string>();
  const out: Record<string, string | null> = {};
  unique.forEach((name, i) => (out[name] = values[i] === '' && !defined.has(name) ? null : values[i]!));
  return out;
}

async function definedVariables(engine: Engine, target: string[]): Promise<Set<string>> {
  const lines = await engine.run(['display-message', '-a', ...target]);
  const names = new Set<string>();
  for (const line of lines) {
    const eq = line.indexOf('=');
    if (eq > 0 && VARIABLE_NAME.test(line.slice(0, eq))) names.add(line.slice(0, eq));
  }
  return names;
}
