/** The same calls on one tmux server, addressed locally and over a loopback ssh host. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { LoopbackSshd, SSHD_BIN } from '../../test/fixture/sshd.js';
import type { Base, Floor } from '../base.js';
import { toolRow } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { settle } from '../../test/fixture/until.js';
import { addRow, table } from '../report.js';

/**
 * The same calls on the same tmux server, addressed locally and as a host over a loopback sshd
 * (test/fixture/sshd.ts): the difference is the ssh hop. Skipped when sshd is not installed.
 */
export async function sshScenario(base: Base, { summary: floor }: Floor): Promise<void> {
  const t = table('Local vs a host over loopback ssh (same tmux server)', 'Each pair: the call on the local tmux, then the same call through `--host ssh=...`; ratio = p50 / floor p50.');
  if (!existsSync(SSHD_BIN)) return void addRow(t, { name: 'loopback sshd', unavailable: true, note: `${SSHD_BIN} not installed` });
  const sshd = await LoopbackSshd.start(['benchhost']);
  const driver = await McpDriver.ours({ ...base.tmux.env, TMUX_MCP_SSH_CONFIG: sshd.config }, [], ['--host', `ssh=benchhost#${base.tmux.socketPath}`]);
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
      await settle(async () => (await clients()) > before, 20_000);
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


