/**
 * Reading tmux options at one scope. Names come from tmux's own listing (one escaped row per
 * value, so names cannot be forged by values), and each value is then read raw with `-v`, so
 * quoting, `#` and newlines in values come back exactly as tmux stores them.
 */
import { TmuxCommandError } from '../tmux/errors.js';
import { invalidArgument, notFound } from './failure.js';
import type { Engine } from './engine.js';
import { quoted } from './quote.js';

/**
 * Where to read: tmux's `-s`, `-g`, `-gw`, or a target's local value with inheritance (`-A`), so
 * an unset local option shows the value it inherits. For a known option name `-g` and `-gw` find
 * it in whichever global table it lives (tmux places it by name); `-s` finds server options only.
 */
export type OptionScope =
  | { readonly kind: 'server' }
  | { readonly kind: 'global_session' }
  | { readonly kind: 'global_window' }
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'window'; readonly windowId: string }
  | { readonly kind: 'pane'; readonly paneId: string };

export interface OptionValue {
  /** As tmux names the value: `history-limit`, or `update-environment[3]` for one array element. */
  readonly name: string;
  readonly value: string;
}

/** Option names: `history-limit`, user options `@my_opt`, optionally one array element `name[2]`. */
export const OPTION_NAME = /^@?[A-Za-z0-9][A-Za-z0-9_-]*(\[\d{1,6}\])?$/;
const MAX_NAME = 256;

export function validateOptionName(name: string): void {
  if (name.length > MAX_NAME || !OPTION_NAME.test(name)) {
    throw invalidArgument(
      `name must be a tmux option name (letters, digits, "-", "_", a leading "@" for user options, optionally "[index]"), got ${quoted(name)}`,
    );
  }
}

function scopeFlags(scope: OptionScope): string[] {
  switch (scope.kind) {
    case 'server':
      return ['-s'];
    case 'global_session':
      return ['-g'];
    case 'global_window':
      return ['-gw'];
    case 'session':
      return ['-A', '-t', scope.sessionId];
    case 'window':
      return ['-A', '-w', '-t', scope.windowId];
    case 'pane':
      return ['-A', '-p', '-t', scope.paneId];
  }
}

/** The option's value(s) at `scope`; an array option gives one row per element. */
export async function showOption(engine: Engine, scope: OptionScope, name: string): Promise<OptionValue[]> {
  validateOptionName(name);
  const flags = scopeFlags(scope);
  const listing = await showOptions(engine, [...flags, name], name);
  // Each listed row is `name[index]* value`; `*` marks an inherited value (with -A).
  const names = listing.map((line) => {
    const space = line.indexOf(' ');
    return (space === -1 ? line : line.slice(0, space)).replace(/\*$/, '');
  });
  if (names.length === 0) {
    throw notFound(
      `option ${name} has no value at scope ${scope.kind}`,
      scope.kind === 'server' || scope.kind === 'global_session' || scope.kind === 'global_window'
        ? 'It may belong to another table: omit scope to let tmux place it by name, or try server, global_session or global_window.'
        : 'User options (@name) set globally are read with scope global_session or global_window.',
    );
  }
  return Promise.all(
    names.map(async (rowName) => ({ name: rowName, value: (await showOptions(engine, ['-v', ...flags, rowName], name)).join('\n') })),
  );
}

async function showOptions(engine: Engine, args: string[], name: string): Promise<string[]> {
  try {
    return await engine.tmux.run(['show-options', ...args]);
  } catch (error) {
    if (error instanceof TmuxCommandError && /invalid option|unknown option|ambiguous option/i.test(error.message)) {
      throw notFound(
        `tmux has no option ${name} here (${error.message.trim()})`,
        name.startsWith('@')
          ? 'User options exist only once set (set-option @name value); check the spelling and the scope.'
          : 'Check the spelling against `man tmux` (OPTIONS); window and pane options need scope global_window, window or pane.',
      );
    }
    throw error;
  }
}
