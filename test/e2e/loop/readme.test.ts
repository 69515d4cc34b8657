/**
 * The README's "A typical loop", step by step, on the private default socket (kept inside the
 * test's temp dir through TMUX_TMPDIR): no sleeps, and no cursor the README does not mention.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { type } from 'node:os';
import { test } from 'node:test';
import { privateTmux, TMUX_BIN } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';

test('README: a typical loop', async (t) => {
  const tmux = privateTmux(t);
  const env: NodeJS.ProcessEnv = { ...tmux.env, TMUX_TMPDIR: tmux.dir };
  delete env.LIBTMUX_SOCKET_PATH; // the private default socket, as the README's reader has it
  t.after(() => void spawnSync(TMUX_BIN, ['-L', 'libtmux-mcp', 'kill-server'], { env, stdio: 'ignore' }));
  const mcp = await startMcp(t, { env });

  // 1. A session, and its pane.
  await mcp.ok('create_session', { name: 'work' });
  const { panes } = await mcp.ok('list_panes', { session: 'work' });
  assert.equal(panes.length, 1);
  const pane = panes[0].id as string;

  // 2. A shell command, its output and exit status.
  const run = await mcp.ok('run_shell_command', { paneId: pane, command: 'uname -s' });
  assert.deepEqual(run.output, [type()]);
  assert.equal(run.exitStatus, 0);

  // 3. A REPL, and its prompt.
  await mcp.ok('send_keys', { paneId: pane, keys: ['python3 -q', 'Enter'] });
  const ready = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['>>> '] });
  assert.equal(ready.outcome, 'matched');

  // 4. The answer, however fast it came.
  await mcp.ok('send_keys', { paneId: pane, keys: ['print(6*7)', 'Enter'] });
  const answer = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['42'] });
  assert.equal(answer.outcome, 'matched');
  assert.ok(answer.tail.includes('42'), JSON.stringify(answer.tail));

  // 5. Following the pane with a capture_since cursor.
  const start = await mcp.ok('capture_since', { paneId: pane });
  assert.deepEqual(start.lines, []);
  await mcp.ok('send_keys', { paneId: pane, keys: ["print('ab' * 2)", 'Enter'] });
  const abab = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['abab'] });
  assert.equal(abab.outcome, 'matched');
  const since = await mcp.ok('capture_since', { paneId: pane, cursor: start.cursor });
  assert.deepEqual(since.lines, [">>> print('ab' * 2)", 'abab', '>>>']);
  assert.equal(typeof since.cursor, 'string');

  // 6. Search.
  const found = await mcp.ok('search_panes', { pattern: 'abab' });
  assert.ok(
    found.matches.some((m: { pane: string; text: string }) => m.pane === pane && m.text === 'abab'),
    JSON.stringify(found.matches),
  );

  // 7. Clean up: teardown is on by default on the private socket.
  await mcp.ok('kill_session', { session: 'work' });
  assert.deepEqual((await mcp.ok('list_sessions')).sessions, []);
});
