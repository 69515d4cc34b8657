/**
 * The caller guard holds against moves: no swap or move may take the pane this
 * server runs in, or its window, anywhere; and a session or window that holds it is never killed
 * without force, wherever it moved (decided from tmux's state at call time). In every profile.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { startJulia } from '../../fixture/julia.js';

/** Session "home" holds the caller's pane; session "h" another. The server runs "inside" the caller's pane. */
async function rig(t: Parameters<typeof privateTmux>[0]) {
  const tmux = privateTmux(t);
  const caller = await tmux.start({ session: 'home' });
  const other = await tmux.newSession('h');
  // A second window in each session, so no move is refused only for emptying a session.
  await tmux.tmux('new-window', '-d', '-t', 'home:');
  await tmux.tmux('new-window', '-d', '-t', 'h:');
  const pid = (await tmux.tmux('display-message', '-p', '#{pid}')).trim();
  const where = (pane: string) => place(tmux, pane);
  return {
    tmux,
    caller,
    other,
    callerEnv: { TMUX: `${tmux.socketPath},${pid},0`, TMUX_PANE: caller },
    where,
    callerWindow: (await where(caller)).window,
    otherWindow: (await where(other)).window,
  };
}

async function place(tmux: PrivateTmux, pane: string): Promise<{ session: string; window: string }> {
  const [session = '', window = ''] = (await tmux.tmux('display-message', '-p', '-t', pane, '#{session_name} #{window_id}'))
    .trim()
    .split(' ');
  return { session, window };
}

test("libtmux: swap_pane and move_window cannot take the caller's pane or window elsewhere; what holds it is not killed, wherever it went", async (t) => {
  const { tmux, caller, other, callerEnv, where, callerWindow, otherWindow } = await rig(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown', ...callerEnv } });

  // The walk-arounds: each move is refused, and names the caller's pane.
  assert.match(await mcp.fails('swap_pane', { paneId: caller, otherPaneId: other }), new RegExp(`refusing to swap-pane: .*${caller}`));
  assert.match(await mcp.fails('swap_pane', { paneId: other, otherPaneId: caller }), /refusing to swap-pane/);
  assert.match(
    await mcp.fails('move_window', { windowId: callerWindow, session: 'h' }),
    /refusing to move-window: .* holds the pane this MCP server runs in/,
  );
  assert.deepEqual(await where(caller), { session: 'home', window: callerWindow }, 'the caller did not move');
  assert.match(await mcp.fails('kill_session', { session: 'home' }), /refusing to kill session/);

  // Within its own window the caller's pane may trade places: nothing leaves the window.
  const sibling = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', caller)).trim();
  await mcp.ok('swap_pane', { paneId: caller, otherPaneId: sibling });
  assert.deepEqual(await where(caller), { session: 'home', window: callerWindow });
  await tmux.tmux('kill-pane', '-t', sibling);

  // Moving other panes and windows still works, into the caller's session too.
  await mcp.ok('move_window', { windowId: otherWindow, session: 'home' });
  assert.equal((await where(other)).session, 'home');
  await mcp.ok('move_window', { windowId: otherWindow, session: 'h' });

  // Moved by a person outside the server: the guard follows the pane, since it reads tmux's state at call time.
  await tmux.newSession('elsewhere');
  await tmux.tmux('move-window', '-s', callerWindow, '-t', 'elsewhere:');
  assert.equal((await where(caller)).session, 'elsewhere');
  assert.match(
    await mcp.fails('kill_session', { session: 'elsewhere' }),
    /refusing to kill session .* is the pane this MCP server runs in/,
  );
  assert.match(await mcp.fails('kill_window', { windowId: callerWindow }), /refusing to kill window/);
  assert.equal((await where(caller)).window, callerWindow, 'still there');
});

test("python: swap_pane and move_window cannot take the caller's pane or window elsewhere; kill_session of where it went is refused", async (t) => {
  const { tmux, caller, other, callerEnv, where, callerWindow } = await rig(t);
  const mcp = await startPython(t, tmux.env, callerEnv);

  assert.match(await mcp.fails('swap_pane', { source_pane_id: caller, target_pane_id: other }), /refusing to swap-pane/);
  assert.match(await mcp.fails('swap_pane', { source_pane_id: other, target_pane_id: caller }), /refusing to swap-pane/);
  assert.match(await mcp.fails('move_window', { window_id: callerWindow, destination_session: 'h' }), /refusing to move-window/);
  assert.deepEqual(await where(caller), { session: 'home', window: callerWindow });
  assert.match(await mcp.fails('kill_session', { session_name: 'home' }), /refus/i);

  await tmux.tmux('swap-pane', '-s', caller, '-t', other);
  assert.equal((await where(caller)).session, 'h', 'moved by a person');
  assert.match(await mcp.fails('kill_session', { session_name: 'h' }), /refus/i);
  assert.match(await mcp.fails('kill_window', { window_id: (await where(caller)).window }), /refus/i);
  // The caller's old session now holds the other pane only: that one may go.
  await mcp.ok('kill_session', { session_name: 'home' });
  assert.equal((await where(caller)).session, 'h');
});

test('julia: with the server inside a pane, kill_pane refuses that pane (julia has no move tools)', async (t) => {
  const { tmux, caller, callerEnv, where, callerWindow } = await rig(t);
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: ['--tool', 'list_panes', '--tool', 'kill_pane'], env: callerEnv });
  const target = await julia.target(caller);
  const error = await julia.error('kill_pane', { target });
  assert.match(error.message, /refusing to kill pane/);
  assert.deepEqual(await where(caller), { session: 'home', window: callerWindow });
});
