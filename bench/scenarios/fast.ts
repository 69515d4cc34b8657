/** Fast tools over stdio in each profile, against the floor and against the in-process cost of a read. */
import { performance } from 'node:perf_hooks';
import { parseCli } from '../../src/cli/options.js';
import { registryFor } from '../../src/cli/engine.js';
import type { Profile } from '../../src/mcp/server.js';
import { buildProfile } from '../../src/profiles/index.js';
import { batchOperations, fastCalls, RUN_OVER_FLOOR_MS, READ_OVER_FLOOR_MS, stdioP50, type Base, type Floor } from '../base.js';
import { interleave, toolRow, type Turn } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table, type Row, type Table } from '../report.js';
import { ms, summarize } from '../stats.js';
import type { BenchTmux } from '../tmux.js';

export async function fastScenario(base: Base, { summary: floor }: Floor): Promise<void> {
  const t = table(
    'Fast tools (one session, 8 panes)',
    'Warm-up, then timed calls; ratio = p50 / floor p50. The floor-relative targets are held in the interleaved table below; ' +
      'the 16-read batch: at most 16 x the in-process cost of one read + the floor.',
  );
  addRow(t, { name: 'floor: no-op SDK server, tool returning {}', summary: floor, ratio: 1, cpu: floor.cpu, note: 'same SDK, same stdio transport' });
  const reads = batchOperations(base);
  const inProcess = await inProcessReads(base, reads.operations);
  const driver = await McpDriver.ours(base.tmux.env);
  try {
    const f = floor.p50;
    const calls = fastCalls(base);
    const row = async (call: (typeof calls)[number]) => stdioP50.set(call.name, (await toolRow(t, driver, call.name, call.tool, call.args, { ...call, floor: f })).summary?.p50);
    for (const call of calls.slice(0, -1)) await row(call);
    const goal = { target: inProcess.total + f, goal: `16 x in-process read (${ms(inProcess.total)}) + floor (${ms(f)})`, floorValue: inProcess.total + f, floor: f };
    await toolRow(t, driver, `call_read_tools_batch (16 reads: ${reads.summary})`, 'call_read_tools_batch', () => ({ operations: reads.operations }), goal);
    await row(calls.at(-1)!);
    // Beside the framed sh pane: the same run in a bash pane with the shell integration (issue 36), no target.
    const bash = await base.tmux.newWindow('bench', 'env PS1="$ " bash --norc --noprofile -i');
    const run = calls.at(-1)!;
    await toolRow(t, driver, 'run_shell_command `true` (integrated bash pane)', 'run_shell_command', () => ({ paneId: bash, command: 'true' }), { floor: f, note: 'beside the framed sh row above', ...(run.iterations ? { iterations: run.iterations } : {}), ...(run.warmup ? { warmup: run.warmup } : {}) });
    await base.tmux.tmux('kill-pane', '-t', bash);
    const floorTable = table(
      'Fast tools against the floor, interleaved',
      `Each call alternated with a call to the no-op SDK server (the floor), warmed; targets: reads and send_keys <= that floor + ${READ_OVER_FLOOR_MS} ms, ` +
        `run_shell_command \`true\` <= that floor + ${RUN_OVER_FLOOR_MS} ms.`,
    );
    await besideFloor(base, calls.filter((call) => driver.has(call.tool)).map((call) => [floorTable, call.name, { driver, tool: call.tool, args: call.args() }, call] as Beside));
    await juliaRows(t, base, f);
    await pythonRows(t, base, f);
  } finally {
    await driver.close();
  }
  const inTable = table('In-process cost of one read', "The batch's nested reads through their tool handlers in this process: no MCP, validation or JSON. Interleaved, warmed.");
  for (const row of inProcess.rows) addRow(inTable, row);
  inTable.after.push(`16 reads as the batch makes them (${reads.summary}), one after another at these p50s: ${ms(inProcess.total)} ms.`);
  console.log('  ' + inTable.after.at(-1));
}

/** p50 of each distinct nested read of the batch through its tool handler in this process (interleaved, warmed), and the sum over the batch. */
async function inProcessReads(base: Base, operations: ReadonlyArray<{ tool: string; arguments: Record<string, unknown> }>) {
  const { profile, close } = await inProcessProfile(base.tmux);
  try {
    const kinds = [...new Set(operations.map((op) => op.tool))];
    const samples = new Map<string, number[]>(kinds.map((k) => [k, []]));
    const rounds = Math.max(50, Math.ceil(opts.iterations / operations.length));
    for (let round = 0; round < rounds * 2; round++) {
      for (const op of operations) {
        const tool = profile.tools.find((each) => each.name === op.tool)!;
        const start = performance.now();
        await tool.handler(op.arguments, { ctx: profile.context, signal: new AbortController().signal, progress: async () => {} });
        if (round >= rounds) samples.get(op.tool)!.push(performance.now() - start); // the first half warms up
      }
    }
    const rows: Row[] = kinds.map((k) => ({ name: `${k} (handler, in process)`, summary: summarize(samples.get(k)!) }));
    return { rows, total: operations.reduce((sum, op) => sum + rows[kinds.indexOf(op.tool)]!.summary!.p50, 0) };
  } finally {
    await close();
  }
}

/** Our libtmux profile in this process, on its own control connection to `tmux`, built as src/cli.ts builds it. */
async function inProcessProfile(tmux: BenchTmux) {
  const action = parseCli([], tmux.env);
  if (action.kind !== 'serve') throw new Error('the bench environment did not make a server configuration');
  const registry = registryFor(action.config);
  const { profile, close } = await buildProfile(action.config, registry, false);
  return {
    profile: profile as Profile<unknown>,
    close: async () => {
      await close?.();
      await registry.close();
    },
  };
}

/** The same reads and input through `--profile julia`: `{paneId, generation}` targets, each call re-checking the generation. */
async function juliaRows(t: Table, base: Base, floor: number): Promise<void> {
  const driver = await McpDriver.ours(base.tmux.env, [], ['--profile', 'julia']);
  try {
    const { panes } = (await driver.call('list_panes', {})).structured as { panes: Array<{ target: { paneId: string } }> };
    const target = (paneId: string) => panes.find((p) => p.target.paneId === paneId)!.target;
    const [screen, sink] = [target(base.others[0]!), target(base.sink)];
    await toolRow(t, driver, 'julia: list_panes (8 panes)', 'list_panes', () => ({}), { target: 1.0, floor });
    await toolRow(t, driver, 'julia: capture_pane (50 lines: the screen)', 'capture_pane', () => ({ target: screen, lines: 50 }), { target: 1.0, floor });
    await toolRow(t, driver, 'julia: send_keys (one key + Enter)', 'send_keys', () => ({ target: sink, keys: ['x', 'Enter'] }), { target: 1.0, floor });
  } finally {
    await driver.close();
  }
}

/** The same operations through the python profile (its wire names); their targets are in the parity table. */
async function pythonRows(t: Table, base: Base, floor: number): Promise<void> {
  const driver = await McpDriver.ours({ ...base.tmux.env, TMUX_MCP_PROFILE: 'python' });
  try {
    for (const pair of parityOperations(base)) await toolRow(t, driver, `python: ${pair.name}`, pair.python.tool, () => pair.python.args, { floor });
    const reads = batchOperations(base, 'pane_id').operations;
    await toolRow(t, driver, 'python: call_read_tools_batch (16 reads: get_pane_info, capture_pane)', 'call_read_tools_batch', () => ({ operations: reads }), { floor });
    const run = fastCalls(base).at(-1)!;
    await besideFloor(base, [[t, 'python: run_command `true`', { driver, tool: 'run_command', args: { pane_id: base.shell, command: 'true' } }, run]]);
  } finally {
    await driver.close();
  }
}

/** The operations the parity table holds python's against libtmux's, each in its profile's wire names. */
export function parityOperations(base: Base) {
  const python = [{}, {}, { pane_id: base.shell }, { pane_id: base.others[0] }, { pane_id: base.sink, keys: 'x', literal: true }];
  return fastCalls(base)
    .slice(0, 5)
    .map((call, i) => ({ name: call.name, python: { tool: call.tool, args: python[i]! }, libtmux: { tool: call.tool, args: call.args() } }));
}

type Beside = [Table, string, Turn, { overFloor: number; iterations?: number; warmup?: number }];

/**
 * Each call alternated with the floor's, call for call (the floor moves between seconds): the floor
 * row, then the call's, held to the floor + `overFloor` ms.
 */
async function besideFloor(base: Base, rows: Beside[]): Promise<void> {
  const noop = await McpDriver.noop(base.tmux.env);
  try {
    for (const [t, name, turn, { overFloor, iterations, warmup }] of rows) {
      const { samples } = await interleave([turn, { driver: noop, tool: 'noop', args: {} }], iterations, warmup);
      const [summary, floor] = samples.map((each) => summarize(each));
      addRow(t, { name: `floor, beside ${name}`, summary: floor, ratio: 1, note: 'interleaved with the next row' });
      addRow(t, { name, summary, ratio: summary!.p50 / floor!.p50, target: floor!.p50 + overFloor, goal: `floor + ${overFloor} ms`, floorValue: floor!.p50 });
    }
  } finally {
    await noop.close();
  }
}
