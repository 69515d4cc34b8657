/**
 * Defects beside the scope (test/e2e/oversight/scope-tmux-languages.test.ts) and the silent host
 * (hosts/silent.test.ts): the audit trail's whole line, julia's read-only refusal, python's copy
 * mode under a scope, a python create_window whose answer could not carry its name, and python's
 * socket_name reaching panes the live view does not show.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { startJulia } from '../../fixture/julia.js';
import { startRaw } from '../../fixture/raw-stdio.js';
import { privateTmux, scrubbedEnv, socketTmpdir } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';

const SECRET = `sk-${'q7'.repeat(15)}`;
const REDACT = ['--audit-redact', 'sk-[a-z0-9]{20,}'];

function auditDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-audit3-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('audit: redaction covers the tool and client names, argument keys and a secret across the cut; the line stays one line', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const file = join(auditDir(t), 'audit.jsonl');
  const mcp = await startMcp(t, { env: tmux.env, args: ['--audit', file, ...REDACT] });
  await assert.rejects(mcp.client.callTool({ name: `tool-${SECRET}`, arguments: {} }));
  assert.equal((await mcp.call('capture_pane', { paneId: pane, [`key-${SECRET}`]: 1 })).isError, true);
  // The secret starts 10 characters before the 4,096-character cut.
  await mcp.ok('send_keys', { paneId: pane, keys: [`${'x'.repeat(4086)}${SECRET}`], literal: true });
  await mcp.ok('send_keys', { paneId: pane, keys: ['a\u2028b\u0085c\u2029d'], literal: true });

  // A client whose name holds the secret, and a tools/call whose arguments are not an object.
  const raw = startRaw(t, tmux.env, ['--audit', file, ...REDACT]);
  raw.send({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `agent ${SECRET}`, version: '0' } },
  });
  await raw.answer('init');
  raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'capture_pane', arguments: [pane] } });
  assert.equal((await raw.answer(1)).error.code, -32602);
  raw.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: 'all' } });
  assert.equal((await raw.answer(2)).error.code, -32602);
  raw.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_sessions' } });
  assert.ok((await raw.answer(3)).result);

  const text = readFileSync(file, 'utf8');
  assert.equal(text.includes(SECRET.slice(0, 12)), false, 'no part of the secret is in the file');
  assert.equal(/[\u2028\u2029\u0085]/.test(text), false, 'line separators are escaped');
  const lines = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.ok(lines.some((line) => line.tool === 'tool-[redacted]'));
  assert.ok(lines.some((line) => line.tool === 'capture_pane' && Object.hasOwn(line.arguments, 'key-[redacted]')));
  assert.ok(
    lines.some((line) => line.arguments?.keys?.[0] === 'a\u2028b\u0085c\u2029d'),
    'read back as sent',
  );
  const shape = lines.filter((line) => line.client.name === 'agent [redacted]');
  assert.deepEqual(
    shape.map((line) => [line.tool, line.outcome, line.arguments]),
    [
      ['capture_pane', 'error', [pane]],
      ['list_sessions', 'error', 'all'],
      ['list_sessions', 'ok', {}],
    ],
    'every call of the raw client is a line, the ones the SDK refused by shape too',
  );
  assert.match(shape[0].error, /arguments: expected an object/);
});

test('audit: the file is opened without following a link, and must be ours and 0600', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const dir = auditDir(t);
  const start = (file: string) =>
    spawnSync(process.execPath, [CLI, '--audit', file], { env: tmux.env, input: '', encoding: 'utf8', timeout: 30_000 });
  const target = join(dir, 'elsewhere.jsonl');
  writeFileSync(target, '', { mode: 0o600 });
  symlinkSync(target, join(dir, 'link.jsonl'));
  const linked = start(join(dir, 'link.jsonl'));
  assert.equal(linked.status, 1, linked.stderr);
  assert.match(linked.stderr, /cannot write there \(it is a symbolic link/);
  assert.equal(readFileSync(target, 'utf8'), '');

  const open = join(dir, 'open.jsonl');
  writeFileSync(open, '');
  chmodSync(open, 0o644);
  const wide = start(open);
  assert.equal(wide.status, 1, wide.stderr);
  assert.match(wide.stderr, /mode is 0644, not 0600/);

  const theirs = join(dir, 'theirs.jsonl');
  writeFileSync(theirs, '', { mode: 0o600 });
  if (process.getuid?.() === 0) {
    chownSync(theirs, 65534, 65534);
    const other = start(theirs);
    assert.equal(other.status, 1, other.stderr);
    assert.match(other.stderr, /belongs to another user/);
  }
  const mine = join(dir, 'mine.jsonl');
  writeFileSync(mine, '', { mode: 0o600 });
  assert.equal(start(mine).status, 0, 'a file of ours with mode 0600 is appended to');
});

test('julia --read-only: a tool it leaves out is refused as read-only, not as unknown', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: ['--read-only', '--tool', 'send_keys', '--tool', 'list_panes'] });
  await assert.rejects(julia.mcp.client.callTool({ name: 'send_keys', arguments: { keys: ['x'] } }), /this server runs read-only/);
  await assert.rejects(julia.mcp.client.callTool({ name: 'no_such_tool', arguments: {} }), /unknown tool/);
});

/** Session agent-1 (in scope) and private, and the python profile limited to agent-*. */
async function scoped(t: Parameters<typeof privateTmux>[0] & { after: (fn: () => Promise<void> | void) => void }) {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'agent-1' });
  await tmux.newSession('private');
  return { tmux, pane, mcp: await startPython(t, tmux.env, { TMUX_MCP_ALLOW_SESSIONS: 'agent-*' }) };
}

test('python: enter_copy_mode works on a pane in scope', async (t) => {
  const { tmux, pane, mcp } = await scoped(t);
  assert.equal((await mcp.ok('enter_copy_mode', { pane_id: pane, scroll_up: 1 })).pane_id, pane);
  await until('copy mode', async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_in_mode}')).trim() === '1');
  await mcp.ok('exit_copy_mode', { pane_id: pane });
});

test('python: create_window refuses a name no answer could carry, making nothing', async (t) => {
  const { tmux, mcp } = await scoped(t);
  const windows = async () => (await tmux.tmux('list-windows', '-t', 'agent-1', '-F', '#{window_id}')).trim().split('\n').length;
  const before = await windows();
  const failed = await mcp.fails('create_window', { session_name: 'agent-1', window_name: 'w'.repeat(1024 * 1024) });
  assert.match(failed, /window_name is 1048576 characters long/);
  assert.equal(await windows(), before, 'no window was made');
  await mcp.ok('create_window', { session_name: 'agent-1', window_name: 'w'.repeat(1024) });
  assert.equal(await windows(), before + 1);
});

test('python with --view: a socket the view does not show is refused; the configured one and list_servers still answer', async (t) => {
  const dir = socketTmpdir(t);
  const red = dir.server('red');
  const blue = dir.server('blue');
  await red.start({ session: 'red-session' });
  const bluePane = await blue.start({ session: 'blue-session' });
  const mcp = await startPython(
    t,
    scrubbedEnv({ TMUX_TMPDIR: dir.tmpdir, LIBTMUX_SOCKET: 'red', TMUX_MCP_TOKEN: 'view-token-0123456789abcdef' }),
    { TMUX_MCP_VIEW: '0' },
  );
  const refused = await mcp.fails('send_keys', { socket_name: 'blue', pane_id: bluePane, keys: 'echo unseen' });
  assert.match(refused, /socket "blue" is not one the live view shows: while --view is on/);
  assert.doesNotMatch(await blue.tmux('capture-pane', '-p', '-t', bluePane), /unseen/);
  assert.deepEqual(
    (await mcp.ok('list_sessions', { socket_name: 'red' })).result.map((s: { session_name: string }) => s.session_name),
    ['red-session'],
  );
  assert.deepEqual(
    (await mcp.ok('list_servers')).result.map((s: { socket_name: string }) => s.socket_name),
    ['red'],
  );
});
