/** Memory at rest: our server's process tree after mixed calls, against the no-op SDK server after as many. */
import { BEFORE } from '../before.js';
import { servers, type Base } from '../base.js';
import { sleep } from '../measure.js';
import type { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { check, table } from '../report.js';

/** Rest before RSS is read: past the 2 s after which the regex search worker ends. */
const REST_MS = 3000;
const mb = (mib: number) => (mib * 2 ** 20) / 1e6;

/** The mixed calls, as the run before made them: reads, typing, a batch, and every 25th call a command or a wait. */
function mixedCalls(base: Base): Array<[string, Record<string, unknown>]> {
  const [a, b, c] = base.others;
  const reads = [
    { tool: 'capture_pane', arguments: { paneId: base.shell } },
    { tool: 'get_pane_info', arguments: { paneId: a } },
  ];
  const cycle: Array<[string, Record<string, unknown>]> = [
    ['list_sessions', {}],
    ['list_panes', {}],
    ['get_pane_info', { paneId: base.shell }],
    ['capture_pane', { paneId: a }],
    ['send_keys', { paneId: base.sink, keys: ['x'], literal: true, enter: true }],
    ['call_read_tools_batch', { operations: [...reads, ...reads] }],
    ['list_windows', {}],
    ['capture_pane', { paneId: b, start: -100 }],
    ['snapshot_pane', { paneId: c }],
    ['search_panes', { pattern: 'quick brown', scrollbackLines: 50 }],
  ];
  const rare: Array<[string, Record<string, unknown>]> = [
    ['run_shell_command', { paneId: base.shell, command: 'true' }],
    ['wait_for_text', { paneId: a, patterns: ['quick brown'], timeoutMs: 100 }],
  ];
  return Array.from({ length: 50 }, (_, i) => (i % 25 === 24 ? rare[(i / 25) | 0]! : cycle[i % cycle.length]!));
}

/** RSS (MB, 10^6 bytes) of the server and its children, REST_MS after the last of `count` calls. */
async function restingRss(driver: McpDriver, calls: ReadonlyArray<[string, Record<string, unknown>]>, count: number): Promise<number> {
  for (let made = 0; made < count; made++) await driver.ok(...calls[made % calls.length]!);
  await sleep(REST_MS);
  return mb(driver.treeMemory());
}

export async function memoryScenario(base: Base): Promise<void> {
  const count = opts.sizes.restCalls;
  const row = table(
    'Memory at rest',
    `VmRSS in MB (10^6 bytes) of the server and its child processes (our \`tmux -C\` clients), ${REST_MS / 1000} s after the last of ${count} calls: ` +
      'ours after mixed calls (reads, typing, a batch, a search, now and then a command and a wait), the no-op SDK server (bundled as ours is) after as many of its own.',
  );
  const { noop, ours, close } = await servers(base, ['noop', 'ours']);
  try {
    const floor = await restingRss(noop, [['noop', {}]], count);
    const mine = await restingRss(ours, mixedCalls(base), count);
    row({ name: `no-op SDK server after ${count} calls`, value: floor, unit: 'MB', note: 'before: 80.4, unbundled then' });
    row({ name: `ours after ${count} mixed calls (server + tmux clients)`, value: mine, unit: 'MB', before: BEFORE.memoryMb });
    check('memory at rest', 'no-op SDK server + 20 MB', mine, floor + 20, 'MB');
  } finally {
    await close();
  }
}
