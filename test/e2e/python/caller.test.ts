/** The caller-pane guard in the python profile: the pane this server runs in is marked, and never typed into, respawned or killed. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux } from '../../fixture/tmux.js';
import { startPython } from '../../fixture/python.js';

test('python: the pane this server runs in is is_caller, and tools that type, respawn or kill refuse it', async (t) => {
  const tmux = privateTmux(t);
  const caller = await tmux.start({ session: 'home' });
  const other = (await tmux.tmux('split-window', '-t', caller, '-P', '-F', '#{pane_id}')).trim();
  const pid = (await tmux.tmux('display-message', '-p', '#{pid}')).trim();
  const sessionIndex = (await tmux.tmux('display-message', '-p', '-t', caller, '#{session_id}')).trim().slice(1);
  // As if started from inside that pane: TMUX is "socket,server pid,session", TMUX_PANE the pane.
  const mcp = await startPython(t, tmux.env, { TMUX: `${tmux.socketPath},${pid},${sessionIndex}`, TMUX_PANE: caller });

  const panes = (await mcp.ok('list_panes')).result;
  assert.equal(panes.find((p: any) => p.pane_id === caller).is_caller, true);
  assert.equal(panes.find((p: any) => p.pane_id === other).is_caller, false);

  for (const [tool, args] of [
    ['send_keys', { pane_id: caller, keys: 'echo no' }],
    ['paste_text', { pane_id: caller, text: 'no' }],
    ['run_command', { pane_id: caller, command: 'true' }],
    ['respawn_pane', { pane_id: caller }],
    ['kill_pane', { pane_id: caller }],
    ['kill_window', { window_id: panes[0].window_id }],
    ['kill_session', { session_name: 'home' }],
    ['kill_server', {}],
  ] as const) {
    const text = await mcp.fails(tool, args);
    assert.match(text, /refus/i, `${tool}: ${text}`);
    assert.doesNotMatch(text, /force: true if/, 'no advice about an argument this contract does not have');
  }
  const batch = await mcp.ok('send_keys_batch', {
    on_error: 'continue',
    operations: [
      { pane_id: caller, keys: 'x' },
      { pane_id: other, keys: 'true' },
    ],
  });
  assert.deepEqual(
    batch.results.map((r: any) => r.success),
    [false, true],
  );
  assert.equal((await tmux.tmux('list-panes', '-t', 'home', '-F', '#{pane_id}')).trim().split('\n').length, 2, 'nothing was killed');
});
