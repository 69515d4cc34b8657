import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeRef } from '../../../src/core/targets/refs.js';
import { withChecksum } from '../../../src/core/arrange/layout.js';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';

// A ref that looks right but was issued for another tmux server incarnation.
const staleRef = (kind: 'session' | 'window' | 'pane', id: string) => encodeRef(kind, id, { socketPath: '/nowhere', pid: 1, startTime: 1 });
const GARBLED = 'tmux1_@@not-base64@@';
const TRICKY = 'a#{pane_id}b;c';

async function display(tmux: PrivateTmux, target: string, format: string): Promise<string> {
  return (await tmux.tmux('display-message', '-p', '-t', target, format)).trimEnd();
}

async function lines(tmux: PrivateTmux, ...args: string[]): Promise<string[]> {
  return (await tmux.tmux(...args)).split('\n').filter(Boolean);
}

/** Pane geometry of a window, `%id:active:WxH@left,top`, in pane order. */
async function geometry(tmux: PrivateTmux, window: string): Promise<string[]> {
  return lines(tmux, 'list-panes', '-t', window, '-F', '#{pane_id}:#{pane_active}:#{pane_width}x#{pane_height}@#{pane_left},#{pane_top}');
}

async function split(tmux: PrivateTmux, target: string, ...flags: string[]): Promise<string> {
  return (await tmux.tmux('split-window', '-d', ...flags, '-t', target, '-P', '-F', '#{pane_id}', 'sh')).trim();
}

async function newWindow(tmux: PrivateTmux, session: string): Promise<{ id: string; index: string }> {
  const [id, index] = (await tmux.tmux('new-window', '-d', '-t', `${session}:`, '-P', '-F', '#{window_id} #{window_index}', 'sh'))
    .trim()
    .split(' ');
  return { id: id!, index: index! };
}

/** One tmux server and one MCP server for the tests that make ordinary calls, each on a session of its own. */
const server = sharedMcp();

async function setup(t: { after: (fn: () => Promise<void> | void) => void }) {
  const { tmux, mcp } = await server();
  const { pane, session } = await ownSession(t, tmux);
  const window = await display(tmux, pane, '#{window_id}');
  return { tmux, mcp, pane, window, session };
}

async function refOf(mcp: McpSession, kind: 'session' | 'pane', id: string): Promise<string> {
  if (kind === 'session') return (await mcp.ok('list_sessions')).sessions.find((s: { id: string }) => s.id === id).ref;
  return (await mcp.ok('list_panes')).panes.find((p: { id: string }) => p.id === id).ref;
}

test('rename_session: literal names by id, name or ref; bad names and targets change nothing', async (t) => {
  const { tmux, mcp, session } = await setup(t);
  const { session: other } = await ownSession(t, tmux);
  const id = await display(tmux, `${session}:`, '#{session_id}');

  assert.deepEqual(await mcp.ok('rename_session', { session, name: TRICKY }), { sessionId: id, name: TRICKY });
  assert.equal(await display(tmux, id, '#{session_name}'), TRICKY, 'the name must reach tmux unexpanded and unsplit');

  const ref = await refOf(mcp, 'session', id);
  assert.deepEqual(await mcp.ok('rename_session', { session: ref, name: '-dash $ 5$' }), { sessionId: id, name: '-dash $ 5$' });
  assert.deepEqual(await mcp.ok('rename_session', { session: id, name: 'renamed' }), { sessionId: id, name: 'renamed' });
  assert.deepEqual(await mcp.ok('rename_session', { session: 'renamed', name: 'renamed' }), { sessionId: id, name: 'renamed' });

  const before = await lines(tmux, 'list-sessions', '-F', '#{session_id} #{session_name}');
  assert.match(await mcp.fails('rename_session', { session: id, name: 'a:b' }), /":".*session names/);
  assert.match(await mcp.fails('rename_session', { session: id, name: 'a.b' }), /"\.".*session names/);
  assert.match(await mcp.fails('rename_session', { session: id, name: '' }), /name must not be empty/);
  assert.match(await mcp.fails('rename_session', { session: id, name: 'tab\there' }), /control character U\+0009/);
  assert.match(await mcp.fails('rename_session', { session: id, name: '$7' }), /looks like a session id/);
  assert.match(await mcp.fails('rename_session', { session: id, name: 'a$HOME' }), /"\$H".*extra backslash/);
  assert.match(await mcp.fails('rename_session', { session: id, name: 'a\\b' }), /"\\\\".*extra backslash/);
  assert.match(await mcp.fails('rename_session', { session: id, name: other }), /already exists/);
  assert.match(await mcp.fails('rename_session', { session: 'nosuch', name: 'x' }), /no session named "nosuch"/);
  assert.match(await mcp.fails('rename_session', { session: '$99', name: 'x' }), /no session \$99/);
  assert.match(await mcp.fails('rename_session', { session: staleRef('session', id), name: 'x' }), /stale/);
  assert.match(await mcp.fails('rename_session', { session: GARBLED, name: 'x' }), /not a ref this server issued/);
  assert.match(
    await mcp.fails('rename_session', {
      session: await refOf(mcp, 'pane', (await lines(tmux, 'list-panes', '-a', '-F', '#{pane_id}'))[0]!),
      name: 'x',
    }),
    /needs a session ref/,
  );
  assert.deepEqual(await lines(tmux, 'list-sessions', '-F', '#{session_id} #{session_name}'), before);
});

test('rename_window and set_pane_title store text literally and refuse what tmux would alter', async (t) => {
  const { tmux, mcp, pane, window } = await setup(t);

  assert.deepEqual(await mcp.ok('rename_window', { windowId: window, name: TRICKY }), { windowId: window, name: TRICKY });
  assert.equal(await display(tmux, window, '#{window_name}'), TRICKY);
  assert.equal(await display(tmux, window, '#{automatic-rename}'), '0', 'a renamed window keeps its name');
  assert.deepEqual(await mcp.ok('rename_window', { windowId: window, name: '--x ##' }), { windowId: window, name: '--x ##' });
  assert.match(await mcp.fails('rename_window', { windowId: window, name: '' }), /name must not be empty/);
  assert.match(await mcp.fails('rename_window', { windowId: window, name: 'a\nb' }), /control character U\+000a/);
  assert.match(await mcp.fails('rename_window', { windowId: window, name: '${x}' }), /extra backslash/);
  assert.match(await mcp.fails('rename_window', { windowId: window, name: 'C:\\dir' }), /extra backslash/);
  assert.match(await mcp.fails('rename_window', { windowId: '@99', name: 'x' }), /no window @99/);
  assert.match(await mcp.fails('rename_window', { windowId: 'main:0', name: 'x' }), /windowId must be a window id/);
  assert.match(await mcp.fails('rename_window', { windowId: staleRef('window', window), name: 'x' }), /stale/);
  assert.equal(await display(tmux, window, '#{window_name}'), '--x ##');

  const paneRef = await refOf(mcp, 'pane', pane);
  assert.deepEqual(await mcp.ok('set_pane_title', { paneId: paneRef, title: TRICKY }), { paneId: pane, title: TRICKY });
  assert.equal(await display(tmux, pane, '#{pane_title}'), TRICKY);
  assert.match(await mcp.fails('set_pane_title', { paneId: pane, title: 'bell\u0007' }), /control character U\+0007/);
  assert.match(await mcp.fails('set_pane_title', { paneId: '%99', title: 'x' }), /no pane %99/);
  assert.match(await mcp.fails('set_pane_title', { paneId: staleRef('pane', pane), title: 'x' }), /stale/);
  assert.match(await mcp.fails('set_pane_title', { paneId: GARBLED, title: 'x' }), /not a ref/);
  assert.equal(await display(tmux, pane, '#{pane_title}'), TRICKY, 'refused titles change nothing');
  assert.deepEqual(await mcp.ok('set_pane_title', { paneId: pane, title: '' }), { paneId: pane, title: '' });
  assert.equal(await display(tmux, pane, '#{pane_title}'), '');
});

test('resize_pane: border steps, absolute sizes and zoom, with conflicting or impossible requests refused', async (t) => {
  const { tmux, mcp, pane: left, window, session } = await setup(t);
  const right = await split(tmux, left, '-h');
  const width = async (p: string) => Number(await display(tmux, p, '#{pane_width}'));
  const start = await width(left);

  const step = await mcp.call('resize_pane', { paneId: left, direction: 'right', amount: 5 });
  assert.deepEqual(step.structuredContent, { paneId: left });
  assert.match(step.content[0]!.text!, new RegExp(`now ${start + 5}x40`));
  assert.equal(await width(left), start + 5);
  await mcp.ok('resize_pane', { paneId: left, direction: 'left' });
  assert.equal(await width(left), start + 4, 'amount defaults to 1');

  const clamped = await mcp.call('resize_pane', { paneId: right, width: 500 });
  assert.ok(!clamped.isError);
  assert.match(clamped.content[0]!.text!, /kept it within its window \(120x40\), so it is not exactly width 500/);
  await mcp.ok('resize_pane', { paneId: right, width: 30 });
  assert.equal(await width(right), 30);
  assert.equal(await width(left), 120 - 30 - 1);

  // Impossible and malformed requests fail and leave the geometry alone.
  const before = await geometry(tmux, window);
  assert.match(
    await mcp.fails('resize_pane', { paneId: left, direction: 'up', amount: 3 }),
    /nothing moved.*spans the window from top to bottom/s,
  );
  assert.match(await mcp.fails('resize_pane', { paneId: left, height: 10 }), /nothing changed.*resize_window/s);
  assert.match(await mcp.fails('resize_pane', { paneId: left }), /say how to resize/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, zoom: true, width: 10 }), /one way to resize at a time/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, direction: 'up', height: 10 }), /one way/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, amount: 2 }), /amount needs a direction/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, width: 10001 }), /width must be 1 to 10000/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, direction: 'right', amount: 3_000_000_000 }), /amount must be 1 to 10000/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, direction: 'sideways' }), /direction/);
  assert.match(await mcp.fails('resize_pane', { paneId: left, width: 0 }), /width/);
  assert.match(await mcp.fails('resize_pane', { paneId: '%99', width: 10 }), /no pane %99/);
  assert.match(await mcp.fails('resize_pane', { paneId: staleRef('pane', left), width: 10 }), /stale/);
  assert.deepEqual(await geometry(tmux, window), before);

  // Zoom goes to the asked state, whatever it was.
  await mcp.ok('resize_pane', { paneId: left, zoom: true });
  assert.equal(await display(tmux, window, '#{window_zoomed_flag} #{pane_id}'), `1 ${left}`);
  await mcp.ok('resize_pane', { paneId: left, zoom: true });
  assert.equal(await display(tmux, window, '#{window_zoomed_flag} #{pane_id}'), `1 ${left}`, 'zoom:true twice stays zoomed');
  await mcp.ok('resize_pane', { paneId: right, zoom: true });
  assert.equal(await display(tmux, window, '#{window_zoomed_flag} #{pane_id}'), `1 ${right}`, 'zooming another pane moves the zoom');
  await mcp.ok('resize_pane', { paneId: left, zoom: false });
  assert.equal(await display(tmux, window, '#{window_zoomed_flag}'), '0');
  await mcp.ok('resize_pane', { paneId: left, zoom: false });
  assert.equal(await display(tmux, window, '#{window_zoomed_flag}'), '0', 'zoom:false on an unzoomed window is a no-op');

  const lone = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${session}:`, 'sh')).trim();
  assert.match(await mcp.fails('resize_pane', { paneId: lone, zoom: true }), /only pane/);
  assert.equal(await display(tmux, lone, '#{window_zoomed_flag}'), '0');
});

test('resize_window pins the requested size; out-of-range sizes change nothing', async (t) => {
  const { tmux, mcp, pane, window } = await setup(t);
  await split(tmux, pane, '-v');
  const size = () => display(tmux, window, '#{window_width}x#{window_height}');

  const result = await mcp.call('resize_window', { windowId: window, width: 90, height: 30 });
  assert.deepEqual(result.structuredContent, { windowId: window });
  assert.match(result.content[0]!.text!, /now 90x30/);
  assert.equal(await size(), '90x30');
  assert.equal(await display(tmux, window, '#{window-size}'), 'manual');
  await mcp.ok('resize_window', { windowId: window, height: 25 });
  assert.equal(await size(), '90x25', 'an omitted dimension stays');
  // Our own control client (ignore-size) must not pull the window back to any client size.
  await mcp.ok('list_panes');
  assert.equal(await size(), '90x25');

  assert.match(await mcp.fails('resize_window', { windowId: window }), /give width, height, or both/);
  assert.match(await mcp.fails('resize_window', { windowId: window, width: 10001 }), /width must be 1 to 10000/);
  assert.match(await mcp.fails('resize_window', { windowId: window, height: 0 }), /height/);
  assert.match(await mcp.fails('resize_window', { windowId: '@77', width: 50 }), /no window @77/);
  assert.match(await mcp.fails('resize_window', { windowId: GARBLED, width: 50 }), /not a ref/);
  assert.equal(await size(), '90x25');
});

test('select_layout applies presets and saved layout strings, and refuses invalid ones unchanged', async (t) => {
  const { tmux, mcp, pane, window } = await setup(t);
  await split(tmux, pane, '-h');
  await split(tmux, pane, '-v');
  const layout = () => display(tmux, window, '#{window_layout}');

  const saved = await layout();
  const vertical = await mcp.ok('select_layout', { windowId: window, layout: 'even-vertical' });
  assert.equal(vertical.windowId, window);
  assert.equal(vertical.layout, await layout());
  assert.notEqual(vertical.layout, saved);
  assert.ok(
    (await geometry(tmux, window)).every((row) => row.includes(':120x')),
    'even-vertical stacks full-width panes',
  );
  for (const preset of ['even-horizontal', 'main-horizontal', 'main-vertical', 'tiled']) {
    assert.equal((await mcp.ok('select_layout', { windowId: window, layout: preset })).layout, await layout());
  }

  assert.deepEqual(await mcp.ok('select_layout', { windowId: window, layout: saved }), { windowId: window, layout: saved });
  assert.equal(await layout(), saved, 'a layout string read from tmux restores the arrangement');

  const current = await layout();
  const body = saved.slice(5);
  const bad = [
    ['nonsense', /must be one of even-horizontal/],
    ['', /must be one of even-horizontal/], // tmux 3.3a's server crashes on an empty layout
    ['til', /must be one of/], // tmux would take a prefix of a preset name; we want it spelled out
    [`0000,${body}`, /checksum 0000 does not match/],
    [withChecksum(body.replace(/\}$/, '')), /expected "\}"/],
    [withChecksum('120x40,0,0{60x40,0,0,1,59x40,61,0,2}'), /places 2 panes, but the window has 3/],
    [withChecksum(body.replace('60x40', '50x40')), /does not add up/],
    [withChecksum('120x40,0,0{60x40,0,0,1,59x40,61,0[59x20,61,0,2,59x18,61,21,3]}'), /does not add up/],
    [withChecksum('20000x40,0,0{10000x40,0,0,1,9999x40,10001,0[9999x20,10001,0,2,9999x19,10001,21,3]}'), /1 to 10000/],
  ] as const;
  for (const [text, message] of bad) assert.match(await mcp.fails('select_layout', { windowId: window, layout: text }), message, text);
  assert.match(await mcp.fails('select_layout', { windowId: '@99', layout: 'tiled' }), /no window @99/);
  assert.match(await mcp.fails('select_layout', { windowId: staleRef('window', window), layout: 'tiled' }), /stale/);
  assert.equal(await layout(), current, 'refused layouts change nothing');
});

test('select_pane makes a pane active; swap_pane exchanges places and keeps focus', async (t) => {
  const { tmux, mcp, pane: a, window, session } = await setup(t);
  const b = await split(tmux, a, '-h');
  const c = await split(tmux, b, '-v');
  const active = () => display(tmux, window, '#{pane_id}');
  assert.equal(await active(), a);

  assert.deepEqual(await mcp.ok('select_pane', { paneId: c }), { paneId: c });
  assert.equal(await active(), c);
  assert.deepEqual(await mcp.ok('select_pane', { paneId: await refOf(mcp, 'pane', b) }), { paneId: b });
  assert.equal(await active(), b);
  assert.match(await mcp.fails('select_pane', { paneId: '%99' }), /no pane %99/);
  assert.match(await mcp.fails('select_pane', { paneId: staleRef('pane', a) }), /stale/);
  assert.equal(await active(), b);

  const at = async (p: string) => display(tmux, p, '#{pane_left},#{pane_top} #{pane_width}x#{pane_height}');
  const [placeA, placeB] = [await at(a), await at(b)];
  assert.deepEqual(await mcp.ok('swap_pane', { paneId: a, otherPaneId: b }), { paneId: a, otherPaneId: b });
  assert.equal(await at(a), placeB);
  assert.equal(await at(b), placeA);
  assert.equal(await active(), b, 'the active pane stays active after moving');

  // Across windows.
  const other = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${session}:`, 'sh')).trim();
  const otherWindow = await display(tmux, other, '#{window_id}');
  await mcp.ok('swap_pane', { paneId: c, otherPaneId: await refOf(mcp, 'pane', other) });
  assert.equal(await display(tmux, c, '#{window_id}'), otherWindow);
  assert.equal(await display(tmux, other, '#{window_id}'), window);

  const before = await geometry(tmux, window);
  assert.deepEqual(await mcp.ok('swap_pane', { paneId: a, otherPaneId: a }), { paneId: a, otherPaneId: a });
  assert.match(await mcp.fails('swap_pane', { paneId: a, otherPaneId: '%99' }), /no pane %99/);
  assert.match(await mcp.fails('swap_pane', { paneId: a, otherPaneId: 'b' }), /otherPaneId must be a pane id/);
  assert.match(await mcp.fails('swap_pane', { paneId: staleRef('pane', a), otherPaneId: b }), /stale/);
  assert.deepEqual(await geometry(tmux, window), before);
});

test('select_window and move_window act on one placement and report session:index', async (t) => {
  const { tmux, mcp, window: first, session: mainName } = await setup(t);
  const main = await display(tmux, `${mainName}:`, '#{session_id}');
  const { session: sideName } = await ownSession(t, tmux);
  const side = await display(tmux, `${sideName}:`, '#{session_id}');
  const second = await newWindow(tmux, mainName);
  const current = (session: string) => display(tmux, `${session}:`, '#{window_id}');
  const placements = async () => lines(tmux, 'list-windows', '-a', '-F', '#{session_id}:#{window_index} #{window_id}');

  assert.deepEqual(await mcp.ok('select_window', { windowId: second.id }), { windowId: second.id, target: `${main}:${second.index}` });
  assert.equal(await current(mainName), second.id);
  assert.deepEqual(await mcp.ok('select_window', { windowId: first, sourceSession: mainName, sourceIndex: 0 }), {
    windowId: first,
    target: `${main}:0`,
  });
  assert.equal(await current(mainName), first);

  // Moving within the session, to a free index, without changing the current window.
  assert.deepEqual(await mcp.ok('move_window', { windowId: second.id, index: 7 }), { windowId: second.id, target: `${main}:7` });
  assert.equal(await display(tmux, second.id, '#{window_index}'), '7');
  assert.equal(await current(mainName), first);
  assert.match(await mcp.fails('move_window', { windowId: second.id, index: 0 }), /index 0 of session .* is taken by window/);
  assert.deepEqual(await mcp.ok('move_window', { windowId: second.id, index: 7 }), { windowId: second.id, target: `${main}:7` });

  // Into another session, at the first free index there.
  assert.deepEqual(await mcp.ok('move_window', { windowId: second.id, session: sideName }), { windowId: second.id, target: `${side}:1` });
  assert.ok((await placements()).includes(`${side}:1 ${second.id}`));
  assert.equal(await current(sideName), await display(tmux, `${sideName}:0`, '#{window_id}'), 'moving does not select');

  // Moving the last window out of a session would end it: refused.
  const sideFirst = await display(tmux, `${sideName}:0`, '#{window_id}');
  await mcp.ok('move_window', { windowId: second.id, session: mainName, index: 3 });
  assert.match(await mcp.fails('move_window', { windowId: sideFirst, session: mainName }), /leave session .* with no windows/);
  assert.ok((await lines(tmux, 'list-sessions', '-F', '#{session_name}')).includes(sideName));

  // A window linked into two sessions must be narrowed to one placement.
  await tmux.tmux('link-window', '-d', '-s', first, '-t', `${sideName}:5`);
  const before = await placements();
  assert.match(await mcp.fails('select_window', { windowId: first }), /linked in 2 places.*sourceSession/s);
  assert.match(await mcp.fails('move_window', { windowId: first, index: 9 }), /linked in 2 places/);
  assert.match(await mcp.fails('select_window', { windowId: first, sourceSession: sideName, sourceIndex: 4 }), /not at index 4 of session/);
  assert.match(await mcp.fails('select_window', { windowId: first, sourceSession: 'nosuch' }), /no session named "nosuch"/);
  assert.match(
    await mcp.fails('move_window', { windowId: first, sourceSession: sideName, session: 'nosuch' }),
    /no session named "nosuch"/,
  );
  assert.match(await mcp.fails('move_window', { windowId: '@99' }), /no window @99/);
  assert.match(await mcp.fails('select_window', { windowId: staleRef('window', first) }), /stale/);
  assert.match(await mcp.fails('move_window', { windowId: GARBLED }), /not a ref/);
  assert.deepEqual(await placements(), before, 'refused moves change nothing');

  // A window-link ref from list_windows names its session by itself.
  const { windows } = await mcp.ok('list_windows', { session: sideName });
  const linkRef = windows.find((w: { id: string }) => w.id === first).linkRef;
  assert.deepEqual(await mcp.ok('select_window', { windowId: linkRef }), { windowId: first, target: `${side}:5` });
  assert.match(
    await mcp.fails('select_window', { windowId: linkRef, sourceSession: mainName }),
    /window-link ref into session .* but sourceSession is/,
  );
  assert.deepEqual(await mcp.ok('select_window', { windowId: first, sourceSession: side }), { windowId: first, target: `${side}:5` });
  assert.equal(await current(sideName), first);
  assert.deepEqual(await mcp.ok('move_window', { windowId: first, sourceSession: sideName, index: 6 }), {
    windowId: first,
    target: `${side}:6`,
  });
  assert.ok((await placements()).includes(`${side}:6 ${first}`));
  assert.ok((await placements()).includes(`${main}:0 ${first}`), 'the other placement stays');
});

test('set_history_limit and set_mouse_enabled change the global options', async (t) => {
  // Its own servers: the options it sets hold for every session of the tmux server.
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  assert.deepEqual(await mcp.ok('set_history_limit', { lines: 4321 }), { lines: 4321 });
  assert.equal((await tmux.tmux('show-options', '-gv', 'history-limit')).trim(), '4321');
  const fresh = await split(tmux, pane, '-v');
  assert.equal(await display(tmux, fresh, '#{history_limit}'), '4321', 'new panes get the new limit');
  assert.match(await mcp.fails('set_history_limit', { lines: -1 }), /lines/);
  assert.match(await mcp.fails('set_history_limit', { lines: 2_000_001 }), /lines/);
  assert.match(await mcp.fails('set_history_limit', { lines: 1.5 }), /lines/);
  assert.equal((await tmux.tmux('show-options', '-gv', 'history-limit')).trim(), '4321');
  assert.deepEqual(await mcp.ok('set_history_limit', { lines: 0 }), { lines: 0 });

  assert.deepEqual(await mcp.ok('set_mouse_enabled', { enabled: true }), { enabled: true });
  assert.equal((await tmux.tmux('show-options', '-gv', 'mouse')).trim(), 'on');
  assert.deepEqual(await mcp.ok('set_mouse_enabled', { enabled: false }), { enabled: false });
  assert.equal((await tmux.tmux('show-options', '-gv', 'mouse')).trim(), 'off');
  assert.match(await mcp.fails('set_mouse_enabled', { enabled: 'yes' }), /enabled/);
});

test('with no tmux server, manage tools fail clearly and start none', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: tmux.env });
  assert.match(await mcp.fails('set_mouse_enabled', { enabled: true }), /no tmux server is running/);
  assert.match(await mcp.fails('set_history_limit', { lines: 10 }), /no tmux server is running/);
  assert.match(await mcp.fails('select_pane', { paneId: '%0' }), /no tmux server is running/);
  assert.match(await mcp.fails('move_window', { windowId: '@0' }), /no tmux server is running/);
  assert.match(await mcp.fails('rename_session', { session: 'x', name: 'y' }), /no session named "x"/);
  await assert.rejects(tmux.tmux('list-sessions'), /error connecting|no server/);
});
