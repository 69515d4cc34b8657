import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type PrivateTmux, privateTmux } from '../../fixture/tmux.js';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { until } from '../../fixture/until.js';

const ALL_TOOLSETS = { LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' };

/** A real directory whose name holds a tmux format, to prove paths reach tmux literally. */
function trickyDirectory(t: { after: (fn: () => void) => void }): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tmux-mcp-dir-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const dir = join(base, 'dir #{pane_id} $HOME');
  mkdirSync(dir);
  return dir;
}

/** The working directory of a pane's program; empty until a just-started program is running, so wait for it. */
async function currentPath(tmux: PrivateTmux, target: string): Promise<string> {
  let path = '';
  await until(`a working directory for ${target}`, async () => (path = await display(tmux, target, '#{pane_current_path}')) !== '', 5_000);
  return path;
}

async function sessionNames(mcp: McpSession): Promise<string[]> {
  const { sessions } = await mcp.ok('list_sessions');
  return sessions.map((s: { name: string }) => s.name).sort();
}

async function display(tmux: PrivateTmux, target: string, format: string): Promise<string> {
  return (await tmux.tmux('display-message', '-p', '-t', target, format)).trimEnd();
}

test('create_session starts the tmux server, takes names and directories literally, and refuses bad input', async (t) => {
  const tmux = privateTmux(t);
  const dir = trickyDirectory(t);
  const mcp = await startMcp(t, { env: tmux.env });
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });

  // Bad input changes nothing, and with no server it starts none.
  assert.match(await mcp.fails('create_session', { name: '' }), /name must not be empty/);
  assert.match(await mcp.fails('create_session', { name: 'a:b' }), /":".*not allow/);
  assert.match(await mcp.fails('create_session', { name: 'a.b' }), /"\.".*not allow/);
  assert.match(await mcp.fails('create_session', { name: 'a\nb' }), /control character U\+000a/);
  assert.match(await mcp.fails('create_session', { name: 'a\uD800b' }), /unpaired surrogate/);
  assert.match(await mcp.fails('create_session', { name: 'cost$x' }), /"\$x", which tmux would store with an extra backslash/);
  assert.match(await mcp.fails('create_session', { name: 'a\\b' }), /extra backslash/);
  assert.match(await mcp.fails('create_session', { name: 'x', startDirectory: join(dir, 'missing') }), /does not exist/);
  const file = join(dir, 'file');
  writeFileSync(file, '');
  assert.match(await mcp.fails('create_session', { name: 'x', startDirectory: file }), /is not a directory/);
  assert.match(await mcp.fails('create_session', { name: 'x', startDirectory: 'relative/dir' }), /absolute path/);
  assert.match(await mcp.fails('create_session', { name: 'x', width: 20000 }), /width must be .* 1 to 10000/);
  assert.match(await mcp.fails('create_session', { name: 'x', width: 0 }), /width/);
  assert.match(await mcp.fails('create_session', { name: 'x', windowName: '' }), /windowName must not be empty/);
  assert.match(await mcp.fails('create_session', { name: 'x', command: 'rm -rf /' }), /unknown field "command"/);
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  await assert.rejects(tmux.tmux('list-sessions'), 'no tmux server may have been started by refused calls');

  const name = 'work #{pane_id} ~ "q" ;x';
  const created = await mcp.ok('create_session', { name, windowName: 'win #{session_name}', startDirectory: dir, width: 100, height: 30 });
  assert.equal(created.name, name);
  assert.match(created.id, /^\$\d+$/);
  assert.match(created.ref, /^tmux1_/);
  assert.equal(created.windowCount, 1);
  assert.equal(created.isAttached, false);
  assert.ok(Math.abs(created.createdAt - Date.now() / 1000) < 60);

  assert.deepEqual(await sessionNames(mcp), [name]);
  assert.equal(
    await display(tmux, created.id, '#{session_name}|#{window_name}|#{pane_width}x#{pane_height}'),
    `${name}|win #{session_name}|100x30`,
  );
  assert.equal(await currentPath(tmux, created.id), dir);
  const { panes } = await mcp.ok('list_panes', { session: created.ref });
  assert.equal(panes.length, 1);
  assert.equal(panes[0].currentPath, dir);

  // Taken name: a clear refusal, nothing new.
  const duplicate = await mcp.fails('create_session', { name });
  assert.match(duplicate, /already exists \(\$\d+\)/);
  assert.deepEqual(await sessionNames(mcp), [name]);

  // With the server running (control mode now), defaults: tmux names the window, default size.
  const second = await mcp.ok('create_session', { name: 'second;' });
  assert.equal(second.name, 'second;', 'a trailing ";" is part of the name, not a command separator');
  assert.deepEqual(await sessionNames(mcp), [name, 'second;'].sort());
  assert.equal(await display(tmux, second.id, '#{window_width}x#{window_height}'), '80x24');
  assert.equal(await display(tmux, second.id, '#{automatic-rename}'), '1');
});

test('killing the last session stops the server; the MCP server keeps answering and can start a new one', async (t) => {
  const tmux = privateTmux(t);
  // A socket the test names (LIBTMUX_SOCKET_PATH): teardown is opt-in there.
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  const one = await mcp.ok('create_session', { name: 'one' });
  const two = await mcp.ok('create_session', { name: 'two' });
  // Kill the session the control connection most likely sits in first, then the last one.
  assert.deepEqual(await mcp.ok('kill_session', { session: one.id }), { sessionId: one.id, deleted: true });
  assert.deepEqual(await sessionNames(mcp), ['two']);
  assert.deepEqual(await mcp.ok('kill_session', { session: 'two' }), { sessionId: two.id, deleted: true });
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  assert.deepEqual(await mcp.ok('list_panes'), { panes: [] });
  await assert.rejects(tmux.tmux('list-sessions'), 'the tmux server must have exited');
  assert.match(await mcp.fails('kill_session', { session: 'two' }), /no session named "two"|no tmux server/);
  assert.match(await mcp.fails('kill_pane', { paneId: '%0' }), /no tmux server is running/);
  assert.match(await mcp.fails('create_window', { session: one.ref }), /no tmux server is running/);

  // Again and again: each round starts a server, and teardown leaves the connection usable.
  for (let round = 0; round < 5; round++) {
    const s = await mcp.ok('create_session', { name: `round-${round}` });
    const extra = await mcp.ok('create_session', { name: `extra-${round}` });
    assert.deepEqual(await sessionNames(mcp), [`extra-${round}`, `round-${round}`]);
    await mcp.ok('kill_session', { session: round % 2 ? s.id : extra.id });
    assert.equal((await mcp.ok('list_sessions')).sessions.length, 1);
    await mcp.ok('kill_session', { session: round % 2 ? extra.ref : s.ref });
    assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  }
});

test('a tmux server with no session (kept by exit-empty off): every listing is empty, not an error, in libtmux and julia; a session made then is listed', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'gone' });
  await tmux.tmux('set-option', '-s', 'exit-empty', 'off');
  await tmux.tmux('kill-session', '-t', 'gone');
  // tmux itself refuses a whole-server listing then: it has no session to take as current.
  await assert.rejects(tmux.tmux('list-windows', '-a'), /no current target/);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  assert.deepEqual(await mcp.ok('list_windows'), { windows: [] });
  assert.deepEqual(await mcp.ok('list_panes'), { panes: [] });
  const julia = await startMcp(t, { env: tmux.env, args: ['--profile', 'julia'] });
  const listed = await julia.ok('list_panes');
  assert.deepEqual([listed.panes, listed.total, listed.coverage], [[], 0, 'complete_observed_graph']);
  await mcp.ok('create_session', { name: 'made' });
  assert.deepEqual(
    (await mcp.ok('list_sessions')).sessions.map((s: { name: string }) => s.name),
    ['made'],
  );
  assert.equal((await mcp.ok('list_panes')).panes.length, 1);
});

test('the tmux server killed from outside: list_sessions, create_session and list_panes still answer', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'before' });
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  const { panes: before } = await mcp.ok('list_panes');
  assert.deepEqual(
    before.map((p: { id: string }) => p.id),
    [pane],
  );

  await tmux.tmux('kill-server');
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  assert.deepEqual(await mcp.ok('list_panes'), { panes: [] });
  const again = await mcp.ok('create_session', { name: 'after' });
  assert.equal(again.name, 'after');
  const { panes } = await mcp.ok('list_panes');
  assert.equal(panes.length, 1);
  assert.equal(panes[0].windowID, await display(tmux, again.id, '#{window_id}'));
  // A ref from the old server is refused, never applied to the new pane that reuses its id.
  assert.match(await mcp.fails('kill_pane', { paneId: before[0].ref }), /stale/);
  assert.deepEqual(await sessionNames(mcp), ['after']);
});

test('create_window, split_window, set_synchronize_panes, clear_pane_scrollback, kill_pane, kill_window', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start({ session: 'main', width: 120, height: 40 });
  const dir = trickyDirectory(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  const windowsOf = async () => (await tmux.tmux('list-windows', '-t', 'main', '-F', '#{window_id} #{window_name}')).trim().split('\n');

  // create_window: bad input changes nothing.
  assert.match(await mcp.fails('create_window', { session: 'nope' }), /no session named "nope"/);
  assert.match(await mcp.fails('create_window', { session: 'main', startDirectory: join(dir, 'missing') }), /does not exist/);
  assert.match(await mcp.fails('create_window', { session: 'main', name: '' }), /must not be empty/);
  assert.equal((await windowsOf()).length, 1);

  const win = await mcp.ok('create_window', { session: 'main', name: 'logs #{window_id}', startDirectory: dir });
  assert.equal(win.name, 'logs #{window_id}');
  assert.equal(win.sessionID, await display(tmux, 'main', '#{session_id}'));
  assert.equal(win.index, 1);
  assert.equal(win.target, `${win.sessionID}:1`);
  assert.equal(win.isActive, false, 'the new window is created in the background');
  assert.equal(win.paneCount, 1);
  assert.match(win.windowRef, /^tmux1_/);
  assert.match(win.linkRef, /^tmux1_/);
  // The first window's own name follows its program (automatic-rename: sh, then bash), so only its id is held.
  const listed = await windowsOf();
  assert.equal(listed.length, 2);
  assert.ok(listed[0]!.startsWith(`${await display(tmux, first, '#{window_id}')} `));
  assert.equal(listed[1], `${win.id} logs #{window_id}`);
  assert.equal(await currentPath(tmux, win.id), dir);
  const unnamed = await mcp.ok('create_window', { session: win.sessionID });
  assert.equal(unnamed.index, 2);

  // split_window: all four directions, focus unchanged.
  assert.match(await mcp.fails('split_window', { paneId: '%999' }), /no pane %999/);
  assert.match(await mcp.fails('split_window', { paneId: first, direction: 'diagonal' }), /direction/);
  assert.match(await mcp.fails('split_window', { paneId: first, startDirectory: '/definitely/not/here' }), /does not exist/);
  assert.equal(await display(tmux, first, '#{window_panes}'), '1');

  const right = await mcp.ok('split_window', { paneId: first, direction: 'right', startDirectory: dir });
  assert.match(right.id, /^%\d+$/);
  assert.equal(right.isAtRight, true);
  assert.equal(right.isActive, false);
  assert.equal(right.isDead, false);
  assert.equal(right.currentPath, dir);
  assert.equal(await display(tmux, first, '#{pane_at_right}'), '0');
  const below = await mcp.ok('split_window', { paneId: right.ref });
  assert.equal(below.isAtBottom, true);
  assert.equal(await display(tmux, right.id, '#{pane_at_bottom}'), '0');
  const above = await mcp.ok('split_window', { paneId: below.id, direction: 'above' });
  assert.equal(Number(await display(tmux, above.id, '#{pane_top}')) < Number(await display(tmux, below.id, '#{pane_top}')), true);
  const left = await mcp.ok('split_window', { paneId: first, direction: 'left' });
  assert.equal(left.isAtLeft, true);
  assert.equal(await display(tmux, first, '#{pane_at_left}'), '0');
  assert.equal(await display(tmux, first, '#{window_panes}'), '5');
  assert.equal(await display(tmux, first, '#{pane_active}'), '1', 'the split pane keeps focus');

  // A pane too small to split: refused with a clear message, no pane added.
  const tiny = (await tmux.tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'tiny', '-x', '6', '-y', '4')).trim();
  let failure = '';
  for (let i = 0; i < 8 && !failure; i++) {
    const result = await mcp.call('split_window', { paneId: tiny, direction: 'right' });
    if (result.isError) failure = result.content.map((c) => c.text).join('\n');
  }
  assert.match(failure, /too small to split side by side/);
  const tinyPanes = await display(tmux, tiny, '#{window_panes}');
  assert.match(await mcp.fails('split_window', { paneId: tiny, direction: 'right' }), /too small/);
  assert.equal(await display(tmux, tiny, '#{window_panes}'), tinyPanes);

  // set_synchronize_panes
  const windowId = await display(tmux, first, '#{window_id}');
  assert.deepEqual(await mcp.ok('set_synchronize_panes', { windowId, enabled: true }), { windowId, enabled: true });
  assert.equal((await tmux.tmux('show-options', '-w', '-v', '-t', windowId, 'synchronize-panes')).trim(), 'on');
  const synced = (await mcp.ok('list_panes', { window: windowId })).panes;
  assert.equal(synced.length, 5);
  assert.ok(synced.every((p: { isSynchronized: boolean }) => p.isSynchronized));
  assert.equal((await mcp.ok('list_panes', { window: win.id })).panes[0].isSynchronized, false, 'only that window');
  assert.deepEqual(await mcp.ok('set_synchronize_panes', { windowId, enabled: false }), { windowId, enabled: false });
  assert.equal((await tmux.tmux('show-options', '-w', '-v', '-t', windowId, 'synchronize-panes')).trim(), 'off');
  assert.match(await mcp.fails('set_synchronize_panes', { windowId: '@999', enabled: true }), /no window @999/);
  assert.match(await mcp.fails('set_synchronize_panes', { windowId }), /enabled/);

  // clear_pane_scrollback: history goes, the screen stays.
  await tmux.typeAndWait(first, 'seq 1 300; echo marker-end');
  assert.ok(Number(await display(tmux, first, '#{history_size}')) > 100);
  assert.deepEqual(await mcp.ok('clear_pane_scrollback', { paneId: first }), { paneId: first, deleted: true });
  assert.equal(await display(tmux, first, '#{history_size}'), '0');
  assert.ok((await mcp.ok('capture_pane', { paneId: first })).lines.includes('marker-end'), 'the visible screen is kept');
  assert.match(await mcp.fails('clear_pane_scrollback', { paneId: 'first' }), /paneId must be a pane id/);
  assert.match(await mcp.fails('clear_pane_scrollback', { paneId: '%999' }), /no pane %999/);

  // kill_pane / kill_window
  assert.match(await mcp.fails('kill_pane', { paneId: '%999' }), /no pane %999/);
  assert.deepEqual(await mcp.ok('kill_pane', { paneId: right.ref }), { paneId: right.id, deleted: true });
  const remaining = (await mcp.ok('list_panes', { window: windowId })).panes.map((p: { id: string }) => p.id);
  assert.equal(remaining.length, 4);
  assert.ok(!remaining.includes(right.id));
  assert.match(await mcp.fails('kill_window', { windowId: 'logs' }), /windowId must be a window id/);
  assert.deepEqual(await mcp.ok('kill_window', { windowId: win.linkRef }), { windowId: win.id, deleted: true });
  assert.deepEqual(
    (await windowsOf()).map((line) => line.split(' ')[0]),
    [windowId, unnamed.id],
  );
  assert.match(await mcp.fails('kill_window', { windowId: win.id }), /no window/);
});

test('respawn_pane: refuses a live pane without killFirst, revives a dead one, keeps the pane id', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'r' });
  const dir = trickyDirectory(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  const pid = await display(tmux, pane, '#{pane_pid}');

  const live = await mcp.fails('respawn_pane', { paneId: pane });
  assert.match(live, /still running.*killFirst: true/);
  assert.equal(await display(tmux, pane, '#{pane_pid}'), pid, 'a refused respawn leaves the program alone');
  assert.match(await mcp.fails('respawn_pane', { paneId: pane, killFirst: true, startDirectory: 'nowhere' }), /absolute path/);
  assert.match(await mcp.fails('respawn_pane', { paneId: '%999', killFirst: true }), /no pane %999/);
  assert.equal(await display(tmux, pane, '#{pane_pid}'), pid);

  const respawned = await mcp.ok('respawn_pane', { paneId: pane, killFirst: true, startDirectory: dir });
  assert.equal(respawned.pane, pane);
  assert.match(respawned.paneRef, /^tmux1_/);
  assert.notEqual(await display(tmux, pane, '#{pane_pid}'), pid);
  assert.equal(await currentPath(tmux, pane), dir);

  // A dead pane (remain-on-exit) comes back without killFirst. tmux up to at least 3.6a can crash
  // when a pane is respawned while a control client that still has unread output from it is
  // attached to its session (tmux/tmux#5499), so the dead pane lives in a session this server's
  // command connection is not attached to.
  const spare = await tmux.newSession('spare');
  await mcp.ok('list_sessions');
  const controlSessions = (await tmux.tmux('list-clients', '-F', '#{client_control_mode} #{session_name}'))
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('1 '))
    .map((line) => line.slice(2));
  const [victim, session] = controlSessions.includes('spare') ? [pane, 'r'] : [spare, 'spare'];
  assert.ok(!controlSessions.includes(session));
  await tmux.tmux('set-option', '-w', '-t', victim, 'remain-on-exit', 'on');
  await tmux.tmux('send-keys', '-t', victim, 'exit', 'Enter');
  // tmux 3.3a does not always run the pane-died hook (it can skip it when the pty closes before the
  // exit status arrives), so poll the pane's dead flag, bounded.
  await until('the pane to die', async () => (await display(tmux, victim, '#{pane_dead}')) === '1', 10_000);
  assert.equal((await mcp.ok('list_panes', { session })).panes[0].isDead, true);
  const revived = await mcp.ok('respawn_pane', { paneId: victim });
  assert.equal(revived.pane, victim);
  const after = (await mcp.ok('list_panes', { session })).panes[0];
  assert.equal(after.id, victim);
  assert.equal(after.isDead, false);
});

test('the caller guard: no killing or respawning the pane the server runs in, unless force', async (t) => {
  const tmux = privateTmux(t);
  const caller = await tmux.start({ session: 'home' });
  const sibling = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', caller)).trim();
  const other = await tmux.newSession('other');
  const serverPid = (await tmux.tmux('display-message', '-p', '#{pid}')).trim();
  const mcp = await startMcp(t, {
    env: { ...tmux.env, ...ALL_TOOLSETS, TMUX_PANE: caller, TMUX: `${tmux.socketPath},${serverPid},0` },
  });
  const windowId = await display(tmux, caller, '#{window_id}');
  const pid = await display(tmux, caller, '#{pane_pid}');
  const alive = async () => (await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n').sort();
  const everything = await alive();

  assert.match(
    await mcp.fails('kill_pane', { paneId: caller }),
    new RegExp(`refusing to kill pane ${caller}: ${caller} is the pane this MCP server runs in.*force: true`),
  );
  assert.match(await mcp.fails('kill_window', { windowId }), new RegExp(`refusing to kill window ${windowId}: ${caller} is the pane`));
  assert.match(
    await mcp.fails('kill_session', { session: 'home' }),
    /refusing to kill session \$\d+: .* is the pane this MCP server runs in/,
  );
  assert.match(await mcp.fails('respawn_pane', { paneId: caller, killFirst: true }), /refusing to respawn pane/);
  assert.deepEqual(await alive(), everything, 'refusals change nothing');
  assert.equal(await display(tmux, caller, '#{pane_pid}'), pid);

  // Other panes are fair game without force.
  await mcp.ok('kill_pane', { paneId: sibling });
  await mcp.ok('kill_session', { session: 'other' });
  assert.deepEqual(await alive(), [caller]);
  assert.ok(!(await alive()).includes(other));

  // force: true does it.
  const respawned = await mcp.ok('respawn_pane', { paneId: caller, force: true });
  assert.equal(respawned.pane, caller);
  assert.notEqual(await display(tmux, caller, '#{pane_pid}'), pid, 'force implies killFirst');
  const home = await display(tmux, caller, '#{session_id}');
  assert.deepEqual(await mcp.ok('kill_session', { session: 'home', force: true }), { sessionId: home, deleted: true });
  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
});
