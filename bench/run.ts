/**
 * `npm run bench`: latency and memory of the built server (dist/cli.js) against private tmux
 * servers, driven through the official SDK Client over stdio (and, for the fast tools, over
 * Streamable HTTP in both eras), side by side with a no-op SDK server on the same transport (the floor). Prints each table as it goes and writes bench/RESULTS.md.
 *
 * Sizes are flags (or BENCH_* env): see `--help`. Tools that the server does not list yet get a
 * "not available" row, so the bench runs at any stage of the project.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { scrubbedEnv, TMUX_BIN } from '../test/fixture/tmux.js';
import { BenchTmux, buildPaneFarm } from './tmux.js';
import { McpDriver, processCpuNs, useCli } from './mcp.js';
import { fitLine, ms, summarize, type Summary } from './stats.js';
import { holdLowLatencyIdle, type IdleHold } from './idle.js';

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
  --only LIST        scenarios to run: fast,http,wait,memory,capture,growth (default all)
  --out FILE         report path (default bench/RESULTS.md; "-" for none)
  --cpu-prof DIR     run our server under node --cpu-prof, profiles into DIR
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
    only: new Set(list('only', 'fast,http,wait,memory,capture,growth')),
    out: get('out', fileURLToPath(new URL('./RESULTS.md', import.meta.url))),
    cpuProf: get('cpu-prof', ''),
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
}

interface Table {
  readonly title: string;
  readonly intro?: string;
  readonly rows: Row[];
  readonly after: string[];
}

const tables: Table[] = [];
const targets: Array<{ what: string; target: string; measured: string; met: boolean | undefined }> = [];

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
      target: `${row.summary ? 'p50 ' : ''}<= ${row.target} ${unit}`,
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
  if (row.unavailable) return cells(row.name, 'not available', '', '', '', '', '', '', row.target, 'not available', row.note ?? 'tool not listed by the server yet');
  if (row.error) return cells(row.name, 'error', '', '', '', '', '', '', row.target, status(row), row.error.replaceAll('|', '/').replaceAll('\n', ' ').slice(0, 160));
  const s = row.summary;
  const unit = row.unit ?? 'ms';
  if (!s) return cells(row.name, row.value === undefined ? '' : `${ms(row.value)} ${unit}`, '', '', '', '', '', '', row.target, status(row), row.note);
  const cpu = (us: number | undefined) => (us === undefined ? '' : us.toFixed(0));
  return cells(
    row.name, s.n, ms(s.p50), ms(s.p90), ms(s.p99),
    row.ratio === undefined ? '' : row.ratio.toFixed(1) + 'x',
    cpu(row.cpu?.server), cpu(row.cpu?.tmux),
    row.target, status(row), row.note,
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
  if (!driver.has(tool)) return addRow(t, { name, unavailable: true, target: extra.target });
  try {
    const summary = await measure(driver, tool, args, { ...extra, tmuxPid: extra.tmuxPid ?? currentTmuxPid });
    return addRow(t, {
      name,
      summary,
      target: extra.target,
      ratio: extra.floor ? summary.p50 / extra.floor : undefined,
      note: [extra.note, extra.noteOf?.(summary.last)].filter(Boolean).join('; '),
      cpu: summary.cpu,
    });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return addRow(t, { name, error: error.message, target: extra.target, note: extra.note });
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

async function fastScenario(base: Base, floorInfo: Floor): Promise<{ idleRss?: number }> {
  const floor = floorInfo.summary;
  const t = table('Fast tools (one session, 8 panes)', 'Each row: warm-up, then timed calls; ratio = p50 / floor p50.');
  addRow(t, { name: 'floor: no-op SDK server, tool returning {}', summary: floor, ratio: 1, cpu: floor.cpu, note: 'same SDK, same stdio transport' });
  const driver = await McpDriver.ours(base.tmux.env, nodeArgs);
  let idleRss: number | undefined;
  try {
    // A few calls of each tool, then idle RSS, before the timed loops grow the heap.
    for (const tool of ['list_sessions', 'list_panes']) if (driver.has(tool)) for (let i = 0; i < 3; i++) await driver.call(tool, {});
    if (driver.has('capture_pane')) for (let i = 0; i < 3; i++) await driver.call('capture_pane', { paneId: base.shell });
    await sleep(200);
    idleRss = driver.memory('VmRSS');

    const f = floor.p50;
    const calls = fastCalls(base);
    for (const call of calls.slice(0, -1)) stdioP50.set(call.name, (await toolRow(t, driver, call.name, call.tool, call.args, { ...call, floor: f })).summary?.p50);
    const reads = batchOperations(driver, base);
    if (!driver.has('call_read_tools_batch')) addRow(t, { name: 'call_read_tools_batch (16 reads)', unavailable: true, target: 3 });
    else
      await toolRow(t, driver, `call_read_tools_batch (16 reads: ${reads.summary})`, 'call_read_tools_batch', () => ({ operations: reads.operations }), {
        target: 3,
        floor: f,
      });
    const shell = calls.at(-1)!;
    stdioP50.set(shell.name, (await toolRow(t, driver, shell.name, shell.tool, shell.args, { ...shell, floor: f })).summary?.p50);
    await juliaRows(t, base, f);
    await pythonRows(t, base, f);
    const after = driver.memory('VmRSS');
    // The issue states this target in MB (10^6 bytes); VmRSS is read in KiB.
    const mb = (mib: number) => (mib * 2 ** 20) / 1e6;
    const m = table('Memory at rest', 'VmRSS of the server process from /proc/<pid>/status, in MB (10^6 bytes) as the target is stated.');
    addRow(m, { name: 'idle RSS (after start-up and a few calls)', value: mb(idleRss), unit: 'MB', target: 70 });
    addRow(m, { name: 'floor: no-op SDK server after a few calls', value: mb(floorInfo.rss), unit: 'MB', note: 'node + the SDK alone' });
    addRow(m, { name: 'RSS after the fast-tool loops', value: mb(after), unit: 'MB', note: 'informational (heap not collected)' });
  } finally {
    await driver.close();
  }
  return { idleRss };
}

/** The single-tool rows of the fast table, measured over stdio there and over HTTP in the HTTP table. */
function fastCalls(base: Base) {
  return [
    { name: 'list_sessions', tool: 'list_sessions', args: () => ({}), target: 1.0 },
    { name: 'list_panes (8 panes)', tool: 'list_panes', args: () => ({}), target: 1.0 },
    { name: 'get_pane_info', tool: 'get_pane_info', args: () => ({ paneId: base.shell }), target: 1.0 },
    { name: 'capture_pane (visible screen)', tool: 'capture_pane', args: () => ({ paneId: base.others[0] }), target: 1.0 },
    { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: () => ({ paneId: base.sink, keys: ['x'], literal: true, enter: true }), target: 1.0 },
    // Last: the fast table measures the batch before it.
    {
      name: 'run_shell_command `true`',
      tool: 'run_shell_command',
      args: () => ({ paneId: base.shell, command: 'true' }),
      target: 8,
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

// ---- scenario: the same calls over Streamable HTTP ------------------------------------------------------

async function httpScenario(base: Base): Promise<void> {
  const t = table(
    'The same tools over Streamable HTTP',
    'Our server with `--http 127.0.0.1:0` and a bearer token, driven by the SDK client in each protocol era: 2025-11-25 ' +
      '(`initialize`, then calls in its session) and 2026-07-28 (`server/discover`, then each call its own request and ' +
      'server instance). The floor of each era is the no-op server behind the same HTTP stack (dist/mcp/http.js: gates, ' +
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

/** The same operations through the python profile (its wire names), in the same harness, beside the libtmux rows. */
async function pythonRows(t: Table, base: Base, f: number): Promise<void> {
  const driver = await McpDriver.ours({ ...base.tmux.env, TMUX_MCP_PROFILE: 'python' }, nodeArgs);
  try {
    const panes = [base.shell, ...base.others];
    const reads = Array.from({ length: 16 }, (_, i) => ({ tool: i % 2 ? 'capture_pane' : 'get_pane_info', arguments: { pane_id: panes[i % panes.length] } }));
    await toolRow(t, driver, 'python: list_sessions', 'list_sessions', () => ({}), { target: 1.0, floor: f });
    await toolRow(t, driver, 'python: list_panes (8 panes)', 'list_panes', () => ({}), { target: 1.0, floor: f });
    await toolRow(t, driver, 'python: get_pane_info', 'get_pane_info', () => ({ pane_id: base.shell }), { target: 1.0, floor: f });
    await toolRow(t, driver, 'python: capture_pane (visible screen)', 'capture_pane', () => ({ pane_id: base.others[0] }), { target: 1.0, floor: f });
    await toolRow(t, driver, 'python: send_keys (one key + Enter)', 'send_keys', () => ({ pane_id: base.sink, keys: 'x', literal: true }), { target: 1.0, floor: f });
    await toolRow(t, driver, 'python: call_read_tools_batch (16 reads: get_pane_info, capture_pane)', 'call_read_tools_batch', () => ({ operations: reads }), { target: 3, floor: f });
    await toolRow(t, driver, 'python: run_command `true`', 'run_command', () => ({ pane_id: base.shell, command: 'true' }), {
      target: 8,
      floor: f,
      iterations: Math.min(opts.iterations, 100),
      warmup: Math.min(opts.warmup, 5),
    });
  } finally {
    await driver.close();
  }
}

function batchOperations(driver: McpDriver, base: Base) {
  const panes = [base.shell, ...base.others];
  const candidates: Array<{ tool: string; arguments: Record<string, unknown> }> = [];
  for (let i = 0; candidates.length < 16 && i < 64; i++) {
    const pane = panes[i % panes.length]!;
    if (i % 2 === 0 && driver.has('capture_pane')) candidates.push({ tool: 'capture_pane', arguments: { paneId: pane } });
    if (i % 2 === 1 && driver.has('get_pane_info')) candidates.push({ tool: 'get_pane_info', arguments: { paneId: pane } });
  }
  const counts = new Map<string, number>();
  for (const op of candidates) counts.set(op.tool, (counts.get(op.tool) ?? 0) + 1);
  return { operations: candidates, summary: [...counts].map(([tool, n]) => `${n} ${tool}`).join(' + ') };
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

async function growthScenario(floor: Summary): Promise<void> {
  const t = table(
    'Growth with pane count',
    `Servers of N panes (10 per 400x200 window, each pane \`cat\` after printing ~${opts.history + 25} rows of ~24 characters, so >= ${opts.history} rows of ` +
      `scrollback). list_panes lists the whole server; search_panes looks for a literal found in every 10th pane with ` +
      `scrollbackLines=${opts.history}.`,
  );
  const listPoints: Array<[number, number]> = [];
  const searchPoints: Array<[number, number]> = [];
  for (const panes of opts.panes) {
    const built = performance.now();
    const { tmux } = await buildPaneFarm({ panes, paneCommand: farmPaneCommand(opts.history) });
    currentTmuxPid = await tmux.serverPid();
    try {
      await tmux.until(`history of ${panes} panes`, async () =>
        (await tmux.tmux('list-panes', '-a', '-F', '#{history_size}')).trim().split('\n').every((h) => Number(h) >= opts.history),
      );
      console.log(`  (built ${panes} panes in ${((performance.now() - built) / 1000).toFixed(1)} s)`);
      const driver = await McpDriver.ours(tmux.env, nodeArgs);
      try {
        const list = await toolRow(t, driver, `list_panes, ${panes} panes`, 'list_panes', () => ({}), {
          floor: floor.p50,
          target: panes === 1000 ? 15 : undefined,
          iterations: panes >= 1000 ? 60 : opts.iterations,
          warmup: 3,
        });
        if (list.summary) listPoints.push([panes, list.summary.p50]);
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
      } finally {
        await driver.close();
      }
    } finally {
      tmux.dispose();
    }
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
  out.push('## Targets', '', '| Target | Goal | Measured | Status |', '|---|---|---|---|');
  for (const t of targets) out.push(`| ${t.what} | ${t.target} | ${t.measured} | ${t.met === undefined ? (t.measured === 'not available' ? 'not available' : 'MISSED') : t.met ? 'MET' : 'MISSED'} |`);
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
    if (opts.only.has('http')) await httpScenario(base);
    if (opts.only.has('wait')) await waitScenario(base, floor);
    if (opts.only.has('capture')) await captureScenario(base, floor);
    if (opts.only.has('memory')) await memoryScenario(base);
    base.tmux.dispose();
    if (opts.only.has('growth')) await growthScenario(floor);
  } finally {
    base.tmux.dispose();
    idle.release();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\ndone in ${seconds.toFixed(0)} s`);
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
