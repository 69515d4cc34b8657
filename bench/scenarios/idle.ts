/** Memory at rest: the server's process tree after mixed calls, against the no-op server after as many. */
import { batchOperations, type Base } from '../base.js';
import { sleep, ToolError } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { ms } from '../stats.js';

/** Idle RSS after 1,000 mixed calls: at most the floor's + this (MB, 10^6 bytes). */
const IDLE_OVER_FLOOR_MB = 10;
/** Growth from the first to the last checkpoint counted as noise: this, or the floor's own growth if larger (MB). */
const IDLE_NOISE_MB = 2;
const mb = (mib: number) => (mib * 2 ** 20) / 1e6;

/** The calls of the mixed load, in turn: reads, typing, a batch, and now and then a command and a wait. */
function mixedCalls(base: Base, driver: McpDriver): Array<[string, Record<string, unknown>]> {
  const reads = batchOperations(base).operations.slice(0, 4);
  const calls: Array<[string, Record<string, unknown>]> = [
    ['list_sessions', {}],
    ['list_panes', {}],
    ['get_pane_info', { paneId: base.shell }],
    ['capture_pane', { paneId: base.others[0] }],
    ['send_keys', { paneId: base.sink, keys: ['x'], literal: true, enter: true }],
    ['call_read_tools_batch', { operations: reads }],
    ['list_windows', {}],
    ['capture_pane', { paneId: base.others[1], start: -100 }],
    ['snapshot_pane', { paneId: base.others[2] }],
    ['search_panes', { pattern: 'quick brown', scrollbackLines: 50 }],
  ];
  const cycle = calls.filter(([tool]) => driver.has(tool));
  const rare: Array<[string, Record<string, unknown>]> = [
    ['run_shell_command', { paneId: base.shell, command: 'true' }],
    ['wait_for_text', { paneId: base.others[0], patterns: ['quick brown'], timeoutMs: 100 }],
  ];
  return Array.from({ length: 50 }, (_, i) => (i % 25 === 24 ? rare[(i / 25) | 0]! : cycle[i % cycle.length]!)).filter(([tool]) => driver.has(tool));
}

/** V8's own young-generation growth, which the server turns off at start-up unless a semi-space flag is given. */
const UNCAPPED_YOUNG_GENERATION = '--semi-space-growth-factor=2';

/** Seconds at rest before RSS is read: past the 2 s after which the search worker thread is ended. */
const REST_MS = 3000;

/** RSS of the server and its children at rest (REST_MS after the last call) after each checkpoint's number of calls. */
async function restingRss(driver: McpDriver, calls: ReadonlyArray<[string, Record<string, unknown>]>, checkpoints: readonly number[]) {
  const rss: number[] = [];
  let made = 0;
  for (const checkpoint of checkpoints) {
    for (; made < checkpoint; made++) {
      const [tool, args] = calls[made % calls.length]!;
      const outcome = await driver.call(tool, args);
      if (outcome.isError) throw new ToolError(`${tool}: ${outcome.text}`);
    }
    await sleep(REST_MS);
    rss.push(mb(driver.treeMemory()));
  }
  return rss;
}

export async function idleMemoryScenario(base: Base): Promise<void> {
  const checkpoints = opts.idleCalls;
  const t = table(
    'Memory at rest after mixed calls',
    `VmRSS in MB (10^6 bytes) of the server and its tmux control clients, ${REST_MS / 1000} s after the last of N mixed calls, against the no-op server ` +
      `after as many (method: bench/notes.md). Targets: at ${checkpoints[0]} calls <= floor + ${IDLE_OVER_FLOOR_MB} MB; growth to ${checkpoints.at(-1)} calls within noise.`,
  );
  const noop = await McpDriver.noop(base.tmux.env);
  let floor: number[];
  try {
    floor = await restingRss(noop, [['noop', {}]], checkpoints);
  } finally {
    await noop.close();
  }
  const driver = await McpDriver.ours(base.tmux.env);
  let ours: number[];
  try {
    ours = await restingRss(driver, mixedCalls(base, driver), checkpoints);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    addRow(t, { name: 'idle RSS after mixed calls', error: error.message });
    return;
  } finally {
    await driver.close();
  }
  checkpoints.forEach((calls, i) => {
    addRow(t, { name: `floor: no-op server after ${calls} calls`, value: floor[i], unit: 'MB' });
    addRow(t, {
      name: `ours after ${calls} mixed calls (server + tmux clients)`,
      value: ours[i],
      unit: 'MB',
      ...(i === 0 ? { target: floor[0]! + IDLE_OVER_FLOOR_MB, goal: `floor + ${IDLE_OVER_FLOOR_MB} MB`, floorValue: floor[0] } : {}),
    });
  });
  // The same load with V8 left to grow its young generation (as it does by default): what the
  // server's start-up setting (src/idle-memory.ts, capYoungGeneration) saves.
  const uncapped = await McpDriver.ours(base.tmux.env, [UNCAPPED_YOUNG_GENERATION]);
  try {
    const [rss] = await restingRss(uncapped, mixedCalls(base, uncapped), [checkpoints[0]!]);
    addRow(t, { name: `ours after ${checkpoints[0]} mixed calls, node ${UNCAPPED_YOUNG_GENERATION} (V8's default growth)`, value: rss, unit: 'MB', note: 'informational: what the young-generation cap saves' });
  } finally {
    await uncapped.close();
  }
  if (checkpoints.length > 1) {
    const noise = Math.max(IDLE_NOISE_MB, floor.at(-1)! - floor[0]!);
    addRow(t, {
      name: `growth from ${checkpoints[0]} to ${checkpoints.at(-1)} calls`,
      value: ours.at(-1)! - ours[0]!,
      unit: 'MB',
      target: noise,
      goal: `noise (max of ${IDLE_NOISE_MB} MB and the floor's growth ${ms(floor.at(-1)! - floor[0]!)} MB)`,
      floorValue: floor.at(-1)! - floor[0]!,
    });
  }
}

