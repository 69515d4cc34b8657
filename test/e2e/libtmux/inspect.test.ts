import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { privateTmux, scrubbedEnv, TMUX_BIN } from '../../fixture/tmux.js';
import { progressOnWire, startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { until } from '../../fixture/until.js';

/**
 * One tmux server and one MCP server for the tests that read one pane of their own (each on a session
 * of its own); the tests that read the whole server, or set its options, hooks or environment, keep their own.
 */
const server = sharedMcp();

test('get_server_info without and with a tmux server', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: tmux.env });
  assert.deepEqual(await mcp.ok('get_server_info'), { running: false });
  // Listings of nothing are empty; reads that need a server say how to get one.
  assert.deepEqual(await mcp.ok('list_windows'), { windows: [] });
  assert.deepEqual(await mcp.ok('search_panes', { pattern: 'x' }), {
    matches: [],
    panesSearched: 0,
    panesAvailable: 0,
    truncated: false,
    truncatedBy: [],
  });
  assert.deepEqual(await mcp.ok('show_hooks'), { hooks: [] });
  assert.match(await mcp.fails('get_tmux_variables', { names: ['version'] }), /no tmux server is running/);
  assert.match(await mcp.fails('show_option', { name: 'history-limit' }), /no tmux server is running/);
  await tmux.start();
  const info = await mcp.ok('get_server_info');
  assert.equal(info.running, true);
  assert.equal(info.version, (await tmux.tmux('display-message', '-p', '#{version}')).trim());
  assert.equal(info.socketPath, (await tmux.tmux('display-message', '-p', '#{socket_path}')).trim());
});

test('session, window and pane info, list_windows with linked windows, find_pane_by_position', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start({ session: 'alpha' });
  await tmux.newSession('beta');
  const windowId = (await tmux.tmux('display-message', '-p', '-t', first, '#{window_id}')).trim();
  // Link alpha's window into beta as well: one window, two placements.
  await tmux.tmux('link-window', '-s', windowId, '-t', 'beta:5');
  const right = (await tmux.tmux('split-window', '-h', '-P', '-F', '#{pane_id}', '-t', first)).trim();
  const bottomRight = (await tmux.tmux('split-window', '-v', '-P', '-F', '#{pane_id}', '-t', right)).trim();
  const mcp = await startMcp(t, { env: tmux.env });

  const { session } = await mcp.ok('get_session_info', { session: 'alpha' });
  assert.equal(session.name, 'alpha');
  assert.equal(session.windowCount, 1);
  assert.equal(session.isAttached, false);
  assert.deepEqual((await mcp.ok('get_session_info', { session: session.ref })).session, session);
  assert.deepEqual((await mcp.ok('get_session_info', { session: session.id })).session, session);
  assert.match(await mcp.fails('get_session_info', { session: 'nope' }), /no session named "nope"/);

  const all = await mcp.ok('list_windows');
  const placements = all.windows.filter((w: any) => w.id === windowId);
  assert.equal(placements.length, 2, JSON.stringify(all.windows));
  assert.equal(new Set(placements.map((w: any) => w.windowRef)).size, 1, 'one window, one windowRef');
  assert.equal(new Set(placements.map((w: any) => w.linkRef)).size, 2, 'two placements, two linkRefs');
  assert.ok(placements.some((w: any) => w.index === 5 && w.target.endsWith(':5')));
  const beta = await mcp.ok('list_windows', { session: 'beta' });
  assert.equal(beta.windows.length, 2);
  assert.ok(beta.windows.every((w: any) => w.sessionID === beta.windows[0].sessionID));

  const info = await mcp.ok('get_window_info', { windowId });
  assert.equal(info.window.id, windowId);
  assert.equal(info.window.paneCount, 3);
  assert.equal(info.placements.length, 2);
  assert.deepEqual(
    info.placements.map((p: any) => p.windowID),
    [windowId, windowId],
  );
  const viaLink = await mcp.ok('get_window_info', { windowId: placements[1].linkRef });
  assert.equal(viaLink.window.id, windowId);
  assert.match(await mcp.fails('get_window_info', { windowId: 'x' }), /windowId must be a window id/);

  const { pane } = await mcp.ok('get_pane_info', { paneId: bottomRight });
  assert.equal(pane.id, bottomRight);
  assert.equal(pane.windowID, windowId);
  assert.equal(pane.isAtBottom && pane.isAtRight && !pane.isAtTop && !pane.isAtLeft, true);
  assert.deepEqual((await mcp.ok('get_pane_info', { paneId: pane.ref })).pane, pane);
  assert.match(await mcp.fails('get_pane_info', { paneId: '%999' }), /no pane %999/);

  const corner = async (c: string) => (await mcp.ok('find_pane_by_position', { windowId, corner: c })).pane.id;
  assert.equal(await corner('top-left'), first);
  assert.equal(await corner('bottom-left'), first);
  assert.equal(await corner('top-right'), right);
  assert.equal(await corner('bottom-right'), bottomRight);
  // Zoomed, the zoomed pane touches every corner too; the pane first in index order still wins.
  await tmux.tmux('resize-pane', '-Z', '-t', bottomRight);
  assert.equal(await corner('top-left'), first);
  assert.equal(await corner('bottom-right'), bottomRight);
  await tmux.tmux('resize-pane', '-Z', '-t', bottomRight);
  assert.match(await mcp.fails('find_pane_by_position', { windowId, corner: 'middle' }), /must be one of/);
  assert.match(await mcp.fails('find_pane_by_position', { windowId: '@999', corner: 'top-left' }), /no window @999/);
});

test('snapshot_pane returns the pane and its screen', async (t) => {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  await tmux.typeAndWait(pane, 'echo snap-$((6*7))');
  const snap = await mcp.ok('snapshot_pane', { paneId: pane });
  assert.equal(snap.pane.id, pane);
  assert.equal(snap.capture.paneId, pane);
  assert.ok(snap.capture.lines.includes('snap-42'), snap.capture.lines.join('\n'));
  const one = await mcp.ok('snapshot_pane', { paneId: pane, maxLines: 1 });
  assert.equal(one.capture.lines.length, 1);
  assert.ok(one.capture.droppedLines >= 1);
});

test('get_tmux_variables reads named variables, null for unknown ones, and refuses anything else', async (t) => {
  const { tmux, mcp } = await server();
  const { pane, session } = await ownSession(t, tmux);
  const version = (await tmux.tmux('display-message', '-p', '#{version}')).trim();
  const { values } = await mcp.ok('get_tmux_variables', {
    names: ['version', 'pane_id', 'session_name', 'no_such_variable', 'pane_title', 'pane_path'],
    paneId: pane,
  });
  assert.equal(values.version, version);
  assert.equal(values.pane_id, pane);
  assert.equal(values.session_name, session);
  assert.equal(values.no_such_variable, null, 'tmux has no such variable');
  assert.equal(values.pane_path, '', 'defined by tmux, and empty (no OSC 7 from the shell)');
  assert.equal(typeof values.pane_title, 'string');
  assert.equal((await mcp.ok('get_tmux_variables', { names: ['version'] })).values.version, version);

  const marker = join(tmux.dir, `pwned-${session}`);
  const injected = await mcp.fails('get_tmux_variables', { names: [`x}#(touch ${marker})`] });
  assert.match(injected, /names/);
  assert.match(await mcp.fails('get_tmux_variables', { names: ['pane_id'], paneId: '%999' }), /no pane %999/);
  assert.match(await mcp.fails('get_tmux_variables', { names: ['1abc'] }), /names/);
  assert.match(await mcp.fails('get_tmux_variables', { names: [] }), /at least one/);
  assert.match(await mcp.fails('get_tmux_variables', { names: Array.from({ length: 33 }, (_, i) => `v${i}`) }), /names/);
  assert.equal(existsSync(marker), false, 'nothing was run');
});

test('show_option reads scopes, inherited values, arrays and user options', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'opts' });
  await tmux.tmux('set-option', '-g', '@greeting', 'hello "world" #{pane_id} $HOME');
  await tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
  await tmux.tmux('set-option', '-g', '@multiline', 'first\nsecond ');
  const mcp = await startMcp(t, { env: tmux.env });

  assert.deepEqual(await mcp.ok('show_option', { name: 'history-limit' }), { options: [{ name: 'history-limit', value: '100000' }] });
  assert.deepEqual((await mcp.ok('show_option', { name: 'history-limit', scope: 'global_session' })).options, [
    { name: 'history-limit', value: '100000' },
  ]);
  // The session has no local value: the inherited global one shows.
  assert.deepEqual((await mcp.ok('show_option', { name: 'history-limit', scope: 'session', target: 'opts' })).options, [
    { name: 'history-limit', value: '100000' },
  ]);
  assert.match((await mcp.ok('show_option', { name: 'escape-time', scope: 'server' })).options[0].value, /^\d+$/);
  assert.deepEqual(
    (await mcp.ok('show_option', { name: 'mode-keys', scope: 'global_window' })).options.map((o: any) => o.name),
    ['mode-keys'],
  );
  assert.deepEqual((await mcp.ok('show_option', { name: 'remain-on-exit', target: pane })).options, [
    { name: 'remain-on-exit', value: 'on' },
  ]);
  assert.deepEqual((await mcp.ok('show_option', { name: '@greeting' })).options, [
    { name: '@greeting', value: 'hello "world" #{pane_id} $HOME' },
  ]);

  assert.deepEqual((await mcp.ok('show_option', { name: '@multiline' })).options, [{ name: '@multiline', value: 'first\nsecond ' }]);
  assert.deepEqual(
    (await mcp.ok('show_option', { name: '@greeting', scope: 'session', target: 'opts' })).options,
    [{ name: '@greeting', value: 'hello "world" #{pane_id} $HOME' }],
    'inherited user option, name without the * marker',
  );

  const env = await mcp.ok('show_option', { name: 'update-environment' });
  assert.ok(env.options.length > 1);
  assert.equal(env.options[0].name, 'update-environment[0]');
  assert.ok(env.options.some((o: any) => o.value === 'DISPLAY'));
  assert.deepEqual((await mcp.ok('show_option', { name: 'update-environment[0]' })).options, [env.options[0]]);

  assert.match(await mcp.fails('show_option', { name: 'no-such-option' }), /no option no-such-option/);
  assert.match(await mcp.fails('show_option', { name: '@unset' }), /no option @unset/);
  assert.match(await mcp.fails('show_option', { name: 'history-limit', scope: 'server' }), /no value at scope server/);
  assert.match(await mcp.fails('show_option', { name: 'bad name;' }), /name must be a tmux option name/);
  assert.match(await mcp.fails('show_option', { name: 'remain-on-exit', scope: 'pane', target: '%999' }), /no pane %999/);
  assert.match(await mcp.fails('show_option', { name: 'history-limit', scope: 'session' }), /needs a target/);
  assert.match(await mcp.fails('show_option', { name: 'history-limit', scope: 'server', target: 'opts' }), /takes no target/);
  assert.match(await mcp.fails('show_option', { name: 'history-limit', scope: 'window', target: 'opts' }), /target must be a window id/);
});

test('show_environment: global and session tables, removals, and values that contain newlines', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'env' });
  await tmux.tmux('set-environment', '-g', 'MCP_PLAIN', 'a b=c');
  await tmux.tmux('set-environment', '-g', '-r', 'MCP_GONE');
  // A value that tries to forge a second entry in the listing.
  await tmux.tmux('set-environment', '-g', 'MCP_TRICK', 'line1\nMCP_FORGED=1');
  await tmux.tmux('set-environment', '-t', 'env', 'MCP_LOCAL', 'here');
  const mcp = await startMcp(t, { env: tmux.env });

  const global = (await mcp.ok('show_environment')).environment;
  assert.equal(global.MCP_PLAIN, 'a b=c');
  assert.equal(global.MCP_GONE, null);
  assert.equal(global.MCP_TRICK, 'line1\nMCP_FORGED=1');
  assert.equal('MCP_FORGED' in global, false);
  assert.equal('MCP_LOCAL' in global, false);

  const local = (await mcp.ok('show_environment', { session: 'env' })).environment;
  assert.equal(local.MCP_LOCAL, 'here');
  assert.equal('MCP_PLAIN' in local, false);
  assert.match(await mcp.fails('show_environment', { session: 'nope' }), /no session named/);
});

test('show_hooks lists set hooks, global and per session', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'hooks' });
  await tmux.tmux('set-hook', '-g', 'after-new-window', 'display-message "made a window"');
  await tmux.tmux('set-hook', '-ag', 'after-new-window', 'refresh-client');
  await tmux.tmux('set-hook', '-g', 'pane-died', 'display-message died');
  await tmux.tmux('set-hook', '-t', 'hooks', 'session-renamed', 'display-message renamed');
  const mcp = await startMcp(t, { env: tmux.env });

  const { hooks } = await mcp.ok('show_hooks');
  const newWindow = hooks.filter((h: any) => h.name === 'after-new-window');
  assert.deepEqual(
    newWindow.map((h: any) => h.index),
    [0, 1],
  );
  assert.match(newWindow[0].command, /^display-message "made a window"$/);
  assert.match(newWindow[1].command, /^refresh-client/);
  assert.ok(
    hooks.some((h: any) => h.name === 'pane-died' && h.index === 0),
    'window hooks are global hooks too',
  );
  assert.equal(
    hooks.some((h: any) => h.name === 'session-renamed'),
    false,
  );

  const session = await mcp.ok('show_hooks', { session: 'hooks' });
  assert.deepEqual(session.hooks, [{ name: 'session-renamed', index: 0, command: 'display-message renamed' }]);
});

test('search_panes: literal and regex search, scope, line numbers, truncation, progress', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'one' });
  const other = await tmux.newSession('two');
  await tmux.typeAndWait(pane, "printf 'needle-a\\nhay\\nneedle-b\\n(x+)\\n'");
  await tmux.typeAndWait(other, "printf 'needle-c\\n'");
  const mcp = await startMcp(t, { env: tmux.env });

  const all = await mcp.ok('search_panes', { pattern: 'needle-' });
  const texts = all.matches.map((m: any) => m.text);
  for (const want of ['needle-a', 'needle-b', 'needle-c']) assert.ok(texts.includes(want), texts.join('\n'));
  assert.equal(all.panesSearched, 2);
  assert.equal(all.panesAvailable, 2);
  assert.equal(all.truncated, false);
  assert.deepEqual(all.truncatedBy, []);
  // `line` is 1-based in the rows searched, which here are the whole capture of the pane.
  const rows = (await tmux.tmux('capture-pane', '-p', '-J', '-t', pane)).replace(/\n+$/, '').split('\n');
  const a = all.matches.find((m: any) => m.text === 'needle-a');
  assert.equal(a.pane, pane);
  assert.match(a.paneRef, /^tmux1_/);
  assert.equal(rows[a.line - 1], 'needle-a');

  const scoped = await mcp.ok('search_panes', { pattern: 'needle-', session: 'two' });
  assert.equal(scoped.panesAvailable, 1);
  assert.deepEqual(
    scoped.matches.map((m: any) => m.text).filter((x: string) => x.startsWith('needle')),
    ['needle-c'],
  );

  const literal = await mcp.ok('search_panes', { pattern: '(x+)' });
  assert.ok(
    literal.matches.some((m: any) => m.text === '(x+)'),
    'literal by default: parentheses are text',
  );
  const regex = await mcp.ok('search_panes', { pattern: '^needle-[ab]$', regex: true });
  assert.deepEqual(
    regex.matches.map((m: any) => m.text),
    ['needle-a', 'needle-b'],
  );
  assert.match(await mcp.fails('search_panes', { pattern: '(unclosed', regex: true }), /not a valid regular expression/);
  assert.match(await mcp.fails('search_panes', { pattern: 'x'.repeat(4097) }), /pattern is longer than .*UTF-8 bytes/);

  const capped = await mcp.ok('search_panes', { pattern: 'needle-', maxMatchesPerPane: 1, session: 'one' });
  assert.equal(capped.matches.length, 1);
  assert.equal(capped.truncated, true);
  assert.deepEqual(capped.truncatedBy, ['matches']);

  const progress = progressOnWire(mcp.client);
  const result = await mcp.client.callTool({ name: 'search_panes', arguments: { pattern: 'needle' } }, { onprogress: () => {} });
  assert.ok(!result.isError);
  assert.deepEqual(progress, [
    { progress: 1, total: 2, message: 'searched 1 of 2 panes' },
    { progress: 2, total: 2, message: 'searched 2 of 2 panes' },
  ]);
});

test('search_panes over 200 panes of 100 rows reports the pane limit', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'many' });
  // 41 sessions x 5 panes = 205 panes, each showing 100 numbered rows.
  const fill = 'i=0; while [ $i -lt 100 ]; do echo row-$i; i=$((i+1)); done; exec cat';
  const work: Array<Promise<string>> = [];
  for (let s = 0; s < 41; s++) {
    work.push(tmux.tmux('new-session', '-d', '-s', `s${s}`, '-x', '80', '-y', '110', 'sh', '-c', fill));
  }
  await Promise.all(work);
  for (let s = 0; s < 41; s++) {
    for (let p = 0; p < 4; p++) await tmux.tmux('split-window', '-d', '-t', `s${s}`, '-l', '1', 'sh', '-c', fill);
  }
  const mcp = await startMcp(t, { env: tmux.env });
  await mcp.ok('search_panes', { pattern: 'warm-up' });
  const result = await mcp.ok('search_panes', { pattern: 'row-99', scrollbackLines: 100 });
  assert.equal(result.panesAvailable, 206);
  assert.equal(result.panesSearched, 200);
  assert.deepEqual(result.truncatedBy, ['panes']);
});

test('capture_since: cursor, only new rows, waiting, restarts and bad cursors', async (t) => {
  const { tmux, mcp } = await server();
  const { pane, session } = await ownSession(t, tmux);
  const other = (await tmux.tmux('split-window', '-P', '-F', '#{pane_id}', '-t', pane, 'sh')).trim();
  // An empty prompt: the screen is final once typeAndWait returns (no prompt printed after it).
  await tmux.typeAndWait(pane, "PS1=''");
  await tmux.typeAndWait(pane, 'echo before-cursor');

  const first = await mcp.ok('capture_since', { paneId: pane });
  assert.deepEqual(first.lines, []);
  assert.equal(first.restarted, false);
  assert.equal(first.pane, pane);

  const nothing = await mcp.ok('capture_since', { paneId: pane, cursor: first.cursor });
  assert.deepEqual(nothing.lines, []);
  assert.equal(nothing.linesMissed, false);

  await tmux.typeAndWait(pane, 'echo after-$((1+1))');
  const next = await mcp.ok('capture_since', { paneId: pane, cursor: nothing.cursor });
  assert.ok(next.lines.includes('after-2'), next.lines.join('\n'));
  assert.equal(
    next.lines.some((l: string) => l.includes('before-cursor')),
    false,
    next.lines.join('\n'),
  );
  assert.equal(next.restarted, false);
  assert.equal(next.linesMissed, false);

  const again = await mcp.ok('capture_since', { paneId: pane, cursor: next.cursor });
  assert.deepEqual(again.lines, [], 'rows already reported are not reported again');

  // waitMs: the call is answered as soon as output arrives (here the shell echoing the typed
  // command), not after the full wait: before a wait of the same waitMs on a pane that prints nothing.
  const quiet = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${session}:`, 'cat')).trim();
  const quietWait = mcp
    .ok('capture_since', { paneId: quiet, cursor: (await mcp.ok('capture_since', { paneId: quiet })).cursor, waitMs: 10000 })
    .then(
      () => 'the idle wait',
      () => 'the idle wait',
    );
  const waiting = mcp.ok('capture_since', { paneId: pane, cursor: again.cursor, waitMs: 10000 });
  await tmux.typeAndWait(pane, 'echo waited-for');
  assert.equal(await Promise.race([waiting.then(() => 'the woken wait'), quietWait]), 'the woken wait');
  const woke = await waiting;
  assert.ok(
    woke.lines.some((l: string) => l.includes('waited-for')),
    woke.lines.join('\n'),
  );
  const drained = await mcp.ok('capture_since', { paneId: pane, cursor: woke.cursor });
  const seen = [...woke.lines, ...drained.lines];
  assert.ok(seen.includes('waited-for'), seen.join('\n'));
  const idleStart = performance.now();
  const idle = await mcp.ok('capture_since', { paneId: pane, cursor: drained.cursor, waitMs: 300 });
  assert.deepEqual(idle.lines, []);
  assert.ok(performance.now() - idleStart >= 250, 'with nothing new, waitMs is waited out');

  // Budget: maxLines keeps the newest rows.
  await tmux.typeAndWait(pane, 'for i in 1 2 3 4 5; do echo n$i; done');
  const tail = await mcp.ok('capture_since', { paneId: pane, cursor: idle.cursor, maxLines: 2 });
  assert.equal(tail.lines.length, 2);
  assert.deepEqual(tail.lines, ['n4', 'n5']);
  assert.equal(tail.droppedLines, 4, JSON.stringify(tail)); // the command row and n1..n3

  const otherPane = await mcp.ok('capture_since', { paneId: other, cursor: tail.cursor });
  assert.equal(otherPane.restarted, true);
  assert.deepEqual(otherPane.lines, []);

  await tmux.tmux('respawn-pane', '-k', '-t', pane, 'sh');
  const respawned = await mcp.ok('capture_since', { paneId: pane, cursor: tail.cursor });
  assert.equal(respawned.restarted, true);
  assert.deepEqual(respawned.lines, []);

  assert.match(await mcp.fails('capture_since', { paneId: pane, cursor: 'garbage' }), /cursor is not a cursor capture_since returned/);
  const forged = 'cs1.' + Buffer.from(JSON.stringify({ p: '%0', a: -1 })).toString('base64url');
  assert.match(await mcp.fails('capture_since', { paneId: pane, cursor: forged }), /cursor is not/);
  assert.match(await mcp.fails('capture_since', { paneId: pane, cursor: 'x'.repeat(16385) }), /cursor/);
});

test("a person attached in a terminal shows in list_sessions and get_session_info (and python's session_attached); this server's own clients never do", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'alpha' });
  await tmux.newSession('beta');
  const people = async () => (await tmux.tmux('list-clients', '-F', '#{?client_control_mode,,#{client_pid}}')).split('\n').filter(Boolean);
  /** A person attaching to beta in a terminal (script(1) gives the tmux client one); answers how they leave. */
  const attach = async () => {
    const person = spawn('script', ['-qfec', `${TMUX_BIN} -S '${tmux.socketPath}' attach-session -t beta`, '/dev/null'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...scrubbedEnv(), TERM: 'xterm' },
    });
    t.after(() => void person.kill('SIGKILL'));
    await until("the person's terminal client attaches", async () => (await people()).length === 1, 10_000);
    return async () => {
      process.kill(Number((await people())[0]), 'SIGTERM');
      await until("the person's terminal client leaves", async () => (await people()).length === 0, 10_000);
    };
  };
  // One server at a time: another server's control clients are clients other than this one's own.
  const mcp = await startMcp(t, { env: tmux.env });
  // This server's own clients: the command client, and a watch client on alpha once keys go there.
  await mcp.ok('send_keys', { paneId: pane, keys: ['true'], enter: true });
  const attached = async () =>
    Object.fromEntries(
      ((await mcp.ok('list_sessions')).sessions as Array<{ name: string; isAttached: boolean }>).map((s) => [s.name, s.isAttached]),
    );
  assert.deepEqual(await attached(), { alpha: false, beta: false });
  let leave = await attach();
  assert.deepEqual(await attached(), { alpha: false, beta: true });
  assert.equal((await mcp.ok('get_session_info', { session: 'beta' })).session.isAttached, true);
  await leave();
  assert.deepEqual(await attached(), { alpha: false, beta: false });
  await mcp.close();

  const python = await startPython(t, tmux.env);
  await python.ok('send_keys', { pane_id: pane, keys: 'true' });
  const pythonAttached = async () =>
    Object.fromEntries(
      ((await python.ok('list_sessions', {})).result as Array<{ session_name: string; session_attached: string }>).map((s) => [
        s.session_name,
        s.session_attached,
      ]),
    );
  assert.deepEqual(await pythonAttached(), { alpha: '0', beta: '0' });
  leave = await attach();
  assert.deepEqual(await pythonAttached(), { alpha: '0', beta: '1' });
  await leave();
});
