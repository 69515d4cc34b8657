/** The tmux server most scenarios share (one session, 8 panes), the floor, and the calls several scenarios make. */
import { BenchTmux } from './tmux.js';
import { McpDriver } from './mcp.js';
import { measure } from './measure.js';
import { opts } from './options.js';
import type { Summary } from './stats.js';

/** Lines of `width`-safe text, so history rows are one line each. */
export const fillCommand = (count: number) => `seq -f "%07g the quick brown fox jumps over the lazy dog 0123456789" 1 ${count}; exec cat`;

export interface Base {
  tmux: BenchTmux;
  shell: string;
  sink: string;
  marker: string;
  flood: string;
  others: string[];
}

export async function baseServer(): Promise<Base> {
  const tmux = new BenchTmux();
  // tmux drops the oldest 10% once history reaches the limit: leave room for the biggest capture.
  const shell = await tmux.start({ width: 160, height: 50, historyLimit: Math.max(...opts.lines, 1000) * 2 });
  const sink = await tmux.newWindow('bench', 'stty -echo; exec cat >/dev/null');
  // Prints "MARK-<line>-END <wall clock>" for each line it reads, the clock read right before the write (no fork).
  const marker = await tmux.newWindow('bench', `exec bash --norc --noprofile -c 'while IFS= read -r x; do printf "MARK-%s-END %s\\n" "$x" "$EPOCHREALTIME"; done'`);
  const flood = await tmux.newWindow('bench', 'sh');
  const others = [];
  for (let i = 0; i < 4; i++) others.push(await tmux.newWindow('bench', fillCommand(30)));
  return { tmux, shell, sink, marker, flood, others };
}

/** The no-op SDK server measured alone: the floor of the rows not measured beside their own. */
export interface Floor {
  readonly summary: Summary & { cpu: { server: number; tmux?: number } };
}

/** The no-op server (over stdio, or as `start` starts it) measured alone. */
export async function floorSummary(env: NodeJS.ProcessEnv, start = () => McpDriver.noop(env)): Promise<Floor> {
  const noop = await start();
  try {
    return { summary: await measure(noop, 'noop', () => ({}), { iterations: Math.max(opts.iterations, 200) }) };
  } finally {
    await noop.close();
  }
}

/** Reads and send_keys: at most the floor + this (ms). */
export const READ_OVER_FLOOR_MS = 0.3;
/** run_shell_command `true`: at most the floor + this (ms). */
export const RUN_OVER_FLOOR_MS = 2;

/** The single-tool rows of the fast table, measured over stdio there and over HTTP in the HTTP table. */
export function fastCalls(base: Base) {
  return [
    { name: 'list_sessions', tool: 'list_sessions', args: () => ({}), overFloor: READ_OVER_FLOOR_MS },
    { name: 'list_panes (8 panes)', tool: 'list_panes', args: () => ({}), overFloor: READ_OVER_FLOOR_MS },
    { name: 'get_pane_info', tool: 'get_pane_info', args: () => ({ paneId: base.shell }), overFloor: READ_OVER_FLOOR_MS },
    { name: 'capture_pane (visible screen)', tool: 'capture_pane', args: () => ({ paneId: base.others[0] }), overFloor: READ_OVER_FLOOR_MS },
    { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: () => ({ paneId: base.sink, keys: ['x'], literal: true, enter: true }), overFloor: READ_OVER_FLOOR_MS },
    // Last: the fast table measures the batch before it.
    {
      name: 'run_shell_command `true`',
      tool: 'run_shell_command',
      args: () => ({ paneId: base.shell, command: 'true' }),
      overFloor: RUN_OVER_FLOOR_MS,
      iterations: Math.min(opts.iterations, 100),
      warmup: Math.min(opts.warmup, 5),
    },
  ];
}

/** p50 of each fast row over stdio, for the HTTP table's comparison line. */
export const stdioP50 = new Map<string, number | undefined>();

/** The 16 reads of the batch rows, alternating over the shell and the filled panes; `key`: the profile's pane argument. */
export function batchOperations(base: Base, key = 'paneId') {
  const panes = [base.shell, ...base.others];
  const operations = Array.from({ length: 16 }, (_, i) => ({ tool: i % 2 ? 'get_pane_info' : 'capture_pane', arguments: { [key]: panes[i % panes.length] } }));
  return { operations, summary: '8 capture_pane + 8 get_pane_info' };
}
