/** The tmux server the scenarios share (one session, 8 panes, as the run before measured) and the servers beside ours. */
import { McpDriver } from './mcp.js';
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

/** The servers a scenario compares, over stdio on the shared tmux: ours, the no-op SDK server and the peers' stand-ins. */
export async function servers<K extends 'ours' | 'noop' | 'nickgnd' | 'python'>(
  base: Base,
  which: readonly K[],
): Promise<Record<K, McpDriver> & { close(): Promise<void> }> {
  const started: Partial<Record<K, McpDriver>> = {};
  const close = () => Promise.all(Object.values<McpDriver | undefined>(started).map((driver) => driver?.close())).then(() => {});
  try {
    for (const name of which)
      started[name] = name === 'ours' ? await McpDriver.ours(base.tmux.env) : await McpDriver.bench(name, base.tmux.env);
  } catch (error) {
    await close();
    throw error;
  }
  return { ...(started as Record<K, McpDriver>), close };
}
