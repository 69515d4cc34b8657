/** Memory at rest: our server's process tree after mixed calls, against the no-op SDK server after as many. */
import { BEFORE } from '../before.js';
import { servers, type Base } from '../base.js';
import { sleep } from '../measure.js';
import type { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { check, table } from '../report.js';

/** The first read: past the 2 s after which the regex search worker ends. */
const SOON_MS = 3000;
/** The read at rest: past the idle time after which V8's memory reducer collects (about 30 s on Node 20). */
const REST_MS = 60_000;
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

/**
 * RSS (MB, 10^6 bytes) of the server and its children after `count` calls: SOON_MS after the last
 * (the young generation still as the work left it), and REST_MS after it, once V8's own memory
 * reducer has had the idle time it waits for. Resolves when both are read; the calls are made at once.
 */
async function rss(driver: McpDriver, calls: ReadonlyArray<[string, Record<string, unknown>]>, count: number) {
  for (let made = 0; made < count; made++) await driver.ok(...calls[made % calls.length]!);
  const readAfter = (msec: number) => sleep(msec).then(() => mb(driver.treeMemory()));
  const both = Promise.all([readAfter(SOON_MS), readAfter(REST_MS)]);
  return { read: both.then(([soon, rest]) => ({ soon, rest })) };
}

export async function memoryScenario(base: Base): Promise<void> {
  const count = opts.sizes.restCalls;
  const row = table(
    'Memory at rest',
    `VmRSS in MB (10^6 bytes) of the server and its child processes (our \`tmux -C\` clients), ${SOON_MS / 1000} s and ${REST_MS / 1000} s after the last of ${count} calls: ` +
      'ours after mixed calls (reads, typing, a batch, a search, now and then a command and a wait), the no-op SDK server (bundled as ours is) after as many of its own. ' +
      `At rest means ${REST_MS / 1000} s: V8 gives back the young generation and the old generation's garbage once the process has been idle for a while (about 30 s here).`,
  );
  const all = await servers(base, ['noop', 'ours', 'before']);
  try {
    const noop = await rss(all.noop, [['noop', {}]], count);
    const ours = await rss(all.ours, mixedCalls(base), count);
    const before = all.before ? await rss(all.before, mixedCalls(base), count) : undefined;
    const [floor, mine, then] = await Promise.all([noop.read, ours.read, before?.read]);
    const recorded = then ? undefined : BEFORE.memoryMb;
    row({
      name: `no-op SDK server, ${SOON_MS / 1000} s after ${count} calls`,
      value: floor!.soon,
      unit: 'MB',
      note: 'before: 80.4, unbundled then',
    });
    row({
      name: `ours, ${SOON_MS / 1000} s after ${count} mixed calls (server + tmux clients)`,
      value: mine!.soon,
      unit: 'MB',
      ...(then ? { before: then.soon } : { before: recorded }),
    });
    row({ name: `no-op SDK server at rest (${REST_MS / 1000} s)`, value: floor!.rest, unit: 'MB' });
    row({ name: `ours at rest (${REST_MS / 1000} s)`, value: mine!.rest, unit: 'MB', ...(then ? { before: then.rest } : {}) });
    check('memory at rest', 'no-op SDK server + 20 MB', mine!.rest, floor!.rest + 20, 'MB');
    check(`memory ${SOON_MS / 1000} s after the calls`, 'no-op SDK server + 20 MB', mine!.soon, floor!.soon + 20, 'MB');
  } finally {
    await all.close();
  }
}
