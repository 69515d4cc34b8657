/** The tmux server the scenarios share (one session, 8 panes, as the run before measured) and the servers beside ours. */
import { McpDriver, type BenchServer } from './mcp.js';
import { opts } from './options.js';
import { BenchTmux } from './tmux.js';

/** Lines of plain text, one screen row each, then a pane that stays. */
export const fillCommand = (count: number) => `seq -f "%07g the quick brown fox jumps over the lazy dog 0123456789" 1 ${count}; exec cat`;

export interface Base {
  readonly tmux: BenchTmux;
  /** An sh at its prompt: commands run framed here. */
  readonly shell: string;
  /** Swallows what is typed. */
  readonly sink: string;
  /** Prints "MARK-<line>-END <wall clock>" for each line it reads, the clock read right before the write. */
  readonly marker: string;
  /** Panes showing a screen of text. */
  readonly others: readonly string[];
}

export async function baseServer(): Promise<Base> {
  const tmux = new BenchTmux();
  const shell = await tmux.start({ width: 160, height: 50, historyLimit: 2000 });
  const sink = await tmux.newWindow('bench', 'stty -echo; exec cat >/dev/null');
  const marker = await tmux.newWindow(
    'bench',
    `exec bash --norc --noprofile -c 'while IFS= read -r x; do printf "MARK-%s-END %s\\n" "$x" "$EPOCHREALTIME"; done'`,
  );
  await tmux.newWindow('bench', 'sh');
  const others = [];
  for (let i = 0; i < 4; i++) others.push(await tmux.newWindow('bench', fillCommand(30)));
  return { tmux, shell, sink, marker, others };
}

/** A server a scenario compares: ours, ours before the change (--before), the no-op SDK server, a peer's stand-in. */
export type Side = 'ours' | 'before' | 'noop' | 'nickgnd' | 'python';

/** The sides asked for, less `before` when no build before the change was given (--before). */
const present = <K extends Side>(sides: readonly K[]): K[] => sides.filter((side) => side !== 'before' || opts.before !== '');

/** The servers started: each side asked for, `before` only when a build before the change was given. */
type Servers<K extends Side> = Record<Exclude<K, 'before'>, McpDriver> & { before?: McpDriver; close(): Promise<void> };

/** The servers a scenario compares, over stdio on the shared tmux. */
export async function servers<K extends Side>(base: Base, which: readonly K[]): Promise<Servers<K>> {
  const started: Partial<Record<K, McpDriver>> = {};
  const close = () => Promise.all(Object.values<McpDriver | undefined>(started).map((driver) => driver?.close())).then(() => {});
  try {
    for (const name of present(which))
      started[name] =
        name === 'ours'
          ? await McpDriver.ours(base.tmux.env)
          : name === 'before'
            ? await McpDriver.ours(base.tmux.env, [], opts.before)
            : await McpDriver.bench(name as BenchServer, base.tmux.env);
  } catch (error) {
    await close();
    throw error;
  }
  return { ...started, close } as Servers<K>;
}
