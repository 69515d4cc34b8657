/**
 * What the running tmux's own option table says of an option name: the full name tmux takes it for
 * (tmux accepts any unique prefix, and old spellings), whether that option is a hook (a command
 * tmux runs on an event) and whether it lives in the server table (one value for every session,
 * whatever target it is set through). Asked of tmux on each call, never kept or listed here.
 */
import type { Engine } from '../engine.js';
import { asFailure, Failure } from '../failure.js';

export interface OptionEntry {
  /** The name tmux resolves the given one to (`exit-un` -> `exit-unattached`), without an index. */
  readonly name: string;
  readonly hook: boolean;
  readonly server: boolean;
}

/** The first word of a listed row, without its array index or the `*` of an inherited value. */
const rowName = (line: string): string => (line.split(' ')[0] ?? '').replace(/\*$/, '').replace(/\[\d+\]$/, '');

/** The table entry of `name`; undefined for a user option (`@name`), which tmux keeps wherever it is set. */
export async function optionEntry(engine: Engine, name: string): Promise<OptionEntry | undefined> {
  if (name.startsWith('@')) return undefined;
  // show-hooks with a name prints any option, under the full name tmux resolves (options_match).
  const [resolved, sessionHooks, windowHooks, server] = await Promise.all([
    engine.run(['show-hooks', '-g', '--', name]).catch((error: unknown) => {
      const failure = asFailure(error);
      if (failure?.kind !== 'tmux_failed') throw error;
      throw new Failure(
        'invalid_argument',
        `tmux refused option ${name}: ${failure.message.trim()}`,
        'Check the name against man tmux (OPTIONS); nothing was changed.',
        {
          touched: false,
        },
      );
    }),
    engine.run(['show-hooks', '-g']),
    engine.run(['show-hooks', '-gw']),
    engine.run(['show-options', '-s']),
  ]);
  const full = rowName(resolved[0] ?? name);
  const named = (lines: readonly string[]) => lines.some((line) => rowName(line) === full);
  return { name: full, hook: named(sessionHooks) || named(windowHooks), server: named(server) };
}
