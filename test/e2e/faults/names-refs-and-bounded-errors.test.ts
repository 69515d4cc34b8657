/**
 * Defects a reliability run found, each held here through the built
 * server: bounded errors, names stored faithfully or refused before tmux runs, strict refs, and
 * clear messages for oversized arguments and control characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { MAX_RESPONSE_BYTES } from '../../../src/mcp/tools/results.js';
import { TmuxServer } from '../../../src/tmux/server.js';
import { TmuxArgumentsTooLongError } from '../../../src/tmux/errors.js';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const MiB = 1024 * 1024;

const sessionNames = async (tmux: PrivateTmux) => (await tmux.tmux('list-sessions', '-F', '#{session_name}')).split('\n').filter(Boolean);

test('errors stay under the response cap and show no raw control characters, whatever they echo', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'main' });
  // Twelve sessions with 12,000-character names (tmux takes no longer command from its client):
  // an error that lists them in full would be 144 KB; with one 1 MiB name, over the cap.
  for (let i = 0; i < 12; i++) await tmux.tmux('new-session', '-d', '-s', `${i}-${'n'.repeat(12_000)}`, 'cat');
  const mcp = await startMcp(t, { env: tmux.env });

  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['rename_session', { session: 'no-such', name: 'x' }, /no session named "no-such"/],
    ['capture_pane', { paneId: 'x'.repeat(MiB) }, /paneId must be a pane id like %3/],
    ['get_window_info', { windowId: '@\u0000;kill-server' }, /windowId must be a window id/],
    ['rename_session', { session: 'a\u0000b', name: 'x' }, /no session named/],
    ['get_session_info', { session: `${'s'.repeat(MiB)}\u0001` }, /no session named/],
    ['not_a_tool_' + 'y'.repeat(MiB), {}, /unknown tool/],
  ];
  for (const [tool, args, message] of cases) {
    let text: string;
    try {
      text = await mcp.fails(tool, args);
    } catch (error) {
      // An unknown tool is a protocol error, not a tool result.
      text = (error as Error).message;
    }
    assert.match(text, message, `${tool}: ${text.slice(0, 300)}`);
    assert.ok(Buffer.byteLength(text) < 20_000, `${tool}: an error of ${Buffer.byteLength(text)} bytes`);
    assert.doesNotMatch(text, RAW_CONTROL, `${tool}: raw control character in ${JSON.stringify(text.slice(0, 200))}`);
  }
  assert.equal((await sessionNames(tmux)).length, 13, 'nothing was created or renamed');
  assert.ok(MAX_RESPONSE_BYTES > 20_000);
});

test('names: "#[" is stored as given, over-long names are refused before tmux runs, a change made is never reported as failed', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'main' });
  const mcp = await startMcp(t, { env: tmux.env });
  const session = (await tmux.tmux('display-message', '-p', '-t', pane, '#{session_id}')).trim();
  const window = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();

  for (const name of ['x#[fg=red]y', '##[b', 'a#b#[c##{d}']) {
    assert.equal((await mcp.ok('rename_session', { session, name })).name, name);
    assert.equal((await tmux.tmux('display-message', '-p', '-t', session, '#{session_name}')).trimEnd(), name);
    assert.equal((await mcp.ok('rename_window', { windowId: window, name })).name, name);
    assert.equal((await mcp.ok('set_pane_title', { paneId: pane, title: name })).title, name);
    const created = await mcp.ok('create_window', { session, name });
    assert.equal(created.name, name);
    await tmux.tmux('kill-window', '-t', created.id);
  }
  assert.equal((await mcp.ok('create_session', { name: 'new#[x' })).name, 'new#[x');

  const before = await sessionNames(tmux);
  const long = 'L'.repeat(MiB);
  for (const [tool, args] of [
    ['rename_session', { session, name: long }],
    ['rename_window', { windowId: window, name: long }],
    ['create_session', { name: long }],
    ['create_window', { session, name: long }],
    ['set_pane_title', { paneId: pane, title: long }],
  ] as const) {
    assert.match(await mcp.fails(tool, args), /at most 1024/, tool);
  }
  assert.deepEqual(await sessionNames(tmux), before, 'nothing was created or renamed');
  assert.equal((await tmux.tmux('list-windows', '-t', session, '-F', '#{window_id}')).trim(), window);
});

test('refs: a ref with anything after it, or junk in its alphabet, is refused and acts on nothing', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'main' });
  const mcp = await startMcp(t, { env: tmux.env });
  const [listed] = (await mcp.ok('list_sessions')).sessions;
  const [paneRow] = (await mcp.ok('list_panes')).panes;
  assert.equal((await mcp.ok('get_session_info', { session: listed.ref })).session.name, 'main', 'the ref itself works');
  for (const junk of ["'", ';', ' ', '\n', 'A', '=', '-', '_x']) {
    const text = await mcp.fails('rename_session', { session: listed.ref + junk, name: 'hijacked' });
    assert.match(text, /not a ref this server issued/, JSON.stringify(junk));
    assert.match(await mcp.fails('respawn_pane', { paneId: paneRow.ref + junk, killFirst: true }), /not a ref this server issued/);
  }
  // In the ref alphabet, but not what the server encodes: decodes to garbage, must not be echoed raw.
  const garbled = 'tmux1_' + Buffer.from('s\u0000\u0001\u0002garbage-fingerprint%1\u0007').toString('base64url');
  const text = await mcp.fails('get_pane_info', { paneId: garbled });
  assert.match(text, /not a ref this server issued/);
  assert.doesNotMatch(text, RAW_CONTROL);
  assert.deepEqual(await sessionNames(tmux), ['main']);
  assert.equal((await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim(), paneRow.id, 'the pane is still there');
});

test('an argument vector too long for the system is reported as such, not as a missing tmux', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = new TmuxServer({ bin: 'tmux', socketPath: tmux.socketPath, commandTimeoutMs: 15_000, spawnOnly: true });
  t.after(() => server.close());
  await assert.rejects(server.run(['display-message', '-p', 'x'.repeat(4 * MiB)]), (error: unknown) => {
    assert.ok(error instanceof TmuxArgumentsTooLongError, String(error));
    assert.match((error as Error).message, /more than the system allows/);
    assert.doesNotMatch((error as Error).message + (error as TmuxArgumentsTooLongError).hint, /install tmux/i);
    return true;
  });
});
