/**
 * How tmux reads a command's arguments, from the running tmux's own `list-commands`: which flags
 * take a value and what that value names. core/targets/scope-gate.ts reads the targets of every
 * command through it, so no command can name a session, window or pane the scope rule has not seen,
 * and a flag a later tmux adds (3.5's `send-keys -c`, `list-clients -f`) is read as that tmux reads it.
 */
import type { TmuxServer } from './server.js';

/** What a flag's value names, for the scope rule. */
export type TargetKind = 'session' | 'window' | 'pane';

export interface ParsedCommand {
  readonly name: string;
  /** False for a command this table does not know (its arguments were not read). */
  readonly known: boolean;
  /** Flags given without a value (`-g`, `-a`, ...). */
  readonly switches: ReadonlySet<string>;
  /** Flags given with a value, by letter. */
  readonly values: ReadonlyMap<string, string>;
  /** Arguments after the flags (a new name, a key, a shell command, ...). */
  readonly positionals: readonly string[];
}

/** Each command's flags that take a value, with tmux's word for that value (target-pane, src-window, ...). */
export class CommandTable {
  readonly #valueFlags: ReadonlyMap<string, Readonly<Record<string, string>>>;

  constructor(valueFlags: ReadonlyMap<string, Readonly<Record<string, string>>>) {
    this.#valueFlags = valueFlags;
  }

  /**
   * From `list-commands -F '#{command_list_name} #{command_list_usage}'`: a usage such as
   * `[-dP] [-c start-directory] [-t target-window] [shell-command]` names each valued flag with its word.
   */
  static fromUsage(lines: readonly string[]): CommandTable {
    const table = new Map<string, Record<string, string>>();
    for (const line of lines) {
      const [name = '', ...usage] = line.split(' ');
      if (name === '') continue;
      const flags: Record<string, string> = {};
      for (const match of usage.join(' ').matchAll(/\[-([A-Za-z]) ([^\]\s]+)\]/g)) flags[match[1]!] = match[2]!;
      table.set(name, flags);
    }
    return new CommandTable(table);
  }

  /** Reads argv as tmux's getopt would: clusters like `-dP`, a value in the same word or the next, `--` ends flags. */
  parse(argv: readonly string[]): ParsedCommand {
    return parseWith(this.#valueFlags.get(argv[0] ?? ''), argv);
  }

  /** What the value of `flag` names in `command`: a session, window or pane target; undefined for anything else. */
  targetKind(command: string, flag: string): TargetKind | undefined {
    const word = this.#valueFlags.get(command)?.[flag];
    if (word === undefined) return undefined;
    if (/^(target|dst|src)-session$/.test(word)) return 'session';
    if (/^(target|dst|src)-window$/.test(word)) return 'window';
    if (/^(target|dst|src)-pane$/.test(word)) return 'pane';
    return undefined;
  }

  /** The flags of `command` that name a session, window or pane (`-t`, and `-s` where it is a source). */
  targetFlags(command: string): string[] {
    const flags = this.#valueFlags.get(command);
    return flags ? Object.keys(flags).filter((flag) => this.targetKind(command, flag) !== undefined) : [];
  }
}

const USAGE_FORMAT = '#{command_list_name} #{command_list_usage}';
/** The table of each tmux server, read once per connection (a server restarted may be another version). */
const tables = new WeakMap<TmuxServer, { readonly epoch: number; readonly table: Promise<CommandTable> }>();

/** The argument table of the tmux `tmux` talks to, from its own `list-commands`. */
export function commandTable(tmux: TmuxServer): Promise<CommandTable> {
  const kept = tables.get(tmux);
  if (kept && kept.epoch === tmux.connectionEpoch && kept.epoch !== 0) return kept.table;
  const table = tmux.run(['list-commands', '-F', USAGE_FORMAT], { ungated: true }).then((lines) => CommandTable.fromUsage(lines));
  tables.set(tmux, { epoch: tmux.connectionEpoch, table });
  table.catch(() => tables.delete(tmux));
  return table;
}

function parseWith(table: Readonly<Record<string, string>> | undefined, argv: readonly string[]): ParsedCommand {
  const name = argv[0] ?? '';
  const switches = new Set<string>();
  const values = new Map<string, string>();
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (table?.[letter] !== undefined) {
        values.set(letter, j + 1 < arg.length ? arg.slice(j + 1) : (argv[++i] ?? ''));
        break;
      }
      switches.add(letter);
    }
  }
  return { name, known: table !== undefined, switches, values, positionals: argv.slice(i) };
}
