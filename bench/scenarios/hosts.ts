/** A listing spanning eight hosts against the same listing over one. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoopbackSshd, SSHD_BIN } from '../../test/fixture/sshd.js';
import type { Base } from '../base.js';
import { interleave } from '../measure.js';
import { descendants, McpDriver, processCpuNs } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { summarize } from '../stats.js';
import { BenchTmux } from '../tmux.js';

/** A listing over eight hosts may cost at most this many times the same listing over one (p50, same run). */
const HOSTS_OVER_ONE = 1.5;
/** Calls of each server alone, after the paired run, for the CPU of every process a listing wakes. */
const BREAKDOWN_CALLS = 200;

const cpuOf = (pids: readonly number[]): number =>
  pids.reduce((sum, pid) => {
    try {
      return sum + processCpuNs(pid);
    } catch {
      return sum; // ended meanwhile
    }
  }, 0);

/**
 * Microseconds of CPU per call of `driver` alone, in every process the listing wakes: our server,
 * its ssh clients, the sshd sessions, and the tmux servers (this machine's and the hosts').
 */
async function breakdown(driver: McpDriver, tool: string, args: Record<string, unknown>, sshdPid: number, tmuxPids: readonly number[]) {
  const ssh = descendants(driver.pid);
  const sshd = descendants(sshdPid);
  const before = [driver.cpuNs(), cpuOf(ssh), cpuOf(sshd), cpuOf(tmuxPids)];
  for (let i = 0; i < BREAKDOWN_CALLS; i++) await driver.call(tool, args);
  const after = [driver.cpuNs(), cpuOf(ssh), cpuOf(sshd), cpuOf(tmuxPids)];
  const [server, sshCpu, sshdCpu, tmux] = after.map((value, i) => (value - before[i]!) / BREAKDOWN_CALLS / 1000);
  return { server: server!, ssh: sshCpu!, sshd: sshdCpu!, tmux: tmux! };
}

/**
 * One loopback sshd, eight tmux servers behind it (aliases h1..h8, one session each): the listing
 * that spans every host, with one host configured against eight, alternating call for call.
 */
export async function hostsScenario(base: Base): Promise<void> {
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
    const sshdPid = Number(readFileSync(join(sshd.dir, 'sshd.pid'), 'utf8').trim());
    const tmuxPids = await Promise.all([base.tmux, ...servers].map((server) => server.serverPid()));
    for (const [profile, tool, rows] of [
      ['libtmux', 'list_sessions', (s: any) => s.sessions.length],
      ['julia', 'list_panes', (s: any) => s.panes.length],
    ] as const) {
      const one = await McpDriver.ours(env, [], ['--profile', profile, ...hostArgs(1)]);
      const eight = await McpDriver.ours(env, [], ['--profile', profile, ...hostArgs(8)]);
      drivers.push(one, eight);
      const args = profile === 'julia' ? { limit: 128 } : {};
      const [first1, first8] = [await one.call(tool, args), await eight.call(tool, args)];
      const note = (first: typeof first1) => (first.isError ? first.text : `${rows(first.structured)} rows`);
      const turns = [one, eight].map((driver) => ({ driver, tool, args }));
      const { samples, cpu } = await interleave(turns, Math.min(opts.iterations, 500), Math.min(opts.warmup, 200), [[0, 1], [1, 0]]);
      const [single, many] = samples.map((each) => summarize(each));
      const [cpu1, cpu8] = cpu;
      const [alone1, alone8] = [await breakdown(one, tool, args, sshdPid, tmuxPids), await breakdown(eight, tool, args, sshdPid, tmuxPids)];
      // Where a listing's CPU goes, each server called alone: per further host, ours, ssh's, sshd's and tmux's.
      const where = (alone: typeof alone1) => `alone: server ${alone.server.toFixed(0)}, ssh ${alone.ssh.toFixed(0)}, sshd ${alone.sshd.toFixed(0)}, tmux ${alone.tmux.toFixed(0)} us/call`;
      const perHost = (key: keyof typeof alone1) => ((alone8[key] - alone1[key]) / 7).toFixed(0);
      addRow(t, { name: `${profile} ${tool}: one host`, summary: single!, cpu: { server: cpu1!.server, tmux: alone1.tmux }, note: `${note(first1)}; ${where(alone1)}` });
      addRow(t, {
        name: `${profile} ${tool}: eight hosts`,
        summary: many!,
        cpu: { server: cpu8!.server, tmux: alone8.tmux },
        target: single!.p50 * HOSTS_OVER_ONE,
        goal: `${HOSTS_OVER_ONE} x one host`,
        floorValue: single!.p50,
        note:
          `${note(first8)}; ${(many!.p50 / single!.p50).toFixed(2)} x one host; ${where(alone8)}; ` +
          `each further host: server ${perHost('server')}, ssh ${perHost('ssh')}, sshd ${perHost('sshd')}, tmux ${perHost('tmux')} us`,
      });
    }
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
    await sshd.stop();
    sshd.dispose();
    for (const server of servers) server.dispose();
  }
}

