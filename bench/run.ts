/**
 * `npm run bench`: latency and memory of the built server (dist/cli.js) against private tmux
 * servers, driven through the official SDK Client over stdio (and, for the fast tools, over
 * Streamable HTTP in both eras), side by side with a no-op SDK server on the same transport (the floor). Prints each table as it goes and writes bench/RESULTS.md.
 *
 * Sizes are flags (or BENCH_* env): see `--help`. Tools that the server does not list yet get a
 * "not available" row, so the bench runs at any stage of the project.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { scrubbedEnv, TMUX_BIN } from '../test/fixture/tmux.js';
import { LoopbackSshd, SSHD_BIN } from '../test/fixture/sshd.js';
import { BenchTmux, growPaneFarm } from './tmux.js';
import { McpDriver, processCpuNs, useCli } from './mcp.js';
import { fitLine, meanWithInterval, median, ms, summarize, type Summary } from './stats.js';
import { holdLowLatencyIdle, type IdleHold } from './idle.js';
import { pinToOneCpu } from './pin.js';
import { parseCli } from '../src/cli/options.js';
import { EngineRegistry } from '../src/core/servers/registry.js';
import type { Profile } from '../src/mcp/server.js';
import { buildProfile } from '../src/profiles/index.js';

// ---- parameters -----------------------------------------------------------------------------------

const HELP = `npm run bench -- [options]      (each option also reads BENCH_<NAME> from the environment)
  --iterations N     measured calls per fast tool (default 1000)
  --warmup N         unmeasured calls first, at most half the budget (default 2000: the JIT's steady state)
  --budget-ms N      stop a measurement early once it took this long, keeping >= 5 samples (default 4000)
  --panes LIST       pane counts for the growth farms (default 10,100,200,1000)
  --history N        history lines per farm pane (default 100)
  --lines LIST       history sizes for capture_pane growth (default 100,10000,100000)
  --wait-iterations N  wait_for_text latency samples (default 30)
  --flood-mb N       megabytes printed in the memory test (default 100)
  --only LIST        scenarios to run: start,fast,parity,http,oversight,idle,wait,memory,capture,ssh,hosts,growth (default all)
  --idle-calls LIST  mixed calls before each idle RSS reading (default 1000,10000)
  --start-runs N     cold starts of ours and of the floor, alternately (default 10)
  --clients LIST     concurrent clients for the growth table (default 1,8,64)
  --client-panes LIST  pane counts at which the concurrency table is measured (default 10,100,1000)
  --out FILE         report path (default bench/RESULTS.md; "-" for none)
  --cpu-prof DIR     run our server under node --cpu-prof, profiles into DIR
  --parity-passes N  passes of the python-against-libtmux table, each of four fresh servers (default 16)
  --parity-warmup N  calls of each operation every server of a parity pass makes before it is measured (default 3000)
  --cli FILE         the server to measure (default dist/cli.js), e.g. another build to compare
  --low-latency-idle on|off  hold /dev/cpu_dma_latency at 0 during the run when permitted (default on)`;

function options() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    process.exit(0);
  }
  const get = (name: string, fallback: string): string => {
    const i = argv.indexOf(`--${name}`);
    if (i !== -1 && argv[i + 1] !== undefined) return argv[i + 1]!;
    return process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback;
  };
  const list = (name: string, fallback: string) => get(name, fallback).split(',').map((s) => s.trim()).filter(Boolean);
  const int = (name: string, fallback: number) => {
    const value = Number(get(name, String(fallback)));
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
    return value;
  };
  return {
    iterations: int('iterations', 1000),
    warmup: int('warmup', 2000),
    budgetMs: int('budget-ms', 4000),
    panes: list('panes', '10,100,200,1000').map(Number),
    history: int('history', 100),
    lines: list('lines', '100,10000,100000').map(Number),
    waitIterations: int('wait-iterations', 30),
    floodMb: int('flood-mb', 100),
    only: new Set(list('only', 'start,fast,parity,http,oversight,idle,wait,memory,capture,ssh,hosts,growth')),
    idleCalls: list('idle-calls', '1000,10000').map(Number),
    startRuns: int('start-runs', 10),
    clients: list('clients', '1,8,64').map(Number),
    clientPanes: list('client-panes', '10,100,1000').map(Number),
    out: get('out', fileURLToPath(new URL('./RESULTS.md', import.meta.url))),
    cpuProf: get('cpu-prof', ''),
    parityPasses: int('parity-passes', 16),
    parityWarmup: int('parity-warmup', 3000),
    cli: get('cli', ''),
    lowLatencyIdle: get('low-latency-idle', 'on') !== 'off',
  };
}

const opts = options();
if (opts.cli) useCli(opts.cli);
const nodeArgs = opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProf] : [];
if (opts.cpuProf) mkdirSync(opts.cpuProf, { recursive: true });

// ---- results --------------------------------------------------------------------------------------

interface Row {
  readonly name: string;
  readonly summary?: Summary;
  readonly ratio?: number;
  /** Target in ms for p50 (or the unit of `value`). */
  readonly target?: number;
  /** A single measured value when the row is not a latency distribution (MiB, ms...). */
  readonly value?: number;
  readonly unit?: string;
  readonly note?: string;
  readonly unavailable?: boolean;
  readonly error?: string;
  /** CPU per measured call, microseconds: the server process and the tmux server. */
  readonly cpu?: { readonly server: number; readonly tmux?: number };
  /** How the target is stated when it is relative (e.g. "floor + 0.3 ms"); `target` is then its value in this run. */
  readonly goal?: string;
  /** The reference measured in the same run that the goal is stated against (e.g. the floor's p50). */
  readonly floorValue?: number;
}

interface Table {
  readonly title: string;
  readonly intro?: string;
  readonly rows: Row[];
  readonly after: string[];
}

const tables: Table[] = [];
const targets: Array<{ what: string; target: string; measured: string; floor: string; met: boolean | undefined }> = [];

function table(title: string, intro?: string): Table {
  const t: Table = { title, intro, rows: [], after: [] };
  tables.push(t);
  console.log(`\n## ${title}`);
  return t;
}

function addRow(t: Table, row: Row): Row {
  t.rows.push(row);
  console.log('  ' + renderRow(row).replaceAll(' | ', '  ').replace(/^\| /, '').replace(/ \|$/, ''));
  if (row.target !== undefined) {
    const measured = row.summary?.p50 ?? row.value;
    const unit = row.unit ?? 'ms';
    targets.push({
      what: `${t.title}: ${row.name}`,
      target: `${row.summary ? 'p50 ' : ''}<= ${row.goal ? `${row.goal} = ` : ''}${ms(row.target)} ${unit}`,
      floor: row.floorValue === undefined ? '' : `${ms(row.floorValue)} ${unit}`,
      measured: row.unavailable ? 'not available' : row.error ? `error` : measured === undefined ? '-' : `${ms(measured)} ${unit}`,
      met: row.unavailable || row.error || measured === undefined ? undefined : measured <= row.target,
    });
  }
  return row;
}

function status(row: Row): string {
  if (row.target === undefined) return '';
  if (row.unavailable) return 'not available';
  if (row.error) return 'MISSED (error)';
  const measured = row.summary?.p50 ?? row.value;
  if (measured === undefined) return '';
  return measured <= row.target ? 'MET' : 'MISSED';
}

function renderRow(row: Row): string {
  const cells = (...values: Array<string | number | undefined>) => `| ${values.map((v) => (v === undefined ? '' : String(v))).join(' | ')} |`;
  const target = row.target === undefined ? undefined : ms(row.target);
  if (row.unavailable) return cells(row.name, 'not available', '', '', '', '', '', '', target, 'not available', row.note ?? 'tool not listed by the server yet');
  if (row.error) return cells(row.name, 'error', '', '', '', '', '', '', target, status(row), row.error.replaceAll('|', '/').replaceAll('\n', ' ').slice(0, 160));
  const s = row.summary;
  const unit = row.unit ?? 'ms';
  if (!s) return cells(row.name, row.value === undefined ? '' : `${ms(row.value)} ${unit}`, '', '', '', '', '', '', target, status(row), row.note);
  const cpu = (us: number | undefined) => (us === undefined ? '' : us.toFixed(0));
  return cells(
    row.name, s.n, ms(s.p50), ms(s.p90), ms(s.p99),
    row.ratio === undefined ? '' : row.ratio.toFixed(1) + 'x',
    cpu(row.cpu?.server), cpu(row.cpu?.tmux),
    target, status(row), row.note,
  );
}

// ---- measuring ------------------------------------------------------------------------------------

class ToolError extends Error {}

/** The tmux server of the scenario running now, for the tmux CPU column. */
let currentTmuxPid: number | undefined;

/** Warm-up, then up to `iterations` timed calls (stopping early past the time budget, >= 5 kept). */
async function measure(
  driver: McpDriver,
  tool: string,
  args: () => Record<string, unknown>,
  config: { iterations?: number; warmup?: number; budgetMs?: number; tmuxPid?: number } = {},
): Promise<Summary & { cpu: { server: number; tmux?: number }; last: any }> {
  const iterations = config.iterations ?? opts.iterations;
  const warmup = config.warmup ?? opts.warmup;
  const budget = config.budgetMs ?? opts.budgetMs;
  let last: any;
  const once = async () => {
    const outcome = await driver.call(tool, args());
    if (outcome.isError) throw new ToolError(outcome.text);
    last = outcome.structured;
    return outcome.ms;
  };
  const warmStart = performance.now();
  for (let i = 0; i < warmup; i++) {
    await once();
    if (performance.now() - warmStart > budget / 2 && i >= 1) break;
  }
  const samples: number[] = [];
  const start = performance.now();
  const serverCpu = driver.cpuNs();
  const tmuxCpu = config.tmuxPid ? processCpuNs(config.tmuxPid) : 0;
  while (samples.length < iterations) {
    samples.push(await once());
    if (samples.length >= 5 && performance.now() - start > budget) break;
  }
  const cpu = {
    server: (driver.cpuNs() - serverCpu) / samples.length / 1000,
    tmux: config.tmuxPid ? (processCpuNs(config.tmuxPid) - tmuxCpu) / samples.length / 1000 : undefined,
  };
  return { ...summarize(samples), cpu, last };
}

async function toolRow(
  t: Table,
  driver: McpDriver,
  name: string,
  tool: string,
  args: () => Record<string, unknown>,
  extra: {
    target?: number;
    goal?: string;
    floorValue?: number;
    floor?: number;
    note?: string;
    /** A note made from the last result (e.g. how many panes a search covered). */
    noteOf?: (last: any) => string;
    iterations?: number;
    warmup?: number;
    budgetMs?: number;
    tmuxPid?: number;
  } = {},
): Promise<Row> {
  if (!driver.has(tool)) return addRow(t, { name, unavailable: true, target: extra.target, goal: extra.goal, floorValue: extra.floorValue });
  try {
    const summary = await measure(driver, tool, args, { ...extra, tmuxPid: extra.tmuxPid ?? currentTmuxPid });
    return addRow(t, {
      name,
      summary,
      target: extra.target,
      goal: extra.goal,
      floorValue: extra.floorValue,
      ratio: extra.floor ? summary.p50 / extra.floor : undefined,
      note: [extra.note, extra.noteOf?.(summary.last)].filter(Boolean).join('; '),
      cpu: summary.cpu,
    });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return addRow(t, { name, error: error.message, target: extra.target, goal: extra.goal, floorValue: extra.floorValue, note: extra.note });
  }
}

const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

// ---- scenario: base server --------------------------------------------------------------------------

/** Lines of `width`-safe text, so history rows are one line each. */
const fillCommand = (count: number) => `seq -f "%07g the quick brown fox jumps over the lazy dog 0123456789" 1 ${count}; exec cat`;

interface Base {
  tmux: BenchTmux;
  shell: string;
  sink: string;
  marker: string;
  flood: string;
  others: string[];
}

async function baseServer(): Promise<Base> {
  const tmux = new BenchTmux();
  // tmux drops the oldest 10% once history reaches the limit: leave room for the biggest capture.
  const shell = await tmux.start({ width: 160, height: 50, historyLimit: Math.max(...opts.lines, 1000) * 2 });
  const sink = await tmux.newWindow('bench', 'stty -echo; exec cat >/dev/null');
  // Prints "MARK-<line> <wall clock>" for each line it reads; the clock is read in the same
  // process right before the write (bash's $EPOCHREALTIME, no fork in between).
  const marker = await tmux.newWindow(
    'bench',
    `exec bash --norc --noprofile -c 'while IFS= read -r x; do printf "MARK-%s-END %s\\n" "$x" "$EPOCHREALTIME"; done'`,
  );
  const flood = await tmux.newWindow('bench', 'sh');
  const others = [];
  for (let i = 0; i < 4; i++) others.push(await tmux.newWindow('bench', fillCommand(30)));
  return { tmux, shell, sink, marker, flood, others };
}

interface Floor {
  readonly summary: Summary & { cpu: { server: number; tmux?: number } };
  /** VmRSS of the no-op server after a few calls, MiB: what node plus the SDK take before any code of ours. */
  readonly rss: number;
}

async function floorSummary(env: NodeJS.ProcessEnv): Promise<Floor> {
  const noop = await McpDriver.noop(env);
  try {
    // RSS at the same point as the server's idle RSS: after a few calls, before the timed loop.
    for (let i = 0; i < 9; i++) await noop.call('noop', {});
    await sleep(200);
    const rss = noop.memory('VmRSS');
    const summary = await measure(noop, 'noop', () => ({}), { iterations: Math.max(opts.iterations, 200) });
    return { summary, rss };
  } finally {
    await noop.close();
  }
}

/** Reads and send_keys: at most the floor + this (ms). */
const READ_OVER_FLOOR_MS = 0.3;
/** run_shell_command `true`: at most the floor + this (ms). */
const RUN_OVER_FLOOR_MS = 2;

async function fastScenario(base: Base, floorInfo: Floor): Promise<void> {
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
  const driver = await McpDriver.ours(base.tmux.env, nodeArgs);
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

/** The single-tool rows of the fast table, measured over stdio there and over HTTP in the HTTP table. */
function fastCalls(base: Base) {
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

/** The same reads and input through `--profile julia`: `{paneId, generation}` targets, each call re-checking the generation. */
async function juliaRows(t: Table, base: Base, floor: number): Promise<void> {
  const driver = await McpDriver.ours(base.tmux.env, nodeArgs, ['--profile', 'julia']);
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

/** p50 of each fast row over stdio, for the HTTP table's comparison line. */
const stdioP50 = new Map<string, number | undefined>();

// ---- scenario: oversight (the audit log, the live view) ---------------------------------------------------

/** With the oversight flags on, a send_keys or capture_pane may cost at most this much more (p50, ms). */
const OVERSIGHT_OVER_MS = 0.1;
/** A live view with no browser connected may add at most this (p50, ms): nothing of it runs per call. */
const VIEW_IDLE_OVER_MS = 0.05;

/**
 * The oversight flags the "on" server runs with: the audit log, with a redaction pattern so that
 * redaction is paid for too, and recordings of the panes it acts on.
 */
function oversightFlags(dir: string): string[] {
  mkdirSync(join(dir, 'casts'));
  return ['--audit', join(dir, 'audit.jsonl'), '--audit-redact', 'sk-[A-Za-z0-9]{8,}', '--record', join(dir, 'casts')];
}

async function oversightScenario(base: Base): Promise<void> {
  const dir = mkdtempSync(join(base.tmux.dir, 'oversight-'));
  const flags = oversightFlags(dir);
  const t = table(
    'Oversight: audit log and live view',
    `Four servers on the same tmux, called in turn (every order of the four in rotation, so each has every ` +
      `predecessor equally often; warmed): oversight off; a second, identical "off" server (the control: how far two ` +
      `equal servers differ in this run); on (${flags.join(' ').replace(dir, 'DIR')}); and off with \`--view 127.0.0.1:0\` ` +
      `and no browser connected. Targets: on <= off + ${OVERSIGHT_OVER_MS} ms, view <= off + ${VIEW_IDLE_OVER_MS} ms (p50, same run).`,
  );
  const env = { ...base.tmux.env, TMUX_MCP_TOKEN: 'bench-view-token-0123456789' };
  const drivers = [
    await McpDriver.ours(env, nodeArgs),
    await McpDriver.ours(env, nodeArgs),
    await McpDriver.ours(env, nodeArgs, flags),
    await McpDriver.ours(env, nodeArgs, ['--view', '127.0.0.1:0']),
  ];
  try {
    const calls = [
      { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: { paneId: base.sink, keys: ['x'], literal: true, enter: true } },
      { name: 'capture_pane (visible screen)', tool: 'capture_pane', args: { paneId: base.others[0] } },
    ];
    for (const call of calls) {
      const cpuBefore = drivers.map((driver) => driver.cpuNs());
      const samples = await interleave(
        drivers.map((driver) => ({ driver, tool: call.tool, args: call.args })),
        opts.iterations,
        Math.min(opts.warmup, 500),
        permutations([0, 1, 2, 3]),
      );
      const cpu = drivers.map((driver, i) => ({ server: (driver.cpuNs() - cpuBefore[i]!) / samples[i]!.length / 1000 }));
      const [off, control, on, viewed] = samples.map((each) => summarize(each));
      const beyond = (summary: Summary) => `${summary.p50 >= off!.p50 ? '+' : ''}${ms(summary.p50 - off!.p50)} ms against off`;
      addRow(t, { name: `${call.name}: oversight off`, summary: off!, cpu: cpu[0] });
      addRow(t, { name: `${call.name}: off again (control)`, summary: control!, cpu: cpu[1], note: beyond(control!) });
      addRow(t, {
        name: `${call.name}: --audit --record on`,
        summary: on!,
        cpu: cpu[2],
        target: off!.p50 + OVERSIGHT_OVER_MS,
        goal: `off + ${OVERSIGHT_OVER_MS} ms`,
        floorValue: off!.p50,
        note: beyond(on!),
      });
      addRow(t, {
        name: `${call.name}: --view, no browser`,
        summary: viewed!,
        cpu: cpu[3],
        target: off!.p50 + VIEW_IDLE_OVER_MS,
        goal: `off + ${VIEW_IDLE_OVER_MS} ms`,
        floorValue: off!.p50,
        note: beyond(viewed!),
      });
    }
    const written = readFileSync(join(dir, 'audit.jsonl'), 'utf8').split('\n').length - 1;
    const casts = readdirSync(join(dir, 'casts')).filter((name) => name.endsWith('.cast')).length;
    t.after.push(`The audit log took ${written} lines in this run (every measured and warm-up call of the "on" server), and ${casts} pane recordings were made.`);
    console.log('  ' + t.after.at(-1));
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
  }
}

/** Every order of `items`: interleaved rounds cycling through them give each turn every predecessor alike. */
function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]));
}

// ---- scenario: the same calls over Streamable HTTP ------------------------------------------------------

async function httpScenario(base: Base): Promise<void> {
  const t = table(
    'The same tools over Streamable HTTP',
    'Our server with `--http 127.0.0.1:0` and a bearer token, driven by the SDK client in each protocol era: 2025-11-25 ' +
      '(`initialize`, then calls in its session) and 2026-07-28 (`server/discover`, then each call its own request and ' +
      'server instance). The floor of each era is the no-op server behind the same HTTP stack (dist/mcp/http/serve.js: gates, ' +
      'token, sessions); ratio = p50 / that floor. The stdio rows are in the first table.',
  );
  const eras = [
    ['legacy', 'HTTP 2025-11-25'],
    ['auto', 'HTTP 2026-07-28'],
  ] as const;
  const p50 = new Map<string, Map<string, number | undefined>>();
  for (const [era, label] of eras) {
    const noop = await McpDriver.noopOverHttp(base.tmux.env, era);
    let floor: Awaited<ReturnType<typeof measure>>;
    try {
      floor = await measure(noop, 'noop', () => ({}), { iterations: Math.max(opts.iterations, 200) });
    } finally {
      await noop.close();
    }
    addRow(t, { name: `${label}: floor, no-op SDK server`, summary: floor, ratio: 1, cpu: floor.cpu, note: 'same HTTP stack' });
    const driver = await McpDriver.oursOverHttp(base.tmux.env, era, nodeArgs);
    const measured = new Map<string, number | undefined>();
    p50.set(label, measured);
    try {
      for (const call of fastCalls(base)) {
        const row = await toolRow(t, driver, `${label}: ${call.name}`, call.tool, call.args, { iterations: call.iterations, warmup: call.warmup, floor: floor.p50 });
        measured.set(call.name, row.summary?.p50);
      }
    } finally {
      await driver.close();
    }
  }
  const cell = (value: number | undefined) => (value === undefined ? '-' : `${ms(value)} ms`);
  for (const call of fastCalls(base)) {
    t.after.push(`${call.name}, p50: stdio ${cell(stdioP50.get(call.name))}, ${eras.map(([, label]) => `${label} ${cell(p50.get(label)?.get(call.name))}`).join(', ')}.`);
    console.log('  ' + t.after.at(-1));
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
  const driver = await McpDriver.ours({ ...base.tmux.env, TMUX_MCP_PROFILE: 'python' }, nodeArgs);
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
function parityOperations(base: Base): Array<{ name: string; python: Operation; libtmux: Operation }> {
  return pythonPairs(base).map((pair) => ({ name: pair.name, python: { tool: pair.tool, args: pair.args }, libtmux: { tool: pair.libtmux.tool, args: pair.libtmux.args() } }));
}

/** Each python operation of the fast table with its libtmux twin. */
function pythonPairs(base: Base) {
  const same = fastCalls(base);
  return [
    { name: 'list_sessions', tool: 'list_sessions', args: {}, libtmux: same[0]! },
    { name: 'list_panes (8 panes)', tool: 'list_panes', args: {}, libtmux: same[1]! },
    { name: 'get_pane_info', tool: 'get_pane_info', args: { pane_id: base.shell }, libtmux: same[2]! },
    { name: 'capture_pane (visible screen)', tool: 'capture_pane', args: { pane_id: base.others[0] }, libtmux: same[3]! },
    { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: { pane_id: base.sink, keys: 'x', literal: true }, libtmux: same[4]! },
  ];
}

/**
 * How many times the parity table starts its four servers afresh (--parity-passes). A fresh process
 * runs a few per cent faster or slower for its whole life, so the spread between passes, not between
 * rounds, is what limits the table's resolution: many short passes resolve finer than a few long ones.
 */
const PARITY_PASSES = Math.max(2, opts.parityPasses);
/**
 * Calls of each operation every server of a pass makes before it is measured (--parity-warmup), all
 * four servers at once: enough for V8 to finish optimising. After 1,000, TurboFan was still compiling
 * hot functions beside the measured calls (--trace-opt: 6-9 per server over 3,000 get_pane_info
 * calls; up to 15 in 0.4 s, depending on what the server had run), which sided with either profile.
 */
const PARITY_WARMUP = opts.parityWarmup;

type Operation = { tool: string; args: Record<string, unknown> };

/** Each side's servers (by environment), and what an operation calls on each. */
type Sides = { readonly a: NodeJS.ProcessEnv; readonly b: NodeJS.ProcessEnv };
type Paired = { readonly a: Operation; readonly b: Operation };

/**
 * python against libtmux, operation by operation, beyond what carrying each profile's answer costs
 * (parityPasses); and the same measurement of libtmux against itself, the control that shows what
 * the harness reads when there is no difference to find.
 */
async function pythonParity(base: Base, operations: ReadonlyArray<{ name: string; python: Operation; libtmux: Operation }>): Promise<void> {
  // This process (the client) and tmux on one CPU; every server a pass starts inherits it.
  const pin = pinToOneCpu([process.pid, await base.tmux.serverPid()]);
  const parity = table(
    'python against libtmux, interleaved',
    `Each operation through both profiles' servers on the same tmux server, and each profile's answer to it from the no-op SDK ` +
      `server (canned: the same bytes, no work behind them), one call to each of the four a round (warmed; every other round in ` +
      `mirror order, so each side follows the same calls; in two passes of four libtmux's server and answer take the first places), ` +
      `in ${PARITY_PASSES} passes of four freshly started servers. The python ` +
      `contract's answers are larger (more fields, longer names): what carrying them costs the SDK on both ends and the pipe is ` +
      `what the canned pair differs by. Per pass: the median of the per-round differences, (python - libtmux) - (python canned - ` +
      `libtmux canned). Target: python costs no more than libtmux beyond that, as far as the bench can tell: the mean over passes ` +
      `has a 95% interval (Student's t over the passes) that reaches 0 or below. The control row measures libtmux against a ` +
      `second libtmux server the same way: its interval is the resolution, and it must reach 0 too, or the harness is biased. ` +
      `The client, tmux and the four servers run on one CPU (${pin.description}): each call is handed from one process to the ` +
      `next, and on one core a hand-off is a context switch, where on two it is a cross-core wake-up whose cost moves with ` +
      `where the scheduler put each process (passes spread 2-3 times wider).`,
  );
  let python: Awaited<ReturnType<typeof parityPasses>>;
  let control: Awaited<ReturnType<typeof parityPasses>>;
  const probe = operations.find((o) => o.libtmux.tool === 'get_pane_info') ?? operations[0]!;
  try {
    python = await parityPasses(base, { a: { ...base.tmux.env, TMUX_MCP_PROFILE: 'python' }, b: base.tmux.env }, operations.map((o) => ({ a: o.python, b: o.libtmux })));
    control = await parityPasses(base, { a: base.tmux.env, b: base.tmux.env }, [{ a: probe.libtmux, b: probe.libtmux }]);
  } finally {
    pin.release();
  }
  for (const [i, operation] of operations.entries()) {
    const { a, b, aCanned, bCanned, bytes } = python.operations[i]!;
    addRow(parity, { name: `libtmux: ${operation.name}`, summary: summarize(b), note: 'interleaved with the next three rows' });
    addRow(parity, { name: `python: ${operation.name}`, summary: summarize(a) });
    addRow(parity, { name: `libtmux's answer, canned (${bytes.b} bytes)`, summary: summarize(bCanned) });
    addRow(parity, { name: `python's answer, canned (${bytes.a} bytes)`, summary: summarize(aCanned) });
    addRow(parity, beyondRow(`python over libtmux, beyond the answers: ${operation.name}`, python.operations[i]!));
  }
  addRow(parity, controlRow(`control: libtmux over libtmux, beyond the answers: ${probe.name}`, control.operations[0]!));
}

/** Per pass: the median latency difference beyond the answers (ms), and the servers' CPU difference beyond them (us a call). */
type Beyond = { readonly passMedians: readonly number[]; readonly cpuBeyond: readonly number[] };

/**
 * A beyond-the-answers row: met when the 95% interval of the mean over passes reaches 0. The note
 * adds the servers' own CPU beyond the answers (all threads), a second view of the same difference:
 * coarser, as a garbage collection that falls in one server's window weighs on that pass alone.
 */
function beyondRow(name: string, { passMedians, cpuBeyond }: Beyond): Row {
  const extra = meanWithInterval(passMedians);
  const cpu = meanWithInterval(cpuBeyond);
  return {
    name,
    value: extra.mean,
    target: extra.mean - extra.low,
    goal: 'its 95% interval',
    note:
      `mean ${ms(extra.mean)} ms, 95% [${ms(extra.low)}, ${ms(extra.high)}]; median ${ms(median(passMedians))}, sd ${ms(extra.sd)} over ${passMedians.length} passes; ` +
      `server CPU ${cpu.mean.toFixed(1)} us a call, 95% [${cpu.low.toFixed(1)}, ${cpu.high.toFixed(1)}]`,
  };
}

/** The control: met when its 95% interval holds 0 (the mean lies within its half-width of 0), on either side. */
function controlRow(name: string, beyond: Beyond): Row {
  const extra = meanWithInterval(beyond.passMedians);
  return {
    ...beyondRow(name, beyond),
    value: Math.abs(extra.mean),
    target: extra.high - extra.mean,
    goal: 'its 95% half-width (|mean|)',
  };
}

/**
 * Side a against side b on each operation, in PARITY_PASSES passes: each starts a server of each
 * side and a no-op server for each side's canned answers, warms the four (PARITY_WARMUP), then calls
 * them once a round, in mirrored order, operation after operation. Per operation: every latency, each side's answer size,
 * and per pass the median of (a - b) - (a canned - b canned) over its rounds.
 */
async function parityPasses(base: Base, sides: Sides, operations: readonly Paired[]) {
  const results = operations.map(() => ({
    a: [] as number[], b: [] as number[], aCanned: [] as number[], bCanned: [] as number[],
    passMedians: [] as number[], cpuBeyond: [] as number[], bytes: { a: 0, b: 0 },
  }));
  const rounds = Math.ceil((opts.iterations * 3) / PARITY_PASSES);
  for (let pass = 0; pass < PARITY_PASSES; pass++) {
    // Every other pass starts b's processes first: a process's start order (its tmux client's place
    // among the others, where it lands) must not side with a or b over the whole table.
    const order = pass % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const servers = await bothSides(order, (side) => McpDriver.ours(sides[side], nodeArgs));
    let floors: { a: McpDriver; b: McpDriver } | undefined;
    try {
      const canned = await cannedAnswers<'a' | 'b'>(base, servers, operations);
      // One no-op server for each side's answers: each is then called once a round, as each side's server is.
      const noops = await bothSides(order, () => McpDriver.noop(base.tmux.env, canned.file));
      floors = noops;
      // Per operation, its four turns: each side's server, then each side's canned answer. Two passes
      // in four give b the first place of each pair (first in even rounds and in the warm-up), crossed
      // with the start order, so that no place in the turn order sides with a or b either.
      const places = Math.floor(pass / 2) % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      const turns = operations.map((operation) => [
        ...places.map((side) => ({ driver: servers[side], ...operation[side] })),
        ...places.map((side) => ({ driver: noops[side], tool: canned.name(side, operation[side].tool), args: operation[side].args })),
      ]);
      // The turns of a's server, b's, a's canned answer and b's, in this pass's order.
      const bySide = [places.indexOf('a'), places.indexOf('b'), 2 + places.indexOf('a'), 2 + places.indexOf('b')];
      const warm = async (server: number) => {
        for (let call = 0; call < PARITY_WARMUP; call++) {
          for (const turn of turns.map((four) => four[server]!)) await turn.driver.call(turn.tool, turn.args);
        }
      };
      await Promise.all([0, 1, 2, 3].map(warm));
      for (const [i, operation] of operations.entries()) {
        // Warm already: a few rounds settle the four into calling one another in turn.
        const settle = Math.min(opts.warmup, 20);
        const four = turns[i]!.map((turn) => turn.driver);
        const cpuBefore = four.map((driver) => driver.cpuNs());
        const samples = await interleave(turns[i]!, rounds, settle, MIRRORED);
        // Each server's CPU a call (us, all its threads), over the same calls as the latencies plus the settling ones.
        const cpu = four.map((driver, k) => (driver.cpuNs() - cpuBefore[k]!) / (samples[0]!.length + settle) / 1000);
        const [a, b, aCanned, bCanned] = bySide.map((k) => samples[k]!);
        const [aCpu, bCpu, aCannedCpu, bCannedCpu] = bySide.map((k) => cpu[k]!);
        const result = results[i]!;
        result.a.push(...a!);
        result.b.push(...b!);
        result.aCanned.push(...aCanned!);
        result.bCanned.push(...bCanned!);
        result.passMedians.push(median(a!.map((value, round) => value - b![round]! - (aCanned![round]! - bCanned![round]!))));
        result.cpuBeyond.push(aCpu! - bCpu! - (aCannedCpu! - bCannedCpu!));
        result.bytes = { a: canned.bytes('a', operation.a.tool), b: canned.bytes('b', operation.b.tool) };
      }
    } finally {
      await Promise.all([servers.a.close(), servers.b.close(), floors?.a.close(), floors?.b.close()]);
    }
  }
  return { operations: results };
}

/** One process for each side, started one after the other in the given order. */
async function bothSides(order: readonly ['a', 'b'] | readonly ['b', 'a'], start: (side: 'a' | 'b') => Promise<McpDriver>) {
  const started: Partial<Record<'a' | 'b', McpDriver>> = {};
  for (const side of order) started[side] = await start(side);
  return started as Record<'a' | 'b', McpDriver>;
}

/**
 * Rounds of python, libtmux, python's canned answer, libtmux's, and then the mirror image (each pair
 * swapped): over two rounds each python call has the predecessors its libtmux twin has.
 */
const MIRRORED = [[0, 1, 2, 3], [1, 0, 3, 2]] as const;

/** One call of an interleaved round. */
interface Turn {
  readonly driver: McpDriver;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/**
 * Calls each turn once a round, round after round (warmed), within the row budget; the latencies of
 * each turn. Rounds take the given orders in turn (by default the turns' own): a call finds the
 * process of the call before it warm, so a fair comparison gives each side the same predecessors.
 */
async function interleave(
  turns: readonly Turn[],
  iterations = opts.iterations,
  warmup = Math.min(opts.warmup, 500),
  orders: ReadonlyArray<readonly number[]> = [turns.map((_, i) => i)],
): Promise<number[][]> {
  const samples = turns.map((): number[] => []);
  for (let i = 0; i < warmup; i++) for (const turn of turns) await turn.driver.call(turn.tool, turn.args);
  const end = performance.now() + opts.budgetMs * turns.length;
  for (let round = 0; samples[0]!.length < iterations && (samples[0]!.length < 20 || performance.now() < end); round++) {
    for (const i of orders[round % orders.length]!) {
      const turn = turns[i]!;
      const outcome = await turn.driver.call(turn.tool, turn.args);
      if (outcome.isError) throw new ToolError(`${turn.tool}: ${outcome.text}`);
      samples[i]!.push(outcome.ms);
    }
  }
  return samples;
}

/**
 * Each profile's answer to each operation, as its server gave it, written for the no-op server's
 * `--answers` (bench/noop-server.ts) with the tool's output schema, under the name `<profile>.<tool>`.
 */
async function cannedAnswers<P extends string>(base: Base, drivers: Record<P, McpDriver>, operations: ReadonlyArray<Record<P, Operation>>) {
  const name = (profile: P, tool: string) => `${profile}.${tool}`;
  const entries: Array<{ name: string; outputSchema?: unknown; result: unknown }> = [];
  for (const [profile, driver] of Object.entries(drivers) as Array<[P, McpDriver]>) {
    const { tools } = await driver.client.listTools();
    for (const operation of operations) {
      const { tool, args } = operation[profile];
      const outcome = await driver.call(tool, args);
      if (outcome.isError) throw new ToolError(`${tool}: ${outcome.text}`);
      const { content, structuredContent } = outcome.result as { content: unknown; structuredContent?: unknown };
      const outputSchema = tools.find((each) => each.name === tool)?.outputSchema;
      entries.push({ name: name(profile, tool), ...(outputSchema ? { outputSchema } : {}), result: { content, ...(structuredContent === undefined ? {} : { structuredContent }) } });
    }
  }
  const file = join(base.tmux.dir, 'canned-answers.json');
  writeFileSync(file, JSON.stringify(entries));
  const bytes = (profile: P, tool: string) => Buffer.byteLength(JSON.stringify(entries.find((entry) => entry.name === name(profile, tool))!.result), 'utf8');
  return { file, name, bytes };
}

function batchOperations(base: Base) {
  const panes = [base.shell, ...base.others];
  const candidates: Array<{ tool: string; arguments: Record<string, unknown> }> = [];
  for (let i = 0; candidates.length < 16; i++) {
    const pane = panes[i % panes.length]!;
    candidates.push(i % 2 === 0 ? { tool: 'capture_pane', arguments: { paneId: pane } } : { tool: 'get_pane_info', arguments: { paneId: pane } });
  }
  const counts = new Map<string, number>();
  for (const op of candidates) counts.set(op.tool, (counts.get(op.tool) ?? 0) + 1);
  return { operations: candidates, summary: [...counts].map(([tool, n]) => `${n} ${tool}`).join(' + ') };
}

// ---- scenario: idle memory after mixed calls -----------------------------------------------------

/** Idle RSS after 1,000 mixed calls: at most the floor's + this (MB, 10^6 bytes). */
const IDLE_OVER_FLOOR_MB = 15;
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
  const out: Array<[string, Record<string, unknown>]> = [];
  for (let i = 0; i < 50; i++) out.push(i % 25 === 24 ? rare[(i / 25) | 0]! : cycle[i % cycle.length]!);
  return out.filter(([tool]) => driver.has(tool));
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

async function idleMemoryScenario(base: Base): Promise<void> {
  const checkpoints = opts.idleCalls;
  const t = table(
    'Memory at rest after mixed calls',
    `VmRSS in MB (10^6 bytes) of the server and its child processes (the tmux control clients), ${REST_MS / 1000} s after the last of N calls. ` +
      `Ours: a mix of reads (list_sessions, list_panes, get_pane_info, capture_pane, snapshot_pane, search_panes, list_windows, a 4-read batch), ` +
      `send_keys, and every 25th call a run_shell_command or a wait_for_text (100 ms, its minimum: it waits for new output). Floor: the no-op server after as many calls. ` +
      `Targets: at ${checkpoints[0]} calls at most the floor + ${IDLE_OVER_FLOOR_MB} MB; from ${checkpoints[0]} to ${checkpoints.at(-1)} calls, ` +
      `growth at most ${IDLE_NOISE_MB} MB or the floor's own growth, whichever is larger (noise).`,
  );
  const noop = await McpDriver.noop(base.tmux.env);
  let floor: number[];
  try {
    floor = await restingRss(noop, [['noop', {}]], checkpoints);
  } finally {
    await noop.close();
  }
  const driver = await McpDriver.ours(base.tmux.env, nodeArgs);
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
  const uncapped = await McpDriver.ours(base.tmux.env, [...nodeArgs, UNCAPPED_YOUNG_GENERATION]);
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

// ---- scenario: cold start ------------------------------------------------------------------------

/** Cold start to the first tools/list answer: at most the floor's + this (ms). */
const START_OVER_FLOOR_MS = 40;

/** Spawn to the first tools/list answer, in ms, and the server's CPU by then. */
async function startOnce(which: 'ours' | 'floor', env: NodeJS.ProcessEnv): Promise<{ ms: number; cpu: number }> {
  const { command, args } = McpDriver.command(which, nodeArgs);
  const started = performance.now();
  const driver = await McpDriver.start(command, args, env);
  const took = performance.now() - started;
  const cpu = driver.cpuNs() / 1e6;
  await driver.close();
  return { ms: took, cpu };
}

async function coldStartScenario(base: Base): Promise<void> {
  const t = table(
    'Cold start',
    'From spawning the server (node + script) to the answer of the first tools/list through the SDK client (initialize, then ' +
      'tools/list), ours and the no-op floor alternately, against the running bench tmux server. CPU: the server process\'s CPU ' +
      `time by then (all threads), in ms. Target: ours at most the floor + ${START_OVER_FLOOR_MS} ms.`,
  );
  const ours: number[] = [];
  const floor: number[] = [];
  const oursCpu: number[] = [];
  const floorCpu: number[] = [];
  await startOnce('ours', base.tmux.env); // disk caches warm for both
  await startOnce('floor', base.tmux.env);
  for (let i = 0; i < opts.startRuns; i++) {
    const a = await startOnce('ours', base.tmux.env);
    const b = await startOnce('floor', base.tmux.env);
    ours.push(a.ms);
    oursCpu.push(a.cpu);
    floor.push(b.ms);
    floorCpu.push(b.cpu);
  }
  const floorSummary = summarize(floor);
  addRow(t, { name: 'floor: no-op SDK server', summary: floorSummary, ratio: 1, note: `server CPU p50 ${ms(summarize(floorCpu).p50)} ms` });
  addRow(t, {
    name: 'ours (dist/cli.js), to the first tools/list',
    summary: summarize(ours),
    ratio: summarize(ours).p50 / floorSummary.p50,
    target: floorSummary.p50 + START_OVER_FLOOR_MS,
    goal: `floor + ${START_OVER_FLOOR_MS} ms`,
    floorValue: floorSummary.p50,
    note: `server CPU p50 ${ms(summarize(oursCpu).p50)} ms`,
  });
}

// ---- scenario: wait_for_text latency -------------------------------------------------------------------

const WAIT_METHOD = `The pane runs \`bash -c 'while read -r x; do printf "MARK-%s-END %s\\n" "$x" "$EPOCHREALTIME"; done'\`.
For each sample the bench calls wait_for_text for \`MARK-<i>-END\` (a text the pane has never shown; the
typed input echoes only \`<i>\`), waits ${'`armMs`'} for the wait to be armed, then makes the pane print the marker
with one separate \`tmux send-keys\`. bash reads the wall clock ($EPOCHREALTIME, a builtin: no fork) immediately
before it writes the line, and the line carries that time; the client takes the wall clock (performance.timeOrigin +
performance.now(), the same CLOCK_REALTIME) when the tools/call result is parsed. Latency = receive time - print
time: tmux reading the pty, %output to our control client, matching, the response and the client's parse. The
trigger's own cost (spawning tmux) is outside the interval. A sample whose wait was not armed in time (outcome not
"matched", or matchedAtEntry) is discarded and counted.`;

async function waitScenario(base: Base, floor: Summary): Promise<void> {
  const t = table('wait_for_text: time from print to result', WAIT_METHOD);
  const driver = await McpDriver.ours(base.tmux.env, nodeArgs);
  try {
    if (!driver.has('wait_for_text')) {
      addRow(t, { name: 'wait_for_text latency after print', unavailable: true, target: 5 });
      return;
    }
    // Cold start (control clients to attach, the pane's output watch to open) happens here, not in a sample.
    await driver.call('wait_for_text', { paneId: base.marker, patterns: ['no such text'], timeoutMs: 100 });
    const armMs = 40;
    const samples: number[] = [];
    const calls: number[] = [];
    let discarded = 0;
    let lastError = '';
    const total = opts.waitIterations + 3;
    for (let i = 0; i < total; i++) {
      const token = `${process.pid}x${i}`;
      const pending = driver.call('wait_for_text', { paneId: base.marker, patterns: [`MARK-${token}-END`], timeoutMs: 3_000 });
      await sleep(i < 3 ? 250 : armMs); // the first waits also open the pane's output stream
      await base.tmux.tmux('send-keys', '-t', base.marker, '-l', token, ';', 'send-keys', '-t', base.marker, 'Enter');
      const outcome = await pending;
      // Taken when the result arrived, not after the trigger's tmux process (awaited above) exited.
      const received = outcome.receivedAt;
      const s = outcome.structured as { outcome?: string; matchedAtEntry?: boolean } | undefined;
      if (outcome.isError || s?.outcome !== 'matched' || s.matchedAtEntry) {
        discarded++;
        lastError = `sample ${i}: ` + (outcome.isError ? outcome.text.slice(0, 160) : `outcome ${s?.outcome}, matchedAtEntry ${s?.matchedAtEntry}`);
        continue;
      }
      const marked = new RegExp(`MARK-${token}-END (\\d+\\.\\d+)`);
      let stamp = marked.exec(outcome.text)?.[1];
      if (!stamp) stamp = marked.exec(await base.tmux.tmux('capture-pane', '-p', '-t', base.marker, '-S', '-50'))?.[1];
      if (!stamp) {
        discarded++;
        lastError = 'no timestamp in the result or on the screen';
        continue;
      }
      if (i < 3) continue; // warm-up
      samples.push(received - Number(stamp) * 1000);
      calls.push(outcome.ms);
    }
    if (samples.length === 0) {
      addRow(t, { name: 'wait_for_text latency after print', error: `no valid sample (${discarded} discarded): ${lastError}`, target: 5 });
      return;
    }
    addRow(t, {
      name: 'wait_for_text: print -> result received',
      summary: summarize(samples),
      target: 5,
      note: `${discarded} discarded${discarded ? ` (last: ${lastError})` : ''}; arm delay ${armMs} ms`,
    });
    const whole = summarize(calls);
    addRow(t, {
      name: 'wait_for_text: whole call (includes the arm delay and trigger)',
      summary: whole,
      ratio: whole.p50 / floor.p50,
      note: 'informational',
    });
  } finally {
    await driver.close();
  }
}

// ---- scenario: memory while a pane floods -----------------------------------------------------------

/** Node flags of the capped run: a 48 MiB old generation, 2 MiB semi-spaces. */
const CAPPED_HEAP = ['--max-old-space-size=48', '--max-semi-space-size=2'];

async function memoryScenario(base: Base): Promise<void> {
  const t = table(
    `Memory while a pane prints ${opts.floodMb} MB`,
    'A pane of the attached session runs `head -c N /dev/urandom | base64` while a wait_for_text on that pane waits ' +
      'for the line printed after it; VmRSS of the server is sampled every 20 ms. Run 1: the server as shipped, ' +
      `${opts.floodMb} MB. Run 2: ${Math.ceil(opts.floodMb / 3)} MB with the heap capped (node ${CAPPED_HEAP.join(' ')}): ` +
      'if what the server keeps grew with the output, this run would run out of heap; it passing with flat RSS shows ' +
      'the live data is bounded and run 1\'s peak is V8 deferring collection. Bounded (the target) = run 2 matched and its ' +
      'peak RSS stays within 16 MiB of its RSS before the flood.',
  );
  const shipped = await flood(base, opts.floodMb, nodeArgs);
  if (!shipped) {
    addRow(t, { name: 'RSS during the flood', unavailable: true, target: 16, unit: 'MiB' });
    return;
  }
  addRow(t, { name: `run 1 (as shipped, ${opts.floodMb} MB): RSS before`, value: shipped.before, unit: 'MiB' });
  addRow(t, { name: `run 1: peak RSS during the flood`, value: shipped.peak, unit: 'MiB', note: shipped.note });
  const capped = await flood(base, Math.ceil(opts.floodMb / 3), [...nodeArgs, ...CAPPED_HEAP]);
  if (!capped) return;
  addRow(t, { name: `run 2 (heap capped, ${Math.ceil(opts.floodMb / 3)} MB): RSS before`, value: capped.before, unit: 'MiB' });
  addRow(t, {
    name: 'run 2: peak RSS growth over before (bounded live memory)',
    value: capped.matched ? capped.peak - capped.before : undefined,
    error: capped.matched ? undefined : `the capped run did not match: ${capped.note}`,
    unit: 'MiB',
    target: 16,
    note: capped.note,
  });
}

async function flood(base: Base, megabytes: number, args: string[]) {
  const raw = Math.floor((megabytes * 1_000_000 * 3) / 4 / (77 / 76)); // base64 wraps at 76: 4/3 growth plus a newline per 76 chars
  const driver = await McpDriver.ours(base.tmux.env, args);
  try {
    if (!driver.has('wait_for_text')) return undefined;
    await driver.call('list_panes', {});
    await sleep(100);
    const before = driver.memory('VmRSS');
    let peak = before;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, driver.memory('VmRSS'));
      } catch {
        // the process may be gone; the call result will say why
      }
    }, 20);
    const pending = driver.call('wait_for_text', { paneId: base.flood, patterns: ['FLOOD-2-DONE'], timeoutMs: 300_000 }, 320_000);
    await sleep(100);
    const started = performance.now();
    await base.tmux.tmux('send-keys', '-t', base.flood, '-l', `head -c ${raw} /dev/urandom | base64; echo FLOOD-$((1+1))-DONE`, ';', 'send-keys', '-t', base.flood, 'Enter');
    const outcome = await pending.catch((error: Error) => ({ isError: true, text: error.message, structured: undefined, ms: 0 }));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const s = outcome.structured as { outcome?: string } | undefined;
    const note = outcome.isError
      ? `wait failed: ${outcome.text.slice(0, 120)}`
      : `wait outcome ${s?.outcome}; ${seconds.toFixed(1)} s, ~${(megabytes / seconds).toFixed(1)} MB/s`;
    await base.tmux.tmux('send-keys', '-t', base.flood, 'clear', 'Enter');
    await base.tmux.tmux('clear-history', '-t', base.flood);
    return { before, peak, note, matched: !outcome.isError && s?.outcome === 'matched' };
  } finally {
    await driver.close();
  }
}

// ---- scenario: capture_pane growth -----------------------------------------------------------------

async function captureScenario(base: Base, floor: Summary): Promise<void> {
  const t = table(
    'capture_pane growth with history size',
    'capture_pane with start=-N (tmux captures the whole range; the answer keeps the newest 200 rows). Rows are 70 characters.',
  );
  const height = 50;
  const panes: Array<[number, string]> = [];
  for (const lines of opts.lines) panes.push([lines, await base.tmux.newWindow('bench', fillCommand(lines + height))]);
  for (const [lines, pane] of panes) {
    await base.tmux.until(`history of ${pane} to reach ${lines}`, async () => Number(await base.tmux.paneValue(pane, '#{history_size}')) >= lines);
  }
  const driver = await McpDriver.ours(base.tmux.env, nodeArgs);
  const points: Array<[number, number]> = [];
  try {
    for (const [lines, pane] of panes) {
      const row = await toolRow(t, driver, `capture_pane start=-${lines}`, 'capture_pane', () => ({ paneId: pane, start: -lines }), {
        floor: floor.p50,
        iterations: lines >= 100_000 ? 30 : lines >= 10_000 ? 100 : opts.iterations,
        warmup: 3,
      });
      if (row.summary) points.push([lines, row.summary.p50]);
    }
  } finally {
    await driver.close();
  }
  if (points.length >= 2) {
    const { slope, intercept } = fitLine(points);
    t.after.push(
      `Growth: ${steps(points, 'lines', 'line')}; least-squares line: ${ms(intercept)} ms + ${(slope * 1000).toFixed(3)} ms per 1,000 captured lines.`,
    );
    console.log('  ' + t.after.at(-1));
  }
}

// ---- scenario: list_panes and search_panes growth with pane count -------------------------------------

function farmPaneCommand(history: number) {
  // history + the tallest pane (200 rows / 10 panes + borders) so each pane keeps >= history rows of scrollback.
  const total = history + 25;
  const half = Math.floor(total / 2);
  return (i: number) =>
    `seq -f "row %g: quick brown fox" 1 ${half}; ` +
    (i % 10 === 0 ? `echo needle in pane ${i}; ` : '') +
    `seq -f "row %g: quick brown fox" ${half + 1} ${total}; exec cat`;
}

/** Operations of the concurrency table: each client aims at its own pane. */
const CONCURRENT_OPS: Array<{ name: string; tool: string; args: (pane: string) => Record<string, unknown> }> = [
  { name: 'list_panes (whole server)', tool: 'list_panes', args: () => ({}) },
  { name: 'get_pane_info', tool: 'get_pane_info', args: (pane) => ({ paneId: pane }) },
  { name: 'capture_pane', tool: 'capture_pane', args: (pane) => ({ paneId: pane }) },
  { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: (pane) => ({ paneId: pane, keys: ['x'], literal: true, enter: true }) },
];

/** Per-call latencies of `clients` drivers calling `tool` at once, each on its own pane, for about `budgetMs`. */
async function concurrently(drivers: McpDriver[], op: (typeof CONCURRENT_OPS)[number], paneIds: readonly string[], budgetMs: number) {
  const samples: number[] = [];
  const end = performance.now() + budgetMs;
  let failed = '';
  await Promise.all(
    drivers.map(async (driver, k) => {
      const args = op.args(paneIds[k % paneIds.length]!);
      await driver.call(op.tool, args); // warm
      do {
        const outcome = await driver.call(op.tool, args);
        if (outcome.isError) failed = outcome.text;
        samples.push(outcome.ms);
      } while (performance.now() < end);
    }),
  );
  if (failed) throw new ToolError(failed);
  return summarize(samples);
}

async function growthScenario(floor: Summary): Promise<void> {
  const t = table(
    'Growth with pane count',
    `One tmux server grown to N panes (10 per 400x200 window, each pane \`cat\` after printing ~${opts.history + 25} rows of ~24 characters, so >= ${opts.history} rows of ` +
      `scrollback). list_panes lists the whole server; search_panes looks for a literal found in every 10th pane with ` +
      `scrollbackLines=${opts.history}. At 200 panes list_panes is measured against a server asking tmux for 3 fields per pane ` +
      '(bench/three-field-server.ts: one spawned `tmux list-panes -a -F "#{pane_id}:#{pane_title}:#{pane_active}"` per call, as nickgnd/tmux-mcp ' +
      'does), calls interleaved; target: ours faster.',
  );
  const listPoints: Array<[number, number]> = [];
  const searchPoints: Array<[number, number]> = [];
  const sizes = [...opts.panes].sort((a, b) => a - b);
  const grid = new Map<string, string>(); // `${op} ${clients} ${panes}` -> p50 cell
  const paneCommand = farmPaneCommand(opts.history);
  const tmux = new BenchTmux();
  const drivers: McpDriver[] = [];
  try {
    await tmux.start({ width: 400, height: 200, command: paneCommand(0) });
    currentTmuxPid = await tmux.serverPid();
    let built = 1;
    for (const panes of sizes) {
      const started = performance.now();
      const paneIds = await growPaneFarm(tmux, { from: built, panes, paneCommand });
      built = panes;
      await tmux.until(`history of ${panes} panes`, async () =>
        (await tmux.tmux('list-panes', '-a', '-F', '#{history_size}')).trim().split('\n').every((h) => Number(h) >= opts.history),
      );
      console.log(`  (grew to ${panes} panes in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
      if (drivers.length === 0) drivers.push(await McpDriver.ours(tmux.env, nodeArgs));
      const driver = drivers[0]!;
      const list = await toolRow(t, driver, `list_panes, ${panes} panes`, 'list_panes', () => ({}), {
        floor: floor.p50,
        iterations: panes >= 1000 ? 60 : opts.iterations,
        warmup: 3,
      });
      if (list.summary) listPoints.push([panes, list.summary.p50]);
      if (panes === 200) await peerListing(t, driver, tmux);
      const search = await toolRow(
        t,
        driver,
        `search_panes, ${panes} panes x ${opts.history} lines`,
        'search_panes',
        () => ({ pattern: 'needle in pane', scrollbackLines: opts.history }),
        {
          noteOf: (last) =>
            last ? `searched ${last.panesSearched} of ${last.panesAvailable} panes, ${last.matches?.length} matches` +
              (last.truncated ? `, truncated by ${last.truncatedBy.join('+')}` : '') : '',
          floor: floor.p50,
          target: panes === 200 ? 100 : undefined,
          iterations: panes >= 1000 ? 10 : panes >= 200 ? 30 : 60,
          warmup: 2,
        },
      );
      // Past search_panes' own pane limit the work stops growing: fit only sizes searched whole.
      if (search.summary && search.note?.includes(`searched ${panes} of ${panes}`)) searchPoints.push([panes, search.summary.p50]);
      if (!opts.clientPanes.includes(panes)) continue;
      for (const clients of opts.clients) {
        while (drivers.length < clients) drivers.push(await McpDriver.ours(tmux.env, nodeArgs));
        for (const op of CONCURRENT_OPS) {
          if (!driver.has(op.tool)) continue;
          try {
            const summary = await concurrently(drivers.slice(0, clients), op, paneIds, Math.min(opts.budgetMs, 2000));
            grid.set(`${op.name}\0${clients}\0${panes}`, `${ms(summary.p50)} (n ${summary.n})`);
          } catch (error) {
            if (!(error instanceof ToolError)) throw error;
            grid.set(`${op.name}\0${clients}\0${panes}`, 'error');
          }
        }
        console.log(`  (${clients} concurrent clients at ${panes} panes: ${CONCURRENT_OPS.map((op) => `${op.tool} ${grid.get(`${op.name}\0${clients}\0${panes}`) ?? '-'}`).join(', ')})`);
      }
      // Only the measured client stays: with 64 idle control clients attached, tmux 3.3 spent
      // ~965 ms of CPU on a 1,000-pane listing that costs it ~63 ms alone; the next rows must not pay that.
      await Promise.all(drivers.splice(1).map((extra) => extra.close()));
    }
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
    tmux.dispose();
    currentTmuxPid = undefined;
  }
  for (const [tool, points] of [['list_panes', listPoints], ['search_panes', searchPoints]] as const) {
    if (points.length < 2) continue;
    const { slope, intercept } = fitLine(points);
    t.after.push(
      `${tool}: ${steps(points, 'panes', 'pane')}; least-squares line of p50 over ${points.map(([n]) => n).join(', ')} panes` +
        `${tool === 'search_panes' ? ' (the sizes searched whole)' : ''}: ${ms(intercept)} ms + ${(slope * 1000).toFixed(1)} us per pane.`,
    );
    console.log('  ' + t.after.at(-1));
  }
  const columns = sizes.filter((panes) => opts.clientPanes.includes(panes));
  const lines = [
    '### Growth table: p50 ms per call at N panes and C concurrent clients',
    '',
    'C clients = C SDK clients, each with its own server process over stdio (C agents on one machine), sharing the one tmux server ' +
      'and calling at once, each on its own pane, for ~2 s per cell (at least one call each); p50 over every call of every client.',
    '',
    `| operation | clients | ${columns.map((n) => `${n} panes`).join(' | ')} |`,
    `|---|---|${columns.map(() => '---').join('|')}|`,
  ];
  for (const op of CONCURRENT_OPS) {
    for (const clients of opts.clients) {
      lines.push(`| ${op.name} | ${clients} | ${columns.map((n) => grid.get(`${op.name}\0${clients}\0${n}`) ?? '-').join(' | ')} |`);
    }
  }
  t.after.push(lines.join('\n'));
  console.log(lines.join('\n'));
}

/** list_panes at 200 panes: ours and the 3-field peer, calls interleaved. */
async function peerListing(t: Table, ours: McpDriver, tmux: BenchTmux): Promise<void> {
  const peer = await McpDriver.threeField(tmux.env);
  try {
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < 5; i++) {
      await ours.call('list_panes', {});
      await peer.call('list_panes', {});
    }
    const end = performance.now() + opts.budgetMs * 2;
    while (mine.length < Math.min(opts.iterations, 300) && (mine.length < 20 || performance.now() < end)) {
      const a = await ours.call('list_panes', {});
      const b = await peer.call('list_panes', {});
      if (a.isError || b.isError) throw new Error(`list_panes failed: ${a.isError ? a.text : b.text}`);
      mine.push(a.ms);
      theirs.push(b.ms);
    }
    const peerSummary = summarize(theirs);
    addRow(t, { name: 'peer: 3 fields per pane, tmux spawned per call, 200 panes', summary: peerSummary, note: 'bench/three-field-server.ts, interleaved with the next row' });
    addRow(t, {
      name: 'list_panes, 200 panes, every contract field (interleaved with the peer)',
      summary: summarize(mine),
      target: peerSummary.p50,
      goal: 'faster than the 3-field peer',
      floorValue: peerSummary.p50,
    });
  } finally {
    await peer.close();
  }
}

/** The cost of each step between measured sizes, per added unit: shows whether growth is linear. */
function steps(points: ReadonlyArray<readonly [number, number]>, units: string, unit: string): string {
  const parts: string[] = [];
  for (let i = 1; i < points.length; i++) {
    const [n0, y0] = points[i - 1]!;
    const [n1, y1] = points[i]!;
    parts.push(`${n0} -> ${n1} ${units}: +${(((y1 - y0) / (n1 - n0)) * 1000).toFixed(1)} us per ${unit}`);
  }
  return parts.join(', ');
}

// ---- report ---------------------------------------------------------------------------------------

function machine(idle: IdleHold): string[] {
  const cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const tmuxVersion = execFileSync(TMUX_BIN, ['-V'], { env: scrubbedEnv(), encoding: 'utf8' }).trim();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  return [
    `- Server measured: ${opts.cli || 'dist/cli.js'} (tree at ${commit})`,
    `- CPU: ${cpu}, ${os.cpus().length} cores`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version}, ${tmuxVersion}, ${os.type()} ${os.release()}`,
    `- CPU idle: ${idle.description}`,
    `- Date: ${new Date().toISOString()}; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `- Parameters: iterations ${opts.iterations}, warm-up ${opts.warmup}, budget ${opts.budgetMs} ms per row, ` +
      `panes ${opts.panes.join('/')}, history ${opts.history}, lines ${opts.lines.join('/')}, flood ${opts.floodMb} MB`,
  ];
}

function report(machineLines: string[], seconds: number): string {
  const out: string[] = [];
  out.push('# Benchmark results', '');
  out.push('Generated by `npm run bench` (bench/run.ts). Latencies are milliseconds per tools/call as the SDK client sees it,');
  out.push('from just before the request is written to the parsed result. The floor is a no-op SDK server on the same');
  out.push('stdio transport; ratio = p50 / floor p50, so it isolates our own cost.', '');
  out.push('## Machine', '', ...machineLines, `- Whole run: ${seconds.toFixed(0)} s`, '');
  out.push('## Targets', '', 'Each goal stated against a reference (the floor, a peer, the in-process cost) uses that reference as measured in this run, shown beside it.', '');
  out.push(...targetLines());
  out.push('');
  for (const t of tables) {
    out.push(`## ${t.title}`, '');
    if (t.intro) out.push(t.intro, '');
    out.push(
      '| Measure | n | p50 ms | p90 ms | p99 ms | ratio | server CPU us/call | tmux CPU us/call | target | status | note |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const row of t.rows) out.push(renderRow(row));
    out.push('');
    for (const line of t.after) out.push(line, '');
  }
  const notes = fileURLToPath(new URL('./notes.md', import.meta.url));
  if (existsSync(notes)) out.push(readFileSync(notes, 'utf8').trim(), '');
  return out.join('\n');
}

// ---- scenario: a host over loopback ssh ------------------------------------------------------------

/**
 * The same calls on the same tmux server, addressed locally and as a host over a loopback sshd
 * (test/fixture/sshd.ts): the difference is the ssh hop. Skipped when sshd is not installed.
 */
async function sshScenario(base: Base, floor: Summary): Promise<void> {
  const t = table('Local vs a host over loopback ssh (same tmux server)', 'Each pair: the call on the local tmux, then the same call through `--host ssh=...`; ratio = p50 / floor p50.');
  if (!existsSync(SSHD_BIN)) return void addRow(t, { name: 'loopback sshd', unavailable: true, note: `${SSHD_BIN} not installed` });
  const sshd = await LoopbackSshd.start(['benchhost']);
  const driver = await McpDriver.ours({ ...base.tmux.env, TMUX_MCP_SSH_CONFIG: sshd.config }, nodeArgs, ['--host', `ssh=benchhost#${base.tmux.socketPath}`]);
  try {
    const started = performance.now();
    execFileSync('ssh', ['-T', '-F', sshd.config, 'benchhost', 'true']);
    addRow(t, { name: 'one `ssh host true` (what a process per call would cost)', value: performance.now() - started });
    const first = await driver.call('get_pane_info', { paneId: `ssh:${base.shell}` });
    addRow(t, { name: 'first call on the host (ssh connect + control client)', value: first.ms, error: first.isError ? first.text : undefined });
    const few = { iterations: Math.min(opts.iterations, 300), warmup: Math.min(opts.warmup, 100), floor: floor.p50 };
    for (const [where, prefix] of [['local', ''], ['ssh', 'ssh:']] as const) {
      await toolRow(t, driver, `${where}: list_panes (session)`, 'list_panes', () => ({ session: `${prefix}bench` }), few);
      await toolRow(t, driver, `${where}: get_pane_info`, 'get_pane_info', () => ({ paneId: prefix + base.shell }), few);
      await toolRow(t, driver, `${where}: capture_pane`, 'capture_pane', () => ({ paneId: prefix + base.others[0] }), few);
      await toolRow(t, driver, `${where}: send_keys (one key + Enter)`, 'send_keys', () => ({ paneId: prefix + base.sink, keys: ['x'], literal: true, enter: true }), few);
      await toolRow(t, driver, `${where}: run_shell_command \`true\``, 'run_shell_command', () => ({ paneId: prefix + base.shell, command: 'true' }), { ...few, iterations: Math.min(opts.iterations, 50), warmup: 3 });
    }
    // A silent drop mid-wait: the host's sshd sessions stopped (no FIN), timed from the stop to the answer.
    for (let i = 0; i < 3; i++) {
      const clients = async () => (await base.tmux.tmux('list-clients', '-F', '#{client_pid}')).trim().split('\n').length;
      const before = await clients();
      const waiting = driver.call('wait_for_text', { paneId: `ssh:${base.shell}`, patterns: ['never printed'], timeoutMs: 60_000 });
      // The wait streams over a connection of its own: stop the sessions once its tmux client is attached.
      const deadline = performance.now() + 20_000;
      while ((await clients()) <= before && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      const frozen = sshd.freezeSessions();
      const stopped = performance.now();
      const answer = await waiting;
      addRow(t, { name: `silent drop mid-wait: stop to error (run ${i + 1})`, value: performance.now() - stopped, target: 1000, error: answer.isError ? undefined : 'the wait did not fail' });
      await sshd.killSessions(frozen);
      await driver.call('get_pane_info', { paneId: `ssh:${base.shell}` }); // reconnects
    }
  } finally {
    await driver.close();
    await sshd.stop();
    sshd.dispose();
  }
}

// ---- scenario: a listing spanning many hosts --------------------------------------------------------

/** A listing over eight hosts may cost at most this many times the same listing over one (p50, same run). */
const HOSTS_OVER_ONE = 1.5;

/**
 * One loopback sshd, eight tmux servers behind it (aliases h1..h8, one session each): the listing
 * that spans every host, with one host configured against eight, alternating call for call.
 */
async function hostsScenario(base: Base): Promise<void> {
  const t = table(
    'A listing over one host vs eight (one loopback sshd, eight tmux sockets)',
    `Each pair alternates call for call: the server with \`--host h1=...\` and the server with h1..h8, each also listing this machine's tmux. Target: eight <= ${HOSTS_OVER_ONE} x one (p50, same run).`,
  );
  if (!existsSync(SSHD_BIN)) return void addRow(t, { name: 'loopback sshd', unavailable: true, note: `${SSHD_BIN} not installed` });
  const names = Array.from({ length: 8 }, (_, i) => `h${i + 1}`);
  const sshd = await LoopbackSshd.start(names);
  const servers = names.map(() => new BenchTmux());
  const drivers: McpDriver[] = [];
  try {
    await Promise.all(servers.map((server, i) => server.start({ session: `s${i + 1}` })));
    const hostArgs = (count: number) => names.slice(0, count).flatMap((name, i) => ['--host', `${name}=${name}#${servers[i]!.socketPath}`]);
    const env = { ...base.tmux.env, TMUX_MCP_SSH_CONFIG: sshd.config };
    for (const [profile, tool, rows] of [
      ['libtmux', 'list_sessions', (s: any) => s.sessions.length],
      ['julia', 'list_panes', (s: any) => s.panes.length],
    ] as const) {
      const one = await McpDriver.ours(env, nodeArgs, ['--profile', profile, ...hostArgs(1)]);
      const eight = await McpDriver.ours(env, nodeArgs, ['--profile', profile, ...hostArgs(8)]);
      drivers.push(one, eight);
      const args = profile === 'julia' ? { limit: 128 } : {};
      const [first1, first8] = [await one.call(tool, args), await eight.call(tool, args)];
      const note = (first: typeof first1) => (first.isError ? first.text : `${rows(first.structured)} rows`);
      const cpuBefore = [one.cpuNs(), eight.cpuNs()];
      const samples = await interleave(
        [
          { driver: one, tool, args },
          { driver: eight, tool, args },
        ],
        Math.min(opts.iterations, 500),
        Math.min(opts.warmup, 200),
        [[0, 1], [1, 0]],
      );
      const [single, many] = samples.map((each) => summarize(each));
      const [cpu1, cpu8] = [one, eight].map((driver, i) => ({ server: (driver.cpuNs() - cpuBefore[i]!) / samples[i]!.length / 1000 }));
      addRow(t, { name: `${profile} ${tool}: one host`, summary: single!, cpu: cpu1, note: note(first1) });
      addRow(t, {
        name: `${profile} ${tool}: eight hosts`,
        summary: many!,
        cpu: cpu8,
        target: single!.p50 * HOSTS_OVER_ONE,
        goal: `${HOSTS_OVER_ONE} x one host`,
        floorValue: single!.p50,
        note: `${note(first8)}; ${(many!.p50 / single!.p50).toFixed(2)} x one host`,
      });
    }
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
    await sshd.stop();
    sshd.dispose();
    for (const server of servers) server.dispose();
  }
}

/** The targets table: goal, measured value and the same run's reference, side by side. */
function targetLines(): string[] {
  const lines = ['| Target | Goal | Measured | Reference (same run) | Status |', '|---|---|---|---|---|'];
  for (const t of targets) {
    const status = t.met === undefined ? (t.measured === 'not available' ? 'not available' : 'MISSED') : t.met ? 'MET' : 'MISSED';
    lines.push(`| ${t.what} | ${t.target} | ${t.measured} | ${t.floor} | ${status} |`);
  }
  return lines;
}

async function main(): Promise<void> {
  const started = performance.now();
  const idle = holdLowLatencyIdle(opts.lowLatencyIdle);
  const machineLines = machine(idle);
  console.log(machineLines.join('\n'));
  const base = await baseServer();
  try {
    currentTmuxPid = await base.tmux.serverPid();
    const floorInfo = await floorSummary(base.tmux.env);
    const floor = floorInfo.summary;
    console.log(`floor p50 ${ms(floor.p50)} ms`);
    if (opts.only.has('fast')) await fastScenario(base, floorInfo);
    if (opts.only.has('parity')) await pythonParity(base, parityOperations(base));
    if (opts.only.has('http')) await httpScenario(base);
    if (opts.only.has('oversight')) await oversightScenario(base);
    if (opts.only.has('idle')) await idleMemoryScenario(base);
    if (opts.only.has('start')) await coldStartScenario(base);
    if (opts.only.has('wait')) await waitScenario(base, floor);
    if (opts.only.has('capture')) await captureScenario(base, floor);
    if (opts.only.has('memory')) await memoryScenario(base);
    if (opts.only.has('ssh')) await sshScenario(base, floor);
    if (opts.only.has('hosts')) await hostsScenario(base);
    base.tmux.dispose();
    if (opts.only.has('growth')) await growthScenario(floor);
  } finally {
    base.tmux.dispose();
    idle.release();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n## Targets\n${targetLines().join('\n')}\n\ndone in ${seconds.toFixed(0)} s`);
  if (opts.out !== '-') {
    writeFileSync(opts.out, report(machineLines, seconds));
    console.log(`wrote ${opts.out}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
