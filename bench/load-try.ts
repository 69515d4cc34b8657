import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { httpLoad, type LoadEra } from '../test/fixture/http-load.js';

const era = (process.argv[2] ?? 'modern') as LoadEra;
const withPanes = process.argv.includes('--panes');
const extra = [...(process.argv.includes('--prof') ? ['--cpu-prof', '--cpu-prof-dir=/tmp/httpw/prof'] : []), ...(process.env.NODEFLAGS ? process.env.NODEFLAGS.split(' ') : [])];
const dir = mkdtempSync(join(tmpdir(), 'load-'));
const sock = join(dir, 'sock');
const tmux = (...a: string[]) => execFileSync('tmux', ['-S', sock, ...a], { encoding: 'utf8' });
tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'a', '-x', '120', '-y', '40');
for (let i = 0; i < 7; i++) tmux('split-window', '-t', 'a', '-d'), tmux('select-layout', '-t', 'a', 'tiled');
const pane = tmux('display', '-p', '-t', 'a', '#{pane_id}').trim();
const env = { ...process.env, LIBTMUX_SOCKET_PATH: sock, TMUX_MCP_TOKEN: 'tok' };
delete (env as any).TMUX;
const child = spawn(process.execPath, [...extra, 'dist/cli.js', '--http', '127.0.0.1:0'], { env, stdio: ["ignore", "inherit", "pipe"] }); child.stderr!.on("data", (c) => process.stdout.write(String(c).split("\n").filter(l => l.startsWith("flights")).map(l => l + "\n").join("")));
let stderr = '';
const url = await new Promise<string>((resolve) => child.stderr!.on('data', (c) => { stderr += c; const m = /HTTP at (\S+\/mcp)/.exec(stderr); if (m) resolve(m[1]!); }));
const tpid = tmux('display', '-p', '#{pid}').trim();
const cpuOf = (pid: any) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const cpu = () => cpuOf(child.pid); const tcpu = () => cpuOf(tpid);
const mix = [{ tool: 'list_sessions', args: {} }, { tool: 'capture_pane', args: { paneId: pane } }, ...(withPanes ? [{ tool: 'list_panes', args: {} }] : [])];
const calls = withPanes ? 50 : 40;
await httpLoad({ url, token: 'tok', era, clients: 50, calls, mix });
for (let r = 0; r < 3; r++) {
  const c0 = cpu(); const t0 = tcpu(); const g0 = process.cpuUsage();
  const res = await httpLoad({ url, token: 'tok', era, clients: 50, calls, mix });
  const c1 = cpu(); const t1 = tcpu(); const g1 = process.cpuUsage(g0);
  const s = [...res.ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1);
  console.log(`${era}${withPanes ? '+panes' : ''}: n=${s.length} failed=${res.failed} p50=${q(0.5)} p99=${q(0.99)} calls/s=${(s.length / res.wallMs * 1000).toFixed(0)} cpu/call=${((c1 - c0) / s.length).toFixed(2)}ms tmux=${((t1 - t0) / s.length).toFixed(2)} gen=${((g1.user + g1.system) / 1000 / s.length).toFixed(2)} ${res.firstFailure?.slice(0, 200) ?? ''}`);
}
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
tmux('kill-server');
