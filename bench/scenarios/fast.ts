/** Fast tools over stdio in each profile, against the floor and against the in-process cost of a read. */
import { performance } from 'node:perf_hooks';
import { parseCli } from '../../src/cli/options.js';
import { EngineRegistry } from '../../src/core/servers/registry.js';
import type { Profile } from '../../src/mcp/server.js';
import { buildProfile } from '../../src/profiles/index.js';
import { batchOperations, fastCalls, RUN_OVER_FLOOR_MS, READ_OVER_FLOOR_MS, stdioP50, type Base, type Floor } from '../base.js';
import { interleave, toolRow } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table, type Row, type Table } from '../report.js';
import { ms, summarize } from '../stats.js';
import type { BenchTmux } from '../tmux.js';
import type { Operation } from './parity.js';

export async function fastScenario(base: Base, floorInfo: Floor): Promise<void> {
  const floor = floorInfo.summary;
  const t = table(
    'Fast tools (one session, 8 panes)',
    `Each row: warm-up, then timed calls; ratio = p50 / floor p50. The floor-relative targets of the reads, send_keys and ` +
      `run_shell_command are held in "Fast tools against the floor, interleaved" below; here, the 16-read batch at most 16 x the ` +
      'in-process cost of one read (the nested tools\' handlers called in this process, no MCP: the table below) + the floor.',
  );
  addRow(t, { name: 'floor: no-op SDK server, tool returning {}', summary: floor, ratio: 1, cpu: floor.cpu, note: 'same SDK, same stdio transport' });
  const reads = batchOperations(base);
  const inProcess = await inProcessReads(base, reads.operations);
  const driver = await McpDriver.ours(base.tmux.env);
  try {
    const f = floor.p50;
    const calls = fastCalls(base);
    // Measured one after another these rows show CPU per call; their targets are held in the
    // interleaved table below, where the floor is measured call for call beside each of them.
    for (const call of calls.slice(0, -1)) {
      stdioP50.set(call.name, (await toolRow(t, driver, call.name, call.tool, call.args, { ...call, floor: f })).summary?.p50);
    }
    if (!driver.has('call_read_tools_batch')) addRow(t, { name: 'call_read_tools_batch (16 reads)', unavailable: true });
    else {
      const oneEach = inProcess.total;
      await toolRow(t, driver, `call_read_tools_batch (16 reads: ${reads.summary})`, 'call_read_tools_batch', () => ({ operations: reads.operations }), {
        target: oneEach + f,
        goal: `16 x in-process read (${ms(oneEach)}) + floor (${ms(f)})`,
        floorValue: oneEach + f,
        floor: f,
      });
    }
    const shell = calls.at(-1)!;
    stdioP50.set(shell.name, (await toolRow(t, driver, shell.name, shell.tool, shell.args, { ...shell, floor: f })).summary?.p50);
    await floorInterleaved(base, driver, calls);
    await juliaRows(t, base, f);
    await pythonRows(t, base, f);
  } finally {
    await driver.close();
  }
  const inTable = table(
    'In-process cost of one read',
    'The batch\'s nested reads called in this process through their tool handlers (argument shapes, engine, tmux over one control ' +
      'connection, wire records), with no MCP request, validation or JSON: what a read costs before any protocol. Interleaved, warmed.',
  );
  for (const row of inProcess.rows) addRow(inTable, row);
  inTable.after.push(`16 reads as the batch makes them (${reads.summary}), one after another at these p50s: ${ms(inProcess.total)} ms.`);
  console.log('  ' + inTable.after.at(-1));
}

/**
 * p50 of each distinct nested read of the batch, called in this process through its tool handler
 * against the same tmux server (interleaved, warmed), and the sum over the batch's 16 operations.
 */
async function inProcessReads(base: Base, operations: ReadonlyArray<{ tool: string; arguments: Record<string, unknown> }>) {
  const { profile, close } = await inProcessProfile(base.tmux);
  try {
    const kinds = [...new Set(operations.map((op) => op.tool))];
    const samples = new Map<string, number[]>(kinds.map((k) => [k, []]));
    const call = async (op: { tool: string; arguments: Record<string, unknown> }) => {
      const tool = profile.tools.find((each) => each.name === op.tool)!;
      const start = performance.now();
      await tool.handler(op.arguments, { ctx: profile.context, signal: new AbortController().signal, progress: async () => {} });
      return performance.now() - start;
    };
    const rounds = Math.max(50, Math.ceil(opts.iterations / operations.length));
    for (let round = 0; round < rounds * 2; round++) {
      for (const op of operations) {
        const took = await call(op);
        if (round >= rounds) samples.get(op.tool)!.push(took); // the first half warms up
      }
    }
    const p50 = new Map(kinds.map((k) => [k, summarize(samples.get(k)!).p50]));
    const rows: Row[] = kinds.map((k) => ({ name: `${k} (handler, in process)`, summary: summarize(samples.get(k)!) }));
    return { rows, total: operations.reduce((sum, op) => sum + p50.get(op.tool)!, 0) };
  } finally {
    await close();
  }
}

/** Our libtmux profile in this process, on its own control connection to `tmux`, built as src/cli.ts builds it. */
async function inProcessProfile(tmux: BenchTmux) {
  const action = parseCli([], tmux.env);
  if (action.kind !== 'serve') throw new Error('the bench environment did not make a server configuration');
  const { config } = action;
  const registry = new EngineRegistry({
    bin: config.tmuxBin,
    commandTimeoutMs: config.commandTimeoutMs,
    engine: { waitMaxMs: config.waitMaxMs },
    defaultLocation: { socketName: config.socketName, socketPath: config.socketPath },
  });
  const { profile, close } = await buildProfile(config, registry, false);
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
    const screen = target(base.others[0]!);
    const sink = target(base.sink);
    await toolRow(t, driver, 'julia: list_panes (8 panes)', 'list_panes', () => ({}), { target: 1.0, floor });
    await toolRow(t, driver, 'julia: capture_pane (50 lines: the screen)', 'capture_pane', () => ({ target: screen, lines: 50 }), { target: 1.0, floor });
    await toolRow(t, driver, 'julia: send_keys (one key + Enter)', 'send_keys', () => ({ target: sink, keys: ['x', 'Enter'] }), { target: 1.0, floor });
  } finally {
    await driver.close();
  }
}



/**
 * Each fast call against the floor, call for call: one to our server, one to the no-op server, in
 * turn, so the floor each target adds its margin to is the floor of the same seconds (between runs
 * of the same machine the floor alone moved from 0.12 to 0.23 ms). Here the targets are held.
 */
async function floorInterleaved(base: Base, driver: McpDriver, calls: ReturnType<typeof fastCalls>): Promise<void> {
  const t = table(
    'Fast tools against the floor, interleaved',
    `Each call alternated with a call to the no-op SDK server (the floor) on the same stdio transport, warmed; p50 of each. ` +
      `Targets: every read and send_keys at most that floor + ${READ_OVER_FLOOR_MS} ms, run_shell_command \`true\` at most that floor + ${RUN_OVER_FLOOR_MS} ms.`,
  );
  const noop = await McpDriver.noop(base.tmux.env);
  try {
    for (const call of calls) {
      if (!driver.has(call.tool)) continue;
      const [mine, floors] = await interleave([{ driver, tool: call.tool, args: call.args() }, { driver: noop, tool: 'noop', args: {} }], call.iterations, call.warmup);
      const floor = summarize(floors!);
      addRow(t, { name: `floor, beside ${call.name}`, summary: floor, ratio: 1, note: 'interleaved with the next row' });
      const summary = summarize(mine!);
      addRow(t, {
        name: call.name,
        summary,
        ratio: summary.p50 / floor.p50,
        target: floor.p50 + call.overFloor,
        goal: `floor + ${call.overFloor} ms`,
        floorValue: floor.p50,
      });
    }
  } finally {
    await noop.close();
  }
}

/**
 * The same operations through the python profile (its wire names), in the same harness, beside the
 * libtmux rows; then each one again against libtmux's, interleaved (pythonParity), so the two are
 * compared under the same machine state rather than a minute apart.
 */
async function pythonRows(t: Table, base: Base, f: number): Promise<void> {
  // Their targets: against libtmux's rows, interleaved (pythonParity).
  const read = { floor: f };
  const panes = [base.shell, ...base.others];
  const reads = Array.from({ length: 16 }, (_, i) => ({ tool: i % 2 ? 'capture_pane' : 'get_pane_info', arguments: { pane_id: panes[i % panes.length] } }));
  const pairs = pythonPairs(base);
  const driver = await McpDriver.ours({ ...base.tmux.env, TMUX_MCP_PROFILE: 'python' });
  try {
    for (const pair of pairs) await toolRow(t, driver, `python: ${pair.name}`, pair.tool, () => pair.args, read);
    await toolRow(t, driver, 'python: call_read_tools_batch (16 reads: get_pane_info, capture_pane)', 'call_read_tools_batch', () => ({ operations: reads }), { floor: f });
    // Beside the floor, call for call, as run_shell_command is in floorInterleaved: a floor measured
    // minutes earlier says little about the machine now.
    const noop = await McpDriver.noop(base.tmux.env);
    try {
      const [runs, floors] = await interleave(
        [{ driver, tool: 'run_command', args: { pane_id: base.shell, command: 'true' } }, { driver: noop, tool: 'noop', args: {} }],
        Math.min(opts.iterations, 100),
        Math.min(opts.warmup, 5),
      );
      const floor = summarize(floors!);
      addRow(t, { name: 'floor, beside python: run_command `true`', summary: floor, ratio: 1, note: 'interleaved with the next row' });
      const summary = summarize(runs!);
      addRow(t, {
        name: 'python: run_command `true`',
        summary,
        ratio: summary.p50 / floor.p50,
        target: floor.p50 + RUN_OVER_FLOOR_MS,
        goal: `floor + ${RUN_OVER_FLOOR_MS} ms`,
        floorValue: floor.p50,
      });
    } finally {
      await noop.close();
    }
  } finally {
    await driver.close();
  }
}

/** The operations the parity table holds python's against libtmux's, each in its profile's wire names. */
export function parityOperations(base: Base): Array<{ name: string; python: Operation; libtmux: Operation }> {
  return pythonPairs(base).map((pair) => ({ name: pair.name, python: { tool: pair.tool, args: pair.args }, libtmux: { tool: pair.libtmux.tool, args: pair.libtmux.args() } }));
}

/** Each python operation of the fast table with its libtmux twin. */
export function pythonPairs(base: Base) {
  const same = fastCalls(base);
  return [
    { name: 'list_sessions', tool: 'list_sessions', args: {}, libtmux: same[0]! },
    { name: 'list_panes (8 panes)', tool: 'list_panes', args: {}, libtmux: same[1]! },
    { name: 'get_pane_info', tool: 'get_pane_info', args: { pane_id: base.shell }, libtmux: same[2]! },
    { name: 'capture_pane (visible screen)', tool: 'capture_pane', args: { pane_id: base.others[0] }, libtmux: same[3]! },
    { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: { pane_id: base.sink, keys: 'x', literal: true }, libtmux: same[4]! },
  ];
}
