/**
 * `--audit FILE`: one JSON line per tool call, batch items too, in every profile, through the SDK
 * client against real tmux: what was called with what, by whom, on which resolved targets, how it
 * ended and how long it took; a refused call is a line too; `--audit-redact` hides secrets; the file
 * is created 0600, and one that cannot be written stops start-up.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, connectHttp, startMcp, type McpSession } from '../../fixture/mcp.js';
import { startHttp } from '../../fixture/http.js';
import { privateTmux } from '../../fixture/tmux.js';

interface Line {
  id: number;
  time: string;
  client: { name?: string; session?: string };
  tool: string;
  arguments: any;
  targets: string[];
  outcome: 'ok' | 'error';
  error?: string;
  ms: number;
  batch?: { id: number; tool: string; index: number };
}

const SECRET = 'hunter2-s3cret';

function auditFile(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-audit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'audit.jsonl');
}

/** Every line of the file, each checked for the fields every entry has. */
function lines(file: string): Line[] {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'every line is complete');
  return text
    .trimEnd()
    .split('\n')
    .map((raw) => {
      const line = JSON.parse(raw) as Line;
      assert.ok(Number.isInteger(line.id) && line.id > 0, raw);
      assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, raw);
      assert.ok(!Number.isNaN(Date.parse(line.time)), raw);
      assert.equal(typeof line.tool, 'string');
      assert.ok(Array.isArray(line.targets), raw);
      assert.ok(line.outcome === 'ok' || line.outcome === 'error', raw);
      assert.equal(line.outcome === 'error', typeof line.error === 'string' && line.error.length > 0, raw);
      assert.ok(typeof line.ms === 'number' && line.ms >= 0, raw);
      return line;
    });
}

async function unknownTool(mcp: McpSession): Promise<void> {
  await assert.rejects(mcp.client.callTool({ name: 'no_such_tool', arguments: { x: 1 } }), /no_such_tool/);
}

function checkCommon(file: string, all: Line[]): void {
  assert.equal(statSync(file).mode & 0o777, 0o600, 'created readable by its owner only');
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes(SECRET), 'the secret is nowhere in the file');
  assert.ok(text.includes('[redacted]'), 'it was replaced');
  for (const line of all) assert.equal(line.client.name, 'tmux-mcp-tests', JSON.stringify(line));
  const refused = all.find((line) => line.tool === 'no_such_tool');
  assert.ok(refused, 'a call of a tool the server does not list is a line too');
  assert.equal(refused.outcome, 'error');
  assert.deepEqual(refused.arguments, { x: 1 });
  const ids = all.map((line) => line.id);
  assert.equal(new Set(ids).size, ids.length, 'each entry its own id');
}

test('audit, libtmux: calls, an error, a refused call, batch items, redaction, targets and mode 0600', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'work' });
  const file = auditFile(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--audit', file, '--audit-redact', 'hunter2-\\w+'] });
  await mcp.ok('list_sessions');
  await mcp.ok('send_keys', { paneId: pane, keys: [`echo ${SECRET}`], literal: true, enter: false });
  assert.match(await mcp.fails('capture_pane', { paneId: '%999' }), /no pane %999/);
  await mcp.ok('call_read_tools_batch', {
    operations: [
      { tool: 'get_pane_info', arguments: { paneId: pane } },
      { tool: 'capture_pane', arguments: { paneId: '%998' } },
    ],
  });
  await unknownTool(mcp);
  const all = lines(file);
  checkCommon(file, all);

  const [listing, typed, failed] = all;
  assert.deepEqual([listing!.tool, listing!.outcome, listing!.arguments], ['list_sessions', 'ok', {}]);
  assert.equal(typed!.tool, 'send_keys');
  assert.deepEqual(typed!.arguments.keys, ['echo [redacted]']);
  assert.deepEqual(typed!.targets, [`local:${pane}`], 'the pane it typed into, with its host');
  assert.equal(listing!.client.session, undefined, 'no HTTP session over stdio');
  assert.deepEqual([failed!.tool, failed!.outcome], ['capture_pane', 'error']);
  assert.match(failed!.error!, /no pane %999/);

  const batch = all.find((line) => line.tool === 'call_read_tools_batch')!;
  // One line per item, in the order they ran.
  const items = all.filter((line) => line.batch?.id === batch.id);
  assert.deepEqual(
    items.map((line) => [line.batch!.tool, line.batch!.index, line.tool, line.outcome]),
    [
      ['call_read_tools_batch', 0, 'get_pane_info', 'ok'],
      ['call_read_tools_batch', 1, 'capture_pane', 'error'],
    ],
  );
  assert.deepEqual(items[0]!.targets, [`local:${pane}`]);
  assert.ok(batch.targets.includes(`local:${pane}`), 'what its items touched counts for the batch');
  assert.ok(
    items.every((line) => all.indexOf(line) < all.indexOf(batch)),
    'items end before their batch',
  );
});

test('audit, python: the same lines in the python profile', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'py' });
  const file = auditFile(t);
  const mcp = await startMcp(t, {
    env: { ...tmux.env, TMUX_MCP_AUDIT: file, TMUX_MCP_AUDIT_REDACT: 'hunter2-\\w+' },
    args: ['--profile', 'python'],
  });
  await mcp.call('list_sessions', {});
  await mcp.call('send_keys', { pane_id: pane, keys: `echo ${SECRET}`, enter: false });
  const failed = await mcp.call('capture_pane', { pane_id: '%999' });
  assert.equal(failed.isError, true);
  await mcp.call('call_read_tools_batch', {
    operations: [
      { tool: 'get_pane_info', arguments: { pane_id: pane } },
      { tool: 'list_windows', arguments: {} },
    ],
  });
  const gone = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', 'cat')).trim();
  const read = (await mcp.call('capture_since', { pane_id: gone })).structuredContent as { cursor: string };
  await tmux.tmux('kill-pane', '-t', gone);
  assert.equal((await mcp.call('capture_since', { cursor: read.cursor })).isError, true);
  await unknownTool(mcp);
  const all = lines(file);
  checkCommon(file, all);
  const typed = all.find((line) => line.tool === 'send_keys')!;
  assert.equal(typed.outcome, 'ok');
  assert.equal(typed.arguments.keys, 'echo [redacted]');
  assert.ok(typed.targets.includes(`local:${pane}`), JSON.stringify(typed));
  assert.equal(all.find((line) => line.tool === 'capture_pane')!.outcome, 'error');
  // A cursor alone names its pane: a read of a pane gone since fails, and its line still names the pane
  // (no argument of it is called pane or session: a guess by argument name left such a line without targets).
  const cursor = all.find((line) => line.tool === 'capture_since' && line.outcome === 'error')!;
  assert.deepEqual(cursor.targets, [`local:${gone}`], JSON.stringify(cursor));
  const batch = all.find((line) => line.tool === 'call_read_tools_batch')!;
  assert.deepEqual(
    all.filter((line) => line.batch?.id === batch.id).map((line) => [line.batch!.index, line.tool, line.outcome]),
    [
      [0, 'get_pane_info', 'ok'],
      [1, 'list_windows', 'ok'],
    ],
  );
});

test('audit, julia: envelopes, run_operations items and a refused target', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'jl' });
  const file = auditFile(t);
  const mcp = await startMcp(t, {
    env: tmux.env,
    args: [
      '--profile',
      'julia',
      '--tool',
      'list_panes',
      '--tool',
      'capture_pane',
      '--tool',
      'send_keys',
      '--tool',
      'run_operations',
      '--audit',
      file,
      '--audit-redact',
      'hunter2-\\w+',
    ],
  });
  const listed = (await mcp.call('list_panes', {})).structuredContent as {
    panes: Array<{ target: { paneId: string; generation: string } }>;
  };
  const target = listed.panes[0]!.target;
  assert.equal(target.paneId, pane);
  await mcp.call('send_keys', { target, keys: [`echo ${SECRET}`] });
  const refused = await mcp.call('capture_pane', { target: { paneId: '%999', generation: target.generation } });
  assert.equal(refused.isError, true);
  const ran = await mcp.call('run_operations', {
    operations: [
      { tool: 'capture_pane', arguments: { target, lines: 5 } },
      { tool: 'send_keys', arguments: { target, keys: ['Enter'] } },
    ],
  });
  assert.equal(ran.isError, undefined, JSON.stringify(ran));
  await unknownTool(mcp);
  const all = lines(file);
  checkCommon(file, all);
  const typed = all.find((line) => line.tool === 'send_keys' && !line.batch)!;
  assert.deepEqual(typed.arguments.keys, ['echo [redacted]']);
  assert.deepEqual(typed.targets, [`local:${pane}`]);
  const failed = all.find((line) => line.tool === 'capture_pane' && !line.batch)!;
  assert.equal(failed.outcome, 'error');
  assert.match(failed.error!, /%999|not|exist/i);
  const batch = all.find((line) => line.tool === 'run_operations')!;
  assert.equal(batch.outcome, 'ok');
  assert.deepEqual(
    all.filter((line) => line.batch?.id === batch.id).map((line) => [line.batch!.index, line.tool, line.outcome, line.targets]),
    [
      [0, 'capture_pane', 'ok', [`local:${pane}`]],
      [1, 'send_keys', 'ok', [`local:${pane}`]],
    ],
  );
});

test('audit over HTTP: the client name and its 2025 session id', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'web' });
  const file = auditFile(t);
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: 'audit-token-0123456789' }, args: ['--audit', file] });
  const mcp = await connectHttp(t, { url: server.url, token: server.token, negotiation: 'legacy' });
  await mcp.ok('list_sessions');
  const [line] = lines(file);
  assert.equal(line!.client.name, 'tmux-mcp-tests');
  assert.match(line!.client.session ?? '', /^[0-9a-f-]{36}$/, JSON.stringify(line));
  const modern = await connectHttp(t, { url: server.url, token: server.token, negotiation: 'auto' });
  await modern.ok('list_sessions');
  const second = lines(file)[1]!;
  assert.equal(second.client.name, 'tmux-mcp-tests', 'a 2026 request names its client in its envelope');
  assert.equal(second.client.session, undefined, 'a 2026 request has no session');
});

test('audit: a file that cannot be written stops start-up with one clear line and exit status 1', (t) => {
  const tmux = privateTmux(t);
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-audit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [file, why] of [
    [join(dir, 'missing', 'audit.jsonl'), /its directory does not exist/],
    [dir, /it is a directory/],
  ] as const) {
    const run = spawnSync(process.execPath, [CLI, '--audit', file], { env: tmux.env, input: '', encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`^tmux-mcp: --audit ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot write there`));
    assert.match(run.stderr, why);
  }
  const bad = spawnSync(process.execPath, [CLI, '--audit', join(dir, 'a.jsonl'), '--audit-redact', '('], {
    env: tmux.env,
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--audit-redact "\(" is not a valid regular expression/);
  const empty = spawnSync(process.execPath, [CLI, '--audit', join(dir, 'a.jsonl'), '--audit-redact', 'x*'], {
    env: tmux.env,
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.match(empty.stderr, /matches the empty string/);
});
