import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientsAfterExit, privateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';

test('serves initialize and tools/list with no tmux server on its socket', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: tmux.env });
  const { tools } = await mcp.client.listTools();
  assert.ok(tools.some((tool) => tool.name === 'list_sessions'));
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  assert.deepEqual(await mcp.ok('list_panes'), { panes: [] });
  assert.match(mcp.stderr(), /tmux-mcp .*profile libtmux, tmux [0-9][^,]*, socket .*tmux\.sock/);
});

test('list_sessions, list_panes and capture_pane end to end', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'alpha' });
  await tmux.typeAndWait(pane, 'echo hello-$((40+2))');
  const mcp = await startMcp(t, { env: tmux.env });

  const { sessions } = await mcp.ok('list_sessions');
  assert.equal(sessions.length, 1);
  assert.equal(sessions[0].name, 'alpha');
  assert.equal(sessions[0].isAttached, false, 'our own control client must not count as attached');
  assert.match(sessions[0].ref, /^tmux1_/);

  const { panes } = await mcp.ok('list_panes', { session: 'alpha' });
  assert.equal(panes.length, 1);
  assert.equal(panes[0].id, pane);

  const byRef = await mcp.ok('capture_pane', { paneId: panes[0].ref });
  assert.ok(byRef.lines.includes('hello-42'), byRef.lines.join('\n'));
  const tail = await mcp.ok('capture_pane', { paneId: pane, maxLines: 1 });
  assert.equal(tail.lines.length, 1);
  assert.ok(tail.droppedLines >= 2);

  const bad = await mcp.fails('capture_pane', { paneId: 'nope' });
  assert.match(bad, /paneId must be a pane id/);
  const gone = await mcp.fails('capture_pane', { paneId: '%999' });
  assert.match(gone, /no pane %999/);
  const extra = await mcp.fails('capture_pane', { paneId: pane, bogus: 1 });
  assert.match(extra, /unknown field "bogus"/);
});

test('closing the MCP client ends the server and its tmux clients', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  await mcp.ok('list_sessions');
  assert.notEqual(await tmux.tmux('list-clients', '-F', '#{client_pid}'), '', 'the control client is attached while serving');
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '', 'no tmux client left behind');
});

test('a process killed with SIGKILL leaves no tmux client behind either', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  await mcp.ok('list_sessions');
  const pid = (mcp.client.transport as unknown as { pid: number | null }).pid;
  assert.ok(pid);
  process.kill(pid, 'SIGKILL');
  assert.equal(await clientsAfterExit(tmux), '', 'the control client saw EOF on stdin and exited');
});
