/** The python profile's arranging and lifecycle tools against real tmux. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux } from '../../fixture/tmux.js';
import { channel, startPython } from '../../fixture/python.js';

test('python: create_session, create_window, split_window, respawn_pane, kills and clear_pane', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startPython(t, tmux.env);

  // No tmux server yet: create_session starts one.
  const session = await mcp.ok('create_session', { session_name: 'made', x: 100, y: 30, environment: { PY_SPAWN_VAR: 'spawned' } });
  assert.equal(session.session_name, 'made');
  assert.equal(session.window_count, 1);
  assert.match(await mcp.fails('create_session', { session_name: 'made' }), /already exists/);
  const generated = await mcp.ok('create_session', {});
  assert.match(generated.session_name, /^mcp-/);

  const window = await mcp.ok('create_window', { session_name: 'made', window_name: 'second', suppress_persistent_history: true });
  assert.equal(window.window_name, 'second');
  assert.equal(window.window_active, '0', 'does not take focus by default');
  const attached = await mcp.ok('create_window', { session_id: session.session_id, window_name: 'third', attach: true });
  assert.equal(attached.window_active, '1');

  const split = await mcp.ok('split_window', {
    pane_id: session.active_pane_id,
    direction: 'right',
    size: '30%',
    environment: '{"PY_SPLIT": "1"}',
  });
  assert.notEqual(split.pane_id, session.active_pane_id);
  assert.equal(split.pane_left > 0, true);
  const ch = channel(tmux);
  await mcp.ok('send_keys', { pane_id: split.pane_id, keys: `echo "[$PY_SPLIT]"${ch.suffix}` });
  await ch.done();
  assert.ok((await mcp.text('capture_pane', { pane_id: split.pane_id })).includes('\n[1]'));
  assert.match(await mcp.fails('split_window', { pane_id: split.pane_id, size: 'huge' }), /size must be/);
  assert.match(await mcp.fails('create_window', { session_name: 'made', environment: { 'BAD NAME': 'x' } }), /not a variable name/);
  assert.match(await mcp.fails('create_window', { session_name: 'made', environment: { ['A'.repeat(257)]: 'x' } }), /not a variable name/);
  assert.match(
    await mcp.fails('create_window', { session_name: 'made', environment: 'PY=1' }),
    /environment is a string that is not a JSON object/,
  );
  assert.match(await mcp.fails('create_window', { session_name: 'made', environment: '"PY=1"' }), /environment must be a JSON object/);
  assert.match(await mcp.fails('create_window', { session_name: 'made', environment: '{"PY": 1}' }), /environment\.PY must be a string/);
  assert.match(
    await mcp.fails('create_session', { session_name: 'hist', suppress_persistent_history: true, environment: { HISTFILE: '/tmp/h' } }),
    /HISTFILE conflicts/,
  );

  const before = await mcp.ok('get_pane_info', { pane_id: split.pane_id });
  const respawned = await mcp.ok('respawn_pane', { pane_id: split.pane_id, shell: 'sh' });
  assert.equal(respawned.pane_id, split.pane_id);
  assert.notEqual(respawned.pane_pid, before.pane_pid);
  assert.match(await mcp.fails('respawn_pane', { pane_id: split.pane_id, kill: false }), /still running/);

  await tmux.typeAndWait(split.pane_id, 'echo to-be-cleared');
  assert.equal((await mcp.ok('clear_pane', { pane_id: split.pane_id })).result, `Pane cleared: ${split.pane_id}`);
  assert.equal((await tmux.tmux('display-message', '-p', '-t', split.pane_id, '#{history_size}')).trim(), '0');

  assert.equal((await mcp.ok('kill_pane', { pane_id: split.pane_id })).result, `Pane killed: ${split.pane_id}`);
  assert.match(await mcp.fails('kill_pane', { pane_id: split.pane_id }), new RegExp(split.pane_id));
  assert.equal((await mcp.ok('kill_window', { window_id: window.window_id })).result, `Window killed: ${window.window_id}`);
  assert.match(await mcp.fails('kill_session', {}), /Refusing to kill without an explicit target\nProvide session_name or session_id/);
  assert.equal(
    (await mcp.ok('kill_session', { session_name: generated.session_name })).result,
    `Session killed: ${generated.session_name}`,
  );
  assert.deepEqual(
    (await mcp.ok('list_sessions')).result.map((s: any) => s.session_name),
    ['made'],
  );
});

test('python: rename, select, layout, resize, move, swap, titles, copy mode', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start({ session: 'alpha' });
  await tmux.newSession('beta');
  const second = (await tmux.tmux('split-window', '-h', '-d', '-P', '-F', '#{pane_id}', '-t', first)).trim();
  await tmux.tmux('new-window', '-d', '-t', 'alpha:');
  const mcp = await startPython(t, tmux.env);

  assert.equal((await mcp.ok('rename_session', { session_name: 'beta', new_name: 'gamma' })).session_name, 'gamma');
  assert.match(await mcp.fails('rename_session', { session_name: 'gamma', new_name: 'alpha' }), /already exists/);
  assert.equal((await mcp.ok('rename_window', { session_name: 'alpha', window_index: '0', new_name: 'main' })).window_name, 'main');

  assert.equal((await mcp.ok('select_window', { session_name: 'alpha', window_index: '1' })).window_index, '1');
  assert.equal((await mcp.ok('select_window', { session_name: 'alpha', direction: 'previous' })).window_index, '0');
  assert.equal((await mcp.ok('select_window', { session_name: 'alpha', direction: 'last' })).window_index, '1');
  assert.match(await mcp.fails('select_window', { session_name: 'alpha' }), /Provide window_id, window_index, or direction/);

  assert.equal((await mcp.ok('select_pane', { pane_id: second })).pane_active, '1');
  assert.equal((await mcp.ok('select_pane', { session_name: 'alpha', window_index: '0', direction: 'next' })).pane_id, first);
  assert.equal((await mcp.ok('select_pane', { session_name: 'alpha', window_index: '0', direction: 'right' })).pane_id, second);
  assert.match(await mcp.fails('select_pane', { session_name: 'alpha' }), /Provide either pane_id or direction/);
  assert.match(await mcp.fails('select_pane', { pane_id: '%999' }), /no pane %999/);

  const laid = await mcp.ok('select_layout', { session_name: 'alpha', window_index: '0', layout: 'even-vertical' });
  assert.equal(laid.pane_count, 2);
  const windowId = laid.window_id;
  // tmux 3.3a crashes outright on a layout text that does not start with a hex digit: refused first.
  for (const layout of ['>', '!', 'x', 'even']) {
    assert.match(await mcp.fails('select_layout', { window_id: windowId, layout }), /layout must be one of/);
  }
  assert.deepEqual((await mcp.ok('list_sessions')).result.map((s: any) => s.session_name).sort(), ['alpha', 'gamma']);
  const resizedWindow = await mcp.ok('resize_window', { window_id: windowId, width: 90, height: 30 });
  assert.deepEqual([resizedWindow.window_width, resizedWindow.window_height], ['90', '30']);
  assert.equal((await mcp.ok('resize_pane', { pane_id: first, height: 10 })).pane_height, '10');
  await mcp.ok('resize_pane', { pane_id: first, zoom: true });
  assert.equal((await tmux.tmux('display-message', '-p', '-t', first, '#{window_zoomed_flag}')).trim(), '1');
  await mcp.ok('resize_pane', { pane_id: first, zoom: false });
  assert.match(await mcp.fails('resize_pane', { pane_id: first, zoom: true, width: 5 }), /zoom cannot be combined/);

  const moved = await mcp.ok('move_window', { session_name: 'alpha', window_index: '1', destination_index: '7' });
  assert.equal(moved.window_index, '7');
  const across = await mcp.ok('move_window', { session_name: 'alpha', window_index: '7', destination_session: 'gamma' });
  assert.equal(across.session_name, 'gamma');

  const swapped = await mcp.ok('swap_pane', { source_pane_id: first, target_pane_id: second });
  assert.equal(swapped.pane_id, first);
  assert.equal(swapped.pane_index, '1');

  assert.equal((await mcp.ok('set_pane_title', { pane_id: first, title: 'builder' })).pane_title, 'builder');

  await tmux.typeAndWait(first, 'seq 1 200');
  await mcp.ok('enter_copy_mode', { pane_id: first, scroll_up: 5 });
  assert.equal((await tmux.tmux('display-message', '-p', '-t', first, '#{pane_in_mode}')).trim(), '1');
  assert.match(await mcp.fails('send_keys', { pane_id: first, keys: 'x' }), /copy mode/);
  await mcp.ok('exit_copy_mode', { pane_id: first });
  assert.equal((await tmux.tmux('display-message', '-p', '-t', first, '#{pane_in_mode}')).trim(), '0');
});

test('python: set_option and set_environment', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'alpha' });
  const mcp = await startPython(t, tmux.env);
  assert.deepEqual(await mcp.ok('set_option', { option: '@py_opt', value: '-1' }), { option: '@py_opt', value: '-1', status: 'set' });
  assert.equal((await tmux.tmux('show-options', '-gv', '@py_opt')).trim(), '-1');
  assert.deepEqual(await mcp.ok('set_option', { option: 'status', value: 'off', scope: 'session', target: 'alpha' }), {
    option: 'status',
    value: 'off',
    status: 'set',
  });
  assert.match(await mcp.fails('set_option', { option: 'status-left', value: '#(touch /tmp/x)' }), /shell job/);
  assert.deepEqual(await mcp.ok('set_environment', { name: 'PY_ENV', value: 'v1', session_name: 'alpha' }), {
    name: 'PY_ENV',
    value: 'v1',
    status: 'set',
  });
  assert.equal((await mcp.ok('show_environment', { session_name: 'alpha' })).variables.PY_ENV, 'v1');
  assert.match(await mcp.fails('set_environment', { name: 'BAD NAME', value: 'x' }), /name/);
});

test('python: select_layout refuses a layout tmux cannot parse before tmux sees it (tmux 3.3a crashes on some), null targets too', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'alpha' });
  await tmux.newSession('beta');
  const mcp = await startPython(t, tmux.env);
  const sessions = async () => (await tmux.tmux('list-sessions', '-F', '#{session_id} #{session_name}')).trim();
  const before = await sessions();
  const layout = async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_layout}')).trim();
  const was = await layout();
  // "garbage", "x" and "" each stop a tmux 3.3a server when passed to select-layout as they are.
  for (const text of ['garbage', 'x', '', 'even', '-E', 'tiled;', '0000,10x10,0,0']) {
    const refusal = await mcp.fails('select_layout', {
      layout: text,
      session_name: null,
      session_id: null,
      window_id: null,
      window_index: null,
    });
    assert.match(refusal, /layout/, text);
  }
  assert.match(await mcp.fails('select_layout', { layout: 'garbage' }), /must be one of even-horizontal/);
  assert.equal(await sessions(), before, 'every session is still there');
  assert.equal(await layout(), was, 'the layout is unchanged');
  assert.equal((await mcp.ok('select_layout', { layout: 'tiled' })).pane_count, 1);
});
