/**
 * Reading and setting tmux options at one scope. Names come from tmux's own listing (one escaped
 * row per value, so names cannot be forged by values), and each value is then read raw with `-v`,
 * so quoting, `#` and newlines in values come back exactly as tmux stores them.
 */
import { hasShellJob } from '../../tmux/formats.js';
import { asFailure, Failure, invalidArgument, notFound, tmuxSaid } from '../failure.js';
import type { Engine } from '../engine.js';
import { quoted } from '../quote.js';
import { checkFormatReach, checkReexpanding } from '../targets/scope-formats.js';
import { outside } from '../targets/scope-gate.js';
import { optionEntry } from './option-table.js';

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
const OPTION_NAME = /^@?[A-Za-z0-9][A-Za-z0-9_-]*(\[\d{1,6}\])?$/;
const MAX_NAME = 256;

export function validateOptionName(name: string): void {
  if (name.length > MAX_NAME || !OPTION_NAME.test(name)) {
    throw invalidArgument(
      `name must be a tmux option name (letters, digits, "-", "_", a leading "@" for user options, optionally "[index]"), got ${quoted(name)}`,
    );
  }
}

/** The flags naming `scope`; reads of a local scope add `-A` so an unset option shows what it inherits. */
function scopeFlags(scope: OptionScope, read = true): string[] {
  const inherit = read ? ['-A'] : [];
  switch (scope.kind) {
    case 'server':
      return ['-s'];
    case 'global_session':
      return ['-g'];
    case 'global_window':
      return ['-gw'];
    case 'session':
      return [...inherit, '-t', scope.sessionId];
    case 'window':
      return [...inherit, '-w', '-t', scope.windowId];
    case 'pane':
      return [...inherit, '-p', '-t', scope.paneId];
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
    return await engine.run(['show-options', ...args]);
  } catch (error) {
    if (tmuxSaid(error, /invalid option|unknown option|ambiguous option/i)) {
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

/** Longest option value accepted. */
const MAX_OPTION_VALUE_CHARS = 16_384;

/**
 * Sets the option at `scope` to `value` (tmux checks it against the option's type: numbers,
 * choices like on/off, colours) and returns the value(s) tmux holds now. Refused: a `#(...)` shell
 * job or an E:/T: modifier in a value (tmux would run it from the status line or a border, over
 * and over), a hook (a command tmux runs on events long after this call), and while sessions are
 * limited, a server option (tmux sets it for every session whatever the target) or a format that
 * reaches beyond the scope.
 */
export async function setOption(engine: Engine, scope: OptionScope, name: string, value: string): Promise<OptionValue[]> {
  validateOptionName(name);
  if (value.includes('\0')) throw invalidArgument('value must not contain NUL bytes');
  if (value.length > MAX_OPTION_VALUE_CHARS) throw invalidArgument(`value is longer than ${MAX_OPTION_VALUE_CHARS} characters`);
  if (hasShellJob(value)) {
    throw invalidArgument(
      'value holds a #(...) shell job, which tmux would run as a command whenever it draws the value',
      'Write ##( for a literal "#(".',
    );
  }
  checkReexpanding(value, 'value');
  checkFormatReach(engine.scope, value, 'value');
  // set-option may start a tmux server of its own; with none running there is nothing to set.
  await engine.requireIdentity();
  await checkOptionTable(engine, name);
  // `--` ends the flags, so a value such as "-1" stays the value.
  await changeOption(engine, ['set-option', ...scopeFlags(scope, false), '--', name, value], name);
  return showOption(engine, scope, name);
}

/** Removes the option's value at `scope`: a local option then inherits again, a global one returns to its default. */
export async function unsetOption(engine: Engine, scope: OptionScope, name: string): Promise<void> {
  validateOptionName(name);
  await engine.requireIdentity();
  await checkOptionTable(engine, name);
  await changeOption(engine, ['set-option', '-u', ...scopeFlags(scope, false), '--', name], name);
}

/** Hooks are never set; server options not while sessions are limited: decided by the running tmux's option table. */
async function checkOptionTable(engine: Engine, name: string): Promise<void> {
  const entry = await optionEntry(engine, name);
  if (entry?.hook) {
    throw invalidArgument(
      `option ${quoted(name)} is the tmux hook ${entry.name}: tmux would run its value as a command on every such event, long after this call; this server does not set hooks`,
      'Run the command itself when it is needed (run_shell_command, send_keys); show_hooks lists what is set.',
    );
  }
  if (entry?.server && engine.scope.limitsSessions) {
    throw outside(
      engine.scope,
      `option ${entry.name} is a server option: tmux keeps one value for every session, whatever target it is set through`,
    );
  }
}

async function changeOption(engine: Engine, command: string[], name: string): Promise<void> {
  try {
    await engine.run(command);
  } catch (error) {
    const failure = asFailure(error);
    if (failure?.kind === 'tmux_failed') {
      if (/can't find|no such/i.test(failure.message))
        throw notFound(`${failure.message.trim()}`, 'List what exists now and pick a current target.');
      throw new Failure(
        'invalid_argument',
        `tmux refused option ${name}: ${failure.message.trim()}`,
        'Check the name, the scope it belongs to and the values it takes (man tmux, OPTIONS); nothing was changed.',
        {
          touched: true,
        },
      );
    }
    throw error;
  }
}
