/**
 * How tmux reads a command's arguments, from `tmux list-commands` (tmux 3.3a): which flags take a
 * value and what that value names. core/scope-gate.ts reads the targets of every command through
 * it, so no command can name a session, window or pane the scope rule has not seen.
 */

/** Each command's flags that take a value, with tmux's word for that value (target-pane, src-window, ...). */
const VALUE_FLAGS: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map<string, Readonly<Record<string, string>>>([
  ["attach-session", {"c":"working-directory","f":"flags","t":"target-session"}],
  ["bind-key", {"T":"key-table","N":"note"}],
  ["break-pane", {"F":"format","n":"window-name","s":"src-pane","t":"dst-window"}],
  ["capture-pane", {"b":"buffer-name","E":"end-line","S":"start-line","t":"target-pane"}],
  ["choose-buffer", {"F":"format","f":"filter","K":"key-format","O":"sort-order","t":"target-pane"}],
  ["choose-client", {"F":"format","f":"filter","K":"key-format","O":"sort-order","t":"target-pane"}],
  ["choose-tree", {"F":"format","f":"filter","K":"key-format","O":"sort-order","t":"target-pane"}],
  ["clear-history", {"t":"target-pane"}],
  ["clear-prompt-history", {"T":"type"}],
  ["clock-mode", {"t":"target-pane"}],
  ["command-prompt", {"I":"inputs","p":"prompts","t":"target-client","T":"type"}],
  ["confirm-before", {"p":"prompt","t":"target-client"}],
  ["copy-mode", {"s":"src-pane","t":"target-pane"}],
  ["customize-mode", {"F":"format","f":"filter","t":"target-pane"}],
  ["delete-buffer", {"b":"buffer-name"}],
  ["detach-client", {"E":"shell-command","s":"target-session","t":"target-client"}],
  ["display-menu", {"c":"target-client","t":"target-pane","T":"title","x":"position","y":"position"}],
  ["display-message", {"c":"target-client","d":"delay","F":"format","t":"target-pane"}],
  ["display-popup", {"b":"border-lines","c":"target-client","d":"start-directory","e":"environment","h":"height","s":"style","S":"border-style","t":"target-pane","T":"title","w":"width","x":"position","y":"position"}],
  ["display-panes", {"d":"duration","t":"target-client"}],
  ["find-window", {"t":"target-pane"}],
  ["has-session", {"t":"target-session"}],
  ["if-shell", {"t":"target-pane"}],
  ["join-pane", {"l":"size","s":"src-pane","t":"dst-pane"}],
  ["kill-pane", {"t":"target-pane"}],
  ["kill-server", {}],
  ["kill-session", {"t":"target-session"}],
  ["kill-window", {"t":"target-window"}],
  ["last-pane", {"t":"target-window"}],
  ["last-window", {"t":"target-session"}],
  ["link-window", {"s":"src-window","t":"dst-window"}],
  ["list-buffers", {"F":"format","f":"filter"}],
  ["list-clients", {"F":"format","t":"target-session"}],
  ["list-commands", {"F":"format"}],
  ["list-keys", {"P":"prefix-string","T":"key-table"}],
  ["list-panes", {"F":"format","f":"filter","t":"target-window"}],
  ["list-sessions", {"F":"format","f":"filter"}],
  ["list-windows", {"F":"format","f":"filter","t":"target-session"}],
  ["load-buffer", {"b":"buffer-name","t":"target-client"}],
  ["lock-client", {"t":"target-client"}],
  ["lock-server", {}],
  ["lock-session", {"t":"target-session"}],
  ["move-pane", {"l":"size","s":"src-pane","t":"dst-pane"}],
  ["move-window", {"s":"src-window","t":"dst-window"}],
  ["new-session", {"c":"start-directory","e":"environment","F":"format","f":"flags","n":"window-name","s":"session-name","t":"target-session","x":"width","y":"height"}],
  ["new-window", {"c":"start-directory","e":"environment","F":"format","n":"window-name","t":"target-window"}],
  ["next-layout", {"t":"target-window"}],
  ["next-window", {"t":"target-session"}],
  ["paste-buffer", {"s":"separator","b":"buffer-name","t":"target-pane"}],
  ["pipe-pane", {"t":"target-pane"}],
  ["previous-layout", {"t":"target-window"}],
  ["previous-window", {"t":"target-session"}],
  ["refresh-client", {"f":"flags","t":"target-client"}],
  ["rename-session", {"t":"target-session"}],
  ["rename-window", {"t":"target-window"}],
  ["resize-pane", {"x":"width","y":"height","t":"target-pane"}],
  ["resize-window", {"x":"width","y":"height","t":"target-window"}],
  ["respawn-pane", {"c":"start-directory","e":"environment","t":"target-pane"}],
  ["respawn-window", {"c":"start-directory","e":"environment","t":"target-window"}],
  ["rotate-window", {"t":"target-window"}],
  ["run-shell", {"d":"delay","t":"target-pane"}],
  ["save-buffer", {"b":"buffer-name"}],
  ["select-layout", {"t":"target-pane"}],
  ["select-pane", {"T":"title","t":"target-pane"}],
  ["select-window", {"t":"target-window"}],
  ["send-keys", {"N":"repeat-count","t":"target-pane"}],
  ["send-prefix", {"t":"target-pane"}],
  ["server-access", {"t":"target-pane"}],
  ["set-buffer", {"b":"buffer-name","n":"new-buffer-name","t":"target-client"}],
  ["set-environment", {"t":"target-session"}],
  ["set-hook", {"t":"target-pane"}],
  ["set-option", {"t":"target-pane"}],
  ["set-window-option", {"t":"target-window"}],
  ["show-buffer", {"b":"buffer-name"}],
  ["show-environment", {"t":"target-session"}],
  ["show-hooks", {"t":"target-pane"}],
  ["show-messages", {"t":"target-client"}],
  ["show-options", {"t":"target-pane"}],
  ["show-prompt-history", {"T":"type"}],
  ["show-window-options", {"t":"target-window"}],
  ["source-file", {}],
  ["split-window", {"c":"start-directory","e":"environment","F":"format","l":"size","t":"target-pane"}],
  ["start-server", {}],
  ["suspend-client", {"t":"target-client"}],
  ["swap-pane", {"s":"src-pane","t":"dst-pane"}],
  ["swap-window", {"s":"src-window","t":"dst-window"}],
  ["switch-client", {"c":"target-client","t":"target-session","T":"key-table"}],
  ["unbind-key", {"T":"key-table"}],
  ["unlink-window", {"t":"target-window"}],
  ["wait-for", {}],
]);

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

/** Reads argv as tmux's getopt would: clusters like `-dP`, a value in the same word or the next, `--` ends flags. */
export function parseCommand(argv: readonly string[]): ParsedCommand {
  const name = argv[0] ?? '';
  const table = VALUE_FLAGS.get(name);
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

/** What the value of `flag` names in `command`: a session, window or pane target; undefined for anything else. */
export function targetKind(command: string, flag: string): TargetKind | undefined {
  const word = VALUE_FLAGS.get(command)?.[flag];
  if (word === undefined) return undefined;
  if (/^(target|dst|src)-session$/.test(word)) return 'session';
  if (/^(target|dst|src)-window$/.test(word)) return 'window';
  if (/^(target|dst|src)-pane$/.test(word)) return 'pane';
  return undefined;
}

/** The flags of `command` that name a session, window or pane (`-t`, and `-s` where it is a source). */
export function targetFlags(command: string): string[] {
  const flags = VALUE_FLAGS.get(command);
  return flags ? Object.keys(flags).filter((flag) => targetKind(command, flag) !== undefined) : [];
}
