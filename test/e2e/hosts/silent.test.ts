/**
 * A silent host: a loopback port that accepts the TCP connection and never says a word,
 * as a firewalled or powered-off machine does, reached as an ssh destination of the test's ssh
 * config. With a command timeout far longer than the SDK client waits for an answer (60 s), every
 * call that waited on that host for the command timeout would never be answered: connecting is
 * bounded on its own, listings answer with the hosts that answered and name the silent one, and
 * calls on this machine are answered while a call on the silent host is still connecting.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { hostArgs, hostServers, nothingLeft } from '../../fixture/hosts.js';

const DID_NOT_ANSWER = /host gpu did not answer \(ssh hang\)/;

test('hosts: a host that accepts connections and never answers holds up nothing', async (t) => {
  const servers = await hostServers(t);
  const mcp = await startMcp(t, {
    env: {
      ...servers.local.env,
      LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown',
      TMUX_MCP_SSH_CONFIG: servers.sshd.config,
      LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '100',
    },
    args: [...hostArgs(servers), '--host', 'gpu=hang'],
  });

  // The listing answers with the three servers that answered, and names the one that did not.
  const listed = await mcp.call('list_sessions');
  assert.ok(!listed.isError, JSON.stringify(listed.content));
  const sessions = (listed.structuredContent as { sessions: Array<{ id: string; name: string }> }).sessions;
  assert.deepEqual(
    sessions.map((s) => [s.id, s.name]),
    [
      ['$0', 'here'],
      ['a:$0', 'alpha'],
      ['b:$0', 'beta'],
    ],
  );
  const note = listed.content.map((c) => c.text).join('\n');
  assert.match(note, /Not listed \(host could not answer\): gpu: host gpu did not answer/);

  // A call on the silent host fails saying so, not that tmux is overloaded; this machine answers meanwhile.
  let settled = false;
  const onGpu = mcp.call('run_shell_command', { paneId: 'gpu:%0', command: 'echo hi' }).finally(() => (settled = true));
  await mcp.ok('capture_pane', { paneId: '%0' });
  assert.equal(settled, false, 'the local call was answered while the silent host was still being tried');
  const failed = await onGpu;
  assert.equal(failed.isError, true);
  const message = failed.content.map((c) => c.text).join('\n');
  assert.match(message, DID_NOT_ANSWER);
  assert.doesNotMatch(message, /overloaded|get_server_info/);

  // Asked again, it says the same; the other hosts still answer.
  assert.match(await mcp.fails('capture_pane', { paneId: 'gpu:%0' }), DID_NOT_ANSWER);
  await mcp.ok('capture_pane', { paneId: 'a:%0' });
  await mcp.close();
  await nothingLeft(servers);
});
