/**
 * CPU per call, for work on the server's own cost while the machine is too loaded for wall-clock
 * numbers: `node --import tsx bench/cpu.ts [--calls N] [--warmup N] [--profile DIR] [--cli FILE] [--python] [tool...]`.
 * For the no-op floor and each fast tool: server CPU and tmux CPU in microseconds per call (from
 * /proc schedstat, as `npm run bench` counts them). With --profile, the server runs under
 * node --cpu-prof and the self time per call is printed by where the code lives (ours, the SDK,
 * ajv, zod, node), and the top functions of ours.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchTmux } from './tmux.js';
import { McpDriver, processCpuNs, useCli } from './mcp.js';
import { holdLowLatencyIdle } from './idle.js';
import { median } from './stats.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = argv[i + 1]!;
  argv.splice(i, 2);
  return value;
};
const calls = Number(flag('calls', '2000'));
const warmup = Number(flag('warmup', '2000'));
const profileDir = flag('profile', '');
const cli = flag('cli', '');
if (cli) useCli(cli);
/** Another build (its cli.js) to measure against, in alternating rounds of `--round` calls. */
const compare = flag('compare', '');
const rounds = Number(flag('rounds', '8'));
const roundCalls = Number(flag('round', '250'));
const switchOn = (name: string) => (argv.includes(`--${name}`) ? (argv.splice(argv.indexOf(`--${name}`), 1), true) : false);
const straceCalls = switchOn('strace');
/** The python profile's server, with the same cases in its argument names. */
const python = switchOn('python');
const wanted = new Set(argv);

const tmux = new BenchTmux();
const shell = await tmux.start({ width: 160, height: 50 });
const sink = await tmux.newWindow('bench', 'stty -echo; exec cat >/dev/null');
const others: string[] = [];
for (let i = 0; i < 6; i++) others.push(await tmux.newWindow('bench', `seq 1 30; exec cat`));
const tmuxPid = await tmux.serverPid();

const libtmuxCases: Array<[string, string, Record<string, unknown>]> = [
  ['list_sessions', 'list_sessions', {}],
  ['list_panes', 'list_panes', {}],
  ['get_pane_info', 'get_pane_info', { paneId: shell }],
  ['capture_pane', 'capture_pane', { paneId: others[0] }],
  ['send_keys', 'send_keys', { paneId: sink, keys: ['x'], literal: true, enter: true }],
  ['batch16', 'call_read_tools_batch', {
    operations: Array.from({ length: 16 }, (_, i) => ({ tool: i % 2 ? 'get_pane_info' : 'capture_pane', arguments: { paneId: [shell, ...others][i % 7] } })),
  }],
  ['run_true', 'run_shell_command', { paneId: shell, command: 'true' }],
];
const pythonCases: Array<[string, string, Record<string, unknown>]> = [
  ['list_sessions', 'list_sessions', {}],
  ['list_panes', 'list_panes', {}],
  ['get_pane_info', 'get_pane_info', { pane_id: shell }],
  ['capture_pane', 'capture_pane', { pane_id: others[0] }],
  ['send_keys', 'send_keys', { pane_id: sink, keys: 'x', literal: true }],
  ['batch16', 'call_read_tools_batch', {
    operations: Array.from({ length: 16 }, (_, i) => ({ tool: i % 2 ? 'get_pane_info' : 'capture_pane', arguments: { pane_id: [shell, ...others][i % 7] } })),
  }],
  ['run_true', 'run_command', { pane_id: shell, command: 'true' }],
];
const cases = python ? pythonCases : libtmuxCases;
const serverEnv = python ? { ...tmux.env, TMUX_MCP_PROFILE: 'python' } : tmux.env;

/** User and system CPU of a process so far, in microseconds (/proc/<pid>/stat, clock ticks). */
function userSys(pid: number): [number, number] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 1e6 / 100;
  return [Number(fields[11]) * tick, Number(fields[12]) * tick];
}

async function loop(driver: McpDriver, tool: string, args: Record<string, unknown>, n: number, w: number) {
  for (let i = 0; i < w; i++) await driver.call(tool, args);
  const server = driver.cpuNs();
  const t = processCpuNs(tmuxPid);
  const start = performance.now();
  const from = process.hrtime.bigint() / 1000n; // CLOCK_MONOTONIC, the clock of V8's profile timestamps
  const [user0, sys0] = userSys(driver.pid);
  for (let i = 0; i < n; i++) {
    const outcome = await driver.call(tool, args);
    if (outcome.isError) throw new Error(`${tool}: ${outcome.text}`);
  }
  return {
    server: (driver.cpuNs() - server) / n / 1000,
    tmux: (processCpuNs(tmuxPid) - t) / n / 1000,
    wall: (performance.now() - start) / n,
    user: (userSys(driver.pid)[0] - user0) / n,
    sys: (userSys(driver.pid)[1] - sys0) / n,
    window: [Number(from), Number(process.hrtime.bigint() / 1000n)] as const,
  };
}

const line = (name: string, r: { server: number; tmux: number; wall: number; user?: number; sys?: number }) =>
  console.log(
    `${name.padEnd(16)} server ${r.server.toFixed(0).padStart(5)} us` +
      (r.user === undefined ? '' : ` (user ${r.user.toFixed(0)}, sys ${r.sys!.toFixed(0)})`) +
      `  tmux ${r.tmux.toFixed(0).padStart(5)} us  wall ${r.wall.toFixed(3)} ms`,
  );

// As `npm run bench` does: idle vCPUs poll, so a pipe write does not pay for waking a halted one.
const idle = holdLowLatencyIdle(true);
console.log(idle.description);
const profiled = (name: string) => {
  if (!profileDir) return [];
  const dir = join(profileDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', '--cpu-prof-dir', dir];
};
try {
  const floorCommand = McpDriver.command('noop');
  const noop = await McpDriver.start(floorCommand.command, [...profiled('floor'), ...floorCommand.args], tmux.env);
  const floor = await loop(noop, 'noop', {}, calls, warmup);
  line('floor', floor);
  await noop.close();
  if (profileDir) summarizeProfile(join(profileDir, 'floor'), calls, floor.window);
  for (const [name, tool, args] of cases) {
    if (wanted.size && !wanted.has(name)) continue;
    if (compare) {
      await compareBuilds(name, tool, args);
      continue;
    }
    const driver = await McpDriver.ours(serverEnv, profiled(name));
    const n = name === 'run_true' ? Math.min(calls, 300) : name === 'batch16' ? Math.ceil(calls / 4) : calls;
    const w = name === 'run_true' ? 20 : name === 'batch16' ? Math.ceil(warmup / 4) : warmup;
    const result = await loop(driver, tool, args, n, w);
    line(name, result);
    if (straceCalls) await syscalls(driver, tool, args, Math.min(n, 300));
    await driver.close();
    if (profileDir) summarizeProfile(join(profileDir, name), n, result.window);
  }
} finally {
  idle.release();
  tmux.dispose();
}

/** System calls per call of the server (all threads), counted by strace -c over `n` calls. */
async function syscalls(driver: McpDriver, tool: string, args: Record<string, unknown>, n: number) {
  const { spawn } = await import('node:child_process');
  const out = join(profileDir || '/tmp', `strace-${process.pid}.txt`);
  const strace = spawn('strace', ['-c', '-f', '-o', out, '-p', String(driver.pid)], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (let i = 0; i < n; i++) await driver.call(tool, args);
  const exited = new Promise((resolve) => strace.once('exit', resolve));
  strace.kill('SIGINT');
  await exited;
  const rows = readFileSync(out, 'utf8').split('\n').map((l) => l.trim().split(/\s+/)).filter((c) => c.length >= 5 && /^\d/.test(c[3] ?? ''));
  console.log('   syscalls/call: ' + rows.map((c) => `${c.at(-1)} ${(Number(c[3]) / n).toFixed(2)}`).filter((x) => !x.endsWith(' 0.00')).join(', '));
  rmSync(out, { force: true });
}

/** This build and `compare` on the same tool, alternating rounds; medians of the rounds' CPU per call. */
async function compareBuilds(name: string, tool: string, args: Record<string, unknown>) {
  const base = await McpDriver.start(process.execPath, [compare], serverEnv);
  const mine = await McpDriver.ours(serverEnv);
  const n = name === 'run_true' ? Math.ceil(roundCalls / 5) : name === 'batch16' ? Math.ceil(roundCalls / 4) : roundCalls;
  try {
    type Round = Awaited<ReturnType<typeof loop>>;
    const results = { base: [] as Round[], mine: [] as Round[] };
    await loop(base, tool, args, 1, warmup);
    await loop(mine, tool, args, 1, warmup);
    for (let r = 0; r < rounds; r++) {
      results.base.push(await loop(base, tool, args, n, 0));
      results.mine.push(await loop(mine, tool, args, n, 0));
    }
    for (const which of ['base', 'mine'] as const) {
      const rs = results[which];
      line(`${name} ${which}`, {
        server: median(rs.map((r) => r.server)),
        user: median(rs.map((r) => r.user)),
        sys: median(rs.map((r) => r.sys)),
        tmux: median(rs.map((r) => r.tmux)),
        wall: median(rs.map((r) => r.wall)),
      });
    }
  } finally {
    await base.close();
    await mine.close();
  }
}

/** Self time per call by where the code lives, and our top functions. */
function summarizeProfile(dir: string, total: number, window: readonly [number, number]) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>;
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Only the measured loop: a sample's time is the gap to the next one.
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (at >= window[0] && at <= window[1]) self.set(id, (self.get(id) ?? 0) + next);
  });
  // dist/ bundles the SDK, zod and ajv with our code: a frame's place is read back through its source map.
  const maps = new Map<string, SourceMap | undefined>();
  const original = (url: string, line: number, column: number): { url: string; line: number } => {
    if (!url.startsWith('file:') || !url.includes('/dist/')) return { url, line };
    if (!maps.has(url)) {
      try {
        maps.set(url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8'))));
      } catch {
        maps.set(url, undefined);
      }
    }
    const entry = maps.get(url)?.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
    return entry?.originalSource === undefined ? { url, line } : { url: entry.originalSource, line: entry.originalLine ?? line };
  };
  const area = (url: string, fn: string) =>
    url.includes('@modelcontextprotocol') ? 'sdk' : url.includes('/ajv') ? 'ajv' : url.includes('/zod') ? 'zod' : url.includes('node_modules/') ? 'other' :
    url.includes('/dist/') || url.includes('/src/') || url.startsWith('../src/') ? 'ours' : url.startsWith('node:') ? 'node' : url === '' ? fn : 'other';
  const areas = new Map<string, number>();
  const ours = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const { functionName, lineNumber, columnNumber } = node.callFrame;
    const { url, line } = original(node.callFrame.url, lineNumber, columnNumber);
    const a = area(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
    if (a === 'ours') {
      const key = `${functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${line + 1}`;
      ours.set(key, (ours.get(key) ?? 0) + us);
    }
  }
  console.log('   self us/call by area: ' + [...areas].filter(([a]) => a !== '(idle)').sort((a, b) => b[1] - a[1]).map(([a, us]) => `${a} ${(us / total).toFixed(1)}`).join(', '));
  for (const [key, us] of [...ours].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`     ${(us / total).toFixed(1).padStart(6)} ${key}`);
}
