/** The python profile's read tools against real tmux: listings, info, targeting, capture (spec 004), snapshot, search, settings. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux } from '../../fixture/tmux.js';
import { startPython } from '../../fixture/python.js';

test('python: listings, filters, info tools and targeting precedence', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start({ session: 'alpha' });
  const other = await tmux.newSession('beta');
  const right = (await tmux.tmux('split-window', '-h', '-P', '-F', '#{pane_id}', '-t', first)).trim();
  const mcp = await startPython(t, tmux.env);

  const sessions = (await mcp.ok('list_sessions')).result;
  assert.deepEqual(sessions.map((s: any) => s.session_name).sort(), ['alpha', 'beta']);
  const alpha = sessions.find((s: any) => s.session_name === 'alpha');
  assert.equal(alpha.session_attached, '0', 'our own control clients are not counted');
  assert.deepEqual((await mcp.ok('list_sessions', { filters: { session_name__startswith: 'BE' } })).result, []);
  assert.deepEqual(
    (await mcp.ok('list_sessions', { filters: { session_name__istartswith: 'BE' } })).result.map((s: any) => s.session_name),
    ['beta'],
  );
  assert.deepEqual(
    (await mcp.ok('list_sessions', { filters: '{"session_name": "alpha"}' })).result.map((s: any) => s.session_name),
    ['alpha'],
  );
  assert.match(await mcp.fails('list_sessions', { filters: { session_name__near: 'x' } }), /Invalid filter operator 'near'/);
  assert.match(await mcp.fails('list_sessions', { filters: '{"session_name": ' }), /filters is a string that is not a JSON object/);
  assert.match(await mcp.fails('list_sessions', { filters: '["alpha"]' }), /filters must be a JSON object/);

  const windows = (await mcp.ok('list_windows')).result;
  assert.equal(windows.length, 2);
  assert.equal((await mcp.ok('list_windows', { session_name: 'beta' })).result.length, 1);
  const panes = (await mcp.ok('list_panes', { session_name: 'alpha' })).result;
  assert.deepEqual(panes.map((p: any) => p.pane_id).sort(), [first, right].sort());
  const left = panes.find((p: any) => p.pane_id === first);
  assert.equal(left.pane_left, 0);
  assert.equal(left.pane_at_left, true);
  assert.equal(typeof left.pane_width, 'string');
  assert.equal(left.is_caller, null, 'not running inside tmux');
  assert.equal((await mcp.ok('list_panes')).result.length, 3);
  assert.equal((await mcp.ok('list_panes', { filters: { pane_id: right } })).result.length, 1);

  // Precedence: pane_id wins over everything; then window_id; then session_id over session_name; else the first session.
  assert.equal((await mcp.ok('get_pane_info', { pane_id: right, session_name: 'beta' })).pane_id, right);
  assert.equal((await mcp.ok('get_pane_info', { session_name: 'beta' })).pane_id, other);
  const betaId = sessions.find((s: any) => s.session_name === 'beta').session_id;
  assert.equal((await mcp.ok('get_pane_info', { session_id: betaId, session_name: 'alpha' })).pane_id, other);
  assert.equal((await mcp.ok('get_pane_info', {})).session_id, (await mcp.ok('list_sessions')).result[0].session_id);
  assert.equal((await mcp.ok('get_session_info', { session_name: 'beta' })).session_id, betaId);
  const win = await mcp.ok('get_window_info', { session_name: 'alpha', window_index: '0' });
  assert.equal(win.pane_count, 2);
  assert.equal(win.window_index, '0');

  // Errors: missing and malformed targets, as results with a reason and a suggestion, no structuredContent.
  assert.match(await mcp.fails('get_pane_info', { pane_id: '%999' }), /no pane %999[^\n]*\n.*list_panes/s);
  assert.match(await mcp.fails('get_session_info', { session_name: 'nope' }), /Session not found: "nope"\n/);
  assert.match(await mcp.fails('get_window_info', { session_name: 'alpha', window_index: '7' }), /Window not found: index 7/);
  assert.match(await mcp.fails('get_pane_info', { pane_id: 'first' }), /pane_id must be an id like %3/);
  const unknown = await mcp.call('get_pane_info', { pane_id: first, pane: 'x', wait_for_previous: true });
  assert.equal(unknown.isError, true);
  assert.match(unknown.content[0]!.text!, /Remove or correct the unrecognized argument\(s\): "pane", "wait_for_previous"/);
  assert.equal((unknown as any)._meta?.error_type, 'ToolInputError');

  // find_pane_by_position: the corner of the window.
  assert.equal((await mcp.ok('find_pane_by_position', { corner: 'top-right', session_name: 'alpha' })).pane_id, right);
  assert.equal((await mcp.ok('find_pane_by_position', { corner: 'bottom-left', session_name: 'alpha' })).pane_id, first);

  const server = await mcp.ok('get_server_info');
  assert.equal(server.is_alive, true);
  assert.equal(server.session_count, 2);
  assert.equal(server.socket_path, tmux.socketPath);
  assert.equal(server.version, (await tmux.tmux('display-message', '-p', '#{version}')).trim());
});

test('python: capture_pane keeps the tail with exactly one truncation line (spec 004); max_lines null disables it', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  await tmux.typeAndWait(pane, 'clear; for i in $(seq 1 30); do echo line-$i; done');
  const mcp = await startPython(t, tmux.env);

  const full = await mcp.text('capture_pane', { pane_id: pane, max_lines: null });
  const lines = full.split('\n');
  assert.ok(lines.includes('line-1') && lines.includes('line-30'), full);
  assert.ok(!full.includes('truncated'));

  const capped = (await mcp.text('capture_pane', { pane_id: pane, max_lines: 5 })).split('\n');
  assert.equal(capped.length, 6, 'one header line and exactly max_lines lines');
  assert.equal(capped[0], `[... truncated ${lines.length - 5} lines ...]`);
  assert.deepEqual(capped.slice(1), lines.slice(-5));
  assert.equal(capped.filter((line) => line.startsWith('[... truncated')).length, 1);

  // Default 500: a 30-line screen is not truncated. The result is text only (no output schema, no structuredContent).
  const plain = await mcp.call('capture_pane', { pane_id: pane });
  assert.equal(plain.structuredContent, undefined);
  assert.equal(plain.content[0]!.text, full);

  // start/end pick rows: negative start reaches into scrollback.
  await tmux.typeAndWait(pane, 'clear; for i in $(seq 1 100); do echo row-$i; done');
  const history = await mcp.text('capture_pane', { pane_id: pane, start: -80, end: -1, max_lines: null });
  assert.ok(
    history.split('\n').every((line) => line === '' || /^row-\d+$/.test(line) || line.startsWith('$')),
    history,
  );
  assert.ok(history.includes('row-30'), history);
  assert.match(await mcp.fails('capture_pane', { pane_id: pane, max_lines: 0 }), /max_lines must be positive or null/);
});

test('python: snapshot_pane, search_panes paging, display_message', async (t) => {
  const tmux = privateTmux(t);
  const a = await tmux.start({ session: 'alpha' });
  const b = await tmux.newSession('beta');
  await tmux.typeAndWait(a, 'echo NEEDLE-in-alpha');
  await tmux.typeAndWait(b, 'echo needle-in-beta');
  const mcp = await startPython(t, tmux.env);

  const snap = await mcp.call('snapshot_pane', { pane_id: a, max_lines: 2 });
  assert.equal(snap.isError, undefined);
  const s = snap.structuredContent as any;
  assert.equal(s.pane_id, a);
  assert.equal(s.content.split('\n').length, 2);
  assert.equal(s.content_truncated, true);
  assert.equal(s.alternate_on, false);
  assert.equal(s.pane_in_mode, false);
  assert.equal(typeof s.cursor_y, 'number');

  const found = (await mcp.call('search_panes', { pattern: 'needle-in' })).structuredContent as any;
  assert.deepEqual(
    found.matches.map((m: any) => m.pane_id),
    [a, b].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))),
  );
  assert.equal(found.total_panes_matched, 2);
  assert.ok(found.matches[0].matched_lines.some((l: string) => /needle-in/i.test(l)));
  const caseful = (await mcp.call('search_panes', { pattern: 'needle-in', match_case: true })).structuredContent as any;
  assert.deepEqual(
    caseful.matches.map((m: any) => m.pane_id),
    [b],
  );
  const page1 = (await mcp.call('search_panes', { pattern: 'needle-in', limit: 1 })).structuredContent as any;
  assert.equal(page1.matches.length, 1);
  assert.equal(page1.truncated, true);
  assert.equal(page1.truncated_panes.length, 1);
  const page2 = (await mcp.call('search_panes', { pattern: 'needle-in', limit: 1, offset: 1 })).structuredContent as any;
  assert.deepEqual(
    [...page1.matches, ...page2.matches].map((m: any) => m.pane_id),
    found.matches.map((m: any) => m.pane_id),
  );
  assert.equal(page2.truncated, false);
  assert.equal(
    ((await mcp.call('search_panes', { pattern: 'needle-in', session_name: 'beta' })).structuredContent as any).matches.length,
    1,
  );
  assert.match(await mcp.fails('search_panes', { pattern: '(', regex: true }), /not a valid regular expression/);

  assert.equal(await mcp.text('display_message', { pane_id: a, format_string: '#{pane_id} #{session_name}' }), `${a} alpha`);
  assert.equal((await mcp.ok('display_message', { pane_id: a, format_string: '#{pane_id}' })).result, a);
  assert.match(await mcp.fails('display_message', { pane_id: a, format_string: '#(echo hi)' }), /#\(/);
});

test('python: show_option, show_hooks / show_hook, show_environment', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'alpha' });
  await tmux.tmux('set-option', '-g', '@flavour', 'mint');
  await tmux.tmux('set-option', '-t', 'alpha', 'status', 'off');
  await tmux.tmux('set-hook', '-g', 'pane-died', 'display-message died');
  await tmux.tmux('set-environment', '-t', 'alpha', 'PY_PROFILE_VAR', 'yes');
  await tmux.tmux('set-environment', '-t', 'alpha', '-r', 'PY_REMOVED');
  const mcp = await startPython(t, tmux.env);

  assert.deepEqual(await mcp.ok('show_option', { option: '@flavour' }), { option: '@flavour', value: 'mint' });
  assert.deepEqual(await mcp.ok('show_option', { option: 'status', scope: 'session', target: 'alpha' }), {
    option: 'status',
    value: 'off',
  });
  assert.match((await mcp.ok('show_option', { option: 'escape-time', scope: 'server' })).value, /^\d+$/);
  assert.match(await mcp.fails('show_option', { option: 'status', target: 'alpha' }), /scope is required when target is specified/);
  const windowId = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();
  assert.equal((await mcp.ok('show_option', { option: 'synchronize-panes', scope: 'window', target: windowId })).value, 'off');

  const hooks = (await mcp.ok('show_hooks')).entries;
  assert.ok(
    hooks.some((h: any) => h.hook_name === 'pane-died' && h.command.includes('died')),
    JSON.stringify(hooks),
  );
  assert.deepEqual(
    (await mcp.ok('show_hook', { hook_name: 'pane-died' })).entries.map((h: any) => h.hook_name),
    ['pane-died'],
  );
  assert.deepEqual((await mcp.ok('show_hook', { hook_name: 'after-new-window' })).entries, []);

  const env = (await mcp.ok('show_environment', { session_name: 'alpha' })).variables;
  assert.equal(env.PY_PROFILE_VAR, 'yes');
  assert.equal(env.PY_REMOVED, true);
  assert.equal(typeof (await mcp.ok('show_environment')).variables, 'object');
});

test('python: search_panes searches only the rows between content_start and content_end', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'ranges', height: 10 });
  await tmux.typeAndWait(pane, "seq -f 'row-%g' 1 30");
  const mcp = await startPython(t, tmux.env);
  // Where each row sits, numbered as capture-pane numbers rows: 0 = the top of the screen, negative = history.
  const history = Number((await tmux.tmux('display-message', '-p', '-t', pane, '#{history_size}')).trim());
  const rows = (await tmux.tmux('capture-pane', '-p', '-t', pane, '-S', String(-history))).split('\n');
  const at = (text: string) => rows.indexOf(text) - history;
  const [five, twentyFive] = [at('row-5'), at('row-25')];
  assert.ok(five < 0 && twentyFive >= 0, `row-5 is in history (${five}), row-25 on the screen (${twentyFive})`);

  const search = async (range: Record<string, number>) => {
    const found = await mcp.ok('search_panes', { pattern: '^row-(5|25)$', regex: true, ...range });
    return found.matches.flatMap((m: any) => m.matched_lines);
  };
  assert.deepEqual(await search({}), ['row-5', 'row-25']);
  assert.deepEqual(await search({ content_start: twentyFive, content_end: twentyFive }), ['row-25']);
  assert.deepEqual(await search({ content_start: five, content_end: five }), ['row-5']);
  assert.deepEqual(await search({ content_end: five - 1 }), []);
  assert.deepEqual(await search({ content_start: five + 1 }), ['row-25']);
  assert.deepEqual(await search({ content_start: 0 }), ['row-25'], 'from the top of the screen: no history');
});
