/**
 * The python profile and hosts: its per-call socket_name names a host as `HOST:` (the host's
 * configured tmux) while plain names stay local sockets, over a loopback sshd.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { settle } from '../../fixture/until.js';
import { ALL_TOOLSETS } from '../../fixture/python.js';
import { loopbackSshd } from '../../fixture/sshd.js';
import { privateTmux } from '../../fixture/tmux.js';

test('python: socket_name "HOST:" reaches that host; without it, the local tmux', async (t) => {
  const sshd = await loopbackSshd(t);
  const local = privateTmux(t);
  const a = privateTmux(t);
  const localPane = await local.start({ session: 'here' });
  const remotePane = await a.start({ session: 'alpha' });
  const mcp = await startMcp(t, {
    env: {
      ...local.env,
      LIBTMUX_TOOLSETS: ALL_TOOLSETS,
      SHELL: '/bin/sh',
      TMUX_MCP_SSH_CONFIG: sshd.config,
      TMUX_MCP_HOST_SILENCE_SECONDS: '3',
    },
    args: ['--profile', 'python', '--host', `a=hosta#${a.socketPath}`],
  });
  const names = async (args: Record<string, unknown>) =>
    (await mcp.ok('list_sessions', args)).result.map((s: { session_name: string }) => s.session_name);
  assert.deepEqual(await names({}), ['here']);
  assert.deepEqual(await names({ socket_name: 'a:' }), ['alpha']);
  const ran = await mcp.ok('run_command', { socket_name: 'a:', pane_id: remotePane, command: 'echo "$TMUX" | cut -d, -f1' });
  assert.deepEqual(ran.output, [a.socketPath], "the command ran in host a's tmux");
  assert.equal((await mcp.ok('get_server_info', { socket_name: 'a:' })).socket_path, a.socketPath);
  // list_servers: this machine's sockets, then the host, by the socket_name that reaches it.
  const servers = (await mcp.ok('list_servers')).result as Array<{ socket_name: string | null; socket_path: string; is_alive: boolean }>;
  assert.deepEqual(
    servers.filter((s) => s.socket_name === 'a:').map((s) => [s.socket_path, s.is_alive]),
    [[a.socketPath, true]],
  );
  assert.equal(servers.at(-1)!.socket_name, 'a:', 'hosts come after the local sockets');
  assert.equal((await mcp.ok('get_pane_info', { pane_id: localPane })).pane_id, localPane);
  await mcp.close();
  await settle(() => sshd.sessions().length === 0);
  assert.deepEqual(sshd.sessions(), [], 'no ssh session is left on the far side');
});
