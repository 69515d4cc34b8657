/**
 * The edges: wide and combining characters, emoji, a 100,000-line scrollback, dead
 * panes, and a tmux server killed while calls are in flight. Each gives a correct result or a clear
 * error, never a hang.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { privateTmux } from '../../fixture/tmux.js';
import { settle, until } from '../../fixture/until.js';

/** One tmux server and one MCP server for the tests that only read, each on a session of its own. */
const server = sharedMcp();

test('wide, combining and emoji characters come back whole from capture, search and run', async (t) => {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  // printf with octal escapes, so the typed command itself holds only ASCII.
  await tmux.typeAndWait(
    pane,
    "clear; printf 'wide:\\346\\227\\245\\346\\234\\254\\350\\252\\236 combining:e\\314\\201 emoji:\\360\\237\\230\\200\\360\\237\\221\\215\\360\\237\\217\\275 end\\n'",
  );
  const expected = 'wide:日本語 combining:e\u0301 emoji:😀👍🏽 end';

  const { lines } = await mcp.ok('capture_pane', { paneId: pane });
  assert.ok(lines.includes(expected), JSON.stringify(lines));

  const found = await mcp.ok('search_panes', { pattern: '日本語' });
  assert.equal(found.matches.length, 1);
  assert.equal(found.matches[0].text, expected);

  const run = await mcp.ok('run_shell_command', { paneId: pane, command: "printf '%s\\n' '한국어 ✓ 👍🏽' 'ｆｕｌｌ　ｗｉｄｔｈ'" });
  assert.equal(run.exitStatus, 0);
  assert.deepEqual(run.output, ['한국어 ✓ 👍🏽', 'ｆｕｌｌ　ｗｉｄｔｈ']);
});

test('a 100,000-line scrollback: capture_pane reaches its start, stays bounded and says what it left out', async (t) => {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  await tmux.typeAndWait(pane, 'clear; seq 1 100000');

  const history = Number((await tmux.tmux('display', '-p', '-t', pane, '#{history_size}')).trim());
  assert.ok(history >= 99_900, `history holds the output (${history} lines)`);

  const oldest = await mcp.ok('capture_pane', { paneId: pane, start: -history, end: -history + 2 });
  assert.deepEqual(oldest.lines.slice(0, 2), ['1', '2']);
  assert.equal(oldest.droppedLines, 0);

  const all = await mcp.ok('capture_pane', { paneId: pane, start: -history, maxLines: 2000 });
  assert.equal(all.lines.length, 2000);
  assert.ok(all.droppedLines > 98_000, `droppedLines ${all.droppedLines}`);
  assert.equal(all.lines.at(-2), '100000', 'the newest rows are kept');

  const found = await mcp.ok('search_panes', { pattern: '99999', scrollbackLines: 2000 });
  assert.ok(found.matches.some((m: { text: string }) => m.text === '99999'));
});

test('a dead pane can still be read, is reported dead, and refuses input clearly', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  await tmux.tmux('set-option', '-g', 'remain-on-exit', 'on');
  const dead = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', 'cat')).trim();
  await tmux.tmux('send-keys', '-t', dead, '-l', 'last words');
  await tmux.tmux('send-keys', '-t', dead, 'Enter', 'C-d');
  const mcp = await startMcp(t, { env: tmux.env });
  await until('get_pane_info to report the pane dead', async () => (await mcp.ok('get_pane_info', { paneId: dead })).pane.isDead, 5000);

  const { lines } = await mcp.ok('capture_pane', { paneId: dead });
  assert.ok(lines.includes('last words'), JSON.stringify(lines));
  assert.match(await mcp.fails('send_keys', { paneId: dead, keys: ['x'] }), /dead/);
  assert.match(await mcp.fails('run_shell_command', { paneId: dead, command: 'true' }), /dead/);
  const waited = await mcp.ok('wait_for_text', { paneId: dead, patterns: ['never'], timeoutMs: 5000 });
  assert.notEqual(waited.outcome, 'matched');
});

test('a tmux server killed while calls are in flight: every call answers, and the server recovers', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' } });
  await mcp.ok('list_panes');

  const waiting = mcp.call('wait_for_text', { paneId: pane, patterns: ['never printed'], timeoutMs: 60_000 });
  const running = mcp.call('run_shell_command', { paneId: pane, command: 'sleep 60', timeoutMs: 60_000 });
  // Both calls are in flight once the command is on screen.
  await settle(async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('sleep 60'), 10_000);
  await tmux.tmux('kill-server');

  // Answered for the kill, not at their 60 s timeouts: neither says it timed out.
  const [wait, run] = await Promise.all([waiting, running]);
  if (!wait.isError)
    assert.ok(
      !['matched', 'timedOut'].includes((wait.structuredContent as { outcome: string }).outcome),
      JSON.stringify(wait.structuredContent),
    );
  if (!run.isError) {
    const ran = run.structuredContent as { exitStatus: number | null; timedOut: boolean };
    assert.ok(ran.exitStatus !== 0 && !ran.timedOut, JSON.stringify(ran));
  } else assert.match(run.content[0]!.text!, /tmux|pane|server/i);

  assert.deepEqual(await mcp.ok('list_sessions'), { sessions: [] });
  const created = await mcp.ok('create_session', { name: 'again' });
  assert.equal(created.name, 'again');
  assert.equal((await mcp.ok('list_panes')).panes.length, 1);
});
