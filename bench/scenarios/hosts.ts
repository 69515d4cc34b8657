/** A listing spanning eight hosts against the same listing over one. */
import { existsSync } from 'node:fs';
import { LoopbackSshd, SSHD_BIN } from '../../test/fixture/sshd.js';
import type { Base } from '../base.js';
import { interleave } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { summarize } from '../stats.js';
import { BenchTmux } from '../tmux.js';

/** A listing over eight hosts may cost at most this many times the same listing over one (p50, same run). */
const HOSTS_OVER_ONE = 1.5;

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

