/**
 * The python profile across tmux servers: one process, two servers by per-call socket_name;
 * socket names that would leave tmux's socket directory refused before any tmux runs;
 * list_servers and kill_server; configuration read as the Python server reads it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, type CallResult } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv, socketTmpdir, TMUX_BIN } from '../../fixture/tmux.js';
import { startPython } from '../../fixture/python.js';

test('python: two tmux servers served by one process, chosen per call by socket_name', async (t) => {
  const dir = socketTmpdir(t);
  const red = dir.server('red');
  const blue = dir.server('blue');
  const redPane = await red.start({ session: 'red-session' });
  const bluePane = await blue.start({ session: 'blue-session' });
  // Every tmux this server runs goes through a logging wrapper, to see that bad names run none.
  const log = join(dir.tmpdir, 'tmux-calls.log');
  const wrapper = join(dir.tmpdir, 'tmux-logged');
  writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${TMUX_BIN}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  writeFileSync(log, '');
  const mcp = await startPython(t, scrubbedEnv({ TMUX_TMPDIR: dir.tmpdir, LIBTMUX_SOCKET: 'red', LIBTMUX_TMUX_BIN: wrapper }));

  const names = async (args: Record<string, unknown>) => (await mcp.ok('list_sessions', args)).result.map((s: any) => s.session_name);
  assert.deepEqual(await names({}), ['red-session']);
  assert.deepEqual(await names({ socket_name: 'blue' }), ['blue-session']);
  assert.deepEqual(await names({ socket_name: 'red' }), ['red-session']);
  assert.equal((await mcp.ok('get_pane_info', { socket_name: 'blue' })).pane_id, bluePane);
  await mcp.ok('send_keys', { socket_name: 'blue', pane_id: bluePane, keys: 'echo on-blue' });
  assert.equal(
    (await mcp.ok('run_command', { socket_name: 'blue', pane_id: bluePane, command: 'echo ran-on-blue' })).output[0],
    'ran-on-blue',
  );
  assert.equal((await mcp.ok('run_command', { pane_id: redPane, command: 'echo ran-on-red' })).output[0], 'ran-on-red');
  assert.equal((await mcp.ok('get_server_info', { socket_name: 'blue' })).socket_path, blue.socketPath);
  assert.deepEqual(await names({ socket_name: 'green' }), [], 'a name with no server: an empty listing');

  const servers = (await mcp.ok('list_servers')).result;
  assert.deepEqual(servers.map((s: any) => [s.socket_name, s.is_alive, s.session_count]).sort(), [
    ['blue', true, 1],
    ['red', true, 1],
  ]);

  const calls = readFileSync(log, 'utf8').length;
  for (const bad of ['../red', 'a/b', '..', '/tmp/x', 'x..y']) {
    const text = await mcp.fails('list_sessions', { socket_name: bad });
    assert.match(text, /not a socket name/);
    assert.match(await mcp.fails('kill_server', { socket_name: bad }), /not a socket name/);
  }
  assert.equal(readFileSync(log, 'utf8').length, calls, 'no tmux ran for a bad socket name');

  assert.equal((await mcp.ok('kill_server', { socket_name: 'blue' })).result, 'Server killed successfully');
  assert.deepEqual(
    (await mcp.ok('list_servers')).result.map((s: any) => s.socket_name),
    ['red'],
  );
  assert.deepEqual(await names({}), ['red-session'], 'the other server is untouched');
});

test('python: call_read_tools_batch runs reads in order; other tools fail their own row', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'alpha' });
  const mcp = await startPython(t, tmux.env, { LIBTMUX_EXCLUDE_TOOLS: 'get_server_info' });

  const batch = await mcp.ok('call_read_tools_batch', {
    on_error: 'continue',
    operations: [
      { tool: 'list_sessions' },
      { tool: 'capture_pane', arguments: { pane_id: pane, max_lines: 1 } },
      { tool: 'send_keys', arguments: { pane_id: pane, keys: 'x' } },
      { tool: 'wait_for_text', arguments: { pane_id: pane } },
      { tool: 'no_such_tool' },
      { tool: 'get_server_info' },
      { tool: 'get_pane_info', arguments: { pane_id: pane, bogus: 1 } },
    ],
  });
  assert.equal(batch.succeeded, 2);
  assert.equal(batch.failed, 5);
  assert.equal(batch.stopped_at, null);
  assert.deepEqual(
    batch.results.map((r: any) => r.index),
    [0, 1, 2, 3, 4, 5, 6],
  );
  assert.equal(batch.results[0].structured_content.result[0].session_name, 'alpha');
  assert.equal(batch.results[1].structured_content, null, 'capture_pane answers text only');
  assert.equal(typeof batch.results[1].content[0].text, 'string');
  assert.match(batch.results[2].error, /execute/);
  assert.match(batch.results[3].error, /own wait ceiling/);
  assert.match(batch.results[4].error, /Unknown tool: 'no_such_tool'/);
  assert.match(batch.results[5].error, /excluded/);
  assert.match(batch.results[6].error, /Remove or correct the unrecognized argument\(s\): "bogus"/);
  assert.ok(batch.results.every((r: any) => typeof r.elapsed_seconds === 'number'));

  const stopped = await mcp.ok('call_read_tools_batch', {
    operations: [{ tool: 'get_pane_info', arguments: { pane_id: '%999' } }, { tool: 'list_sessions' }],
  });
  assert.equal(stopped.stopped_at, 0);
  assert.equal(stopped.results.length, 1);
  const listed = (await mcp.client.listTools()).tools.map((tool) => tool.name);
  assert.ok(!listed.includes('get_server_info'), 'LIBTMUX_EXCLUDE_TOOLS removes it');
});

test('python: call_read_tools_batch answers each row as the direct call does, in order', async (t) => {
  const tmux = privateTmux(t);
  const a = await tmux.start({ session: 'alpha' });
  const b = await tmux.newSession('beta');
  await tmux.typeAndWait(a, 'echo text-of-a');
  await tmux.typeAndWait(b, 'echo text-of-b');
  const mcp = await startPython(t, tmux.env);
  const operations = [
    { tool: 'get_pane_info', arguments: { pane_id: a } },
    { tool: 'capture_pane', arguments: { pane_id: a } },
    { tool: 'capture_pane', arguments: { pane_id: b, max_lines: 2 } },
    { tool: 'get_pane_info', arguments: { pane_id: b } },
    { tool: 'get_pane_info', arguments: { pane_id: '%999' } },
    { tool: 'capture_pane', arguments: { pane_id: a, start: -5 } },
    { tool: 'list_sessions' },
    { tool: 'get_pane_info', arguments: { pane_id: a } },
  ];
  const direct: CallResult[] = [];
  for (const op of operations) direct.push(await mcp.call(op.tool, op.arguments ?? {}));
  const batch = await mcp.ok('call_read_tools_batch', { operations, on_error: 'continue' });
  assert.equal(batch.succeeded, 7);
  assert.equal(batch.failed, 1);
  batch.results.forEach((row: any, i: number) => {
    assert.equal(row.index, i);
    assert.equal(row.success, !direct[i]!.isError, `row ${i}`);
    assert.deepEqual(row.content, direct[i]!.content, `row ${i}`);
    assert.deepEqual(row.structured_content, direct[i]!.isError ? null : (direct[i]!.structuredContent ?? null), `row ${i}`);
    assert.ok(row.elapsed_seconds >= 0);
  });
  assert.match(batch.results[1].content[0].text, /text-of-a/);
  assert.match(batch.results[4].error, /%999/);

  const stopped = await mcp.ok('call_read_tools_batch', { operations });
  assert.equal(stopped.stopped_at, 4);
  assert.deepEqual(
    stopped.results.map((row: any) => row.success),
    [true, true, true, true, false],
  );
});

test("python: call_read_tools_batch keeps its answer under 1,000,000 bytes by eliding the last rows' content", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  // About 8000 rows of 60 characters: each full capture is ~480 KB.
  await tmux.typeAndWait(pane, "seq -f '%056g row' 1 8000");
  const mcp = await startPython(t, tmux.env);
  const capture = { tool: 'capture_pane', arguments: { pane_id: pane, start: -9000, max_lines: null } };
  const batch = await mcp.ok('call_read_tools_batch', { operations: [capture, capture, capture] });
  assert.equal(batch.succeeded, 3);
  assert.equal(batch.response_truncated, true);
  assert.ok(batch.response_truncated_bytes > 400_000, String(batch.response_truncated_bytes));
  assert.ok(batch.results[0].content[0].text.length > 400_000, 'the first rows keep their content');
  assert.deepEqual(batch.results[2].content, [{ type: 'text', text: '[... batch truncated nested content ...]' }]);
});

function startup(env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, '--profile', 'python'], {
    env: scrubbedEnv(env),
    input: '',
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stderr: run.stderr };
}

test('python: configuration: removed and bad variables stop start-up; toolsets, tools and exclusions', async (t) => {
  const safety = startup({ LIBTMUX_SAFETY: 'readonly' });
  assert.equal(safety.status, 2);
  assert.match(safety.stderr, /LIBTMUX_SAFETY is no longer read; use LIBTMUX_TOOLSETS/);
  const history = startup({ LIBTMUX_SUPPRESS_HISTORY: 'yes' });
  assert.equal(history.status, 2);
  assert.match(history.stderr, /LIBTMUX_SUPPRESS_HISTORY must be unset, '0', or '1'/);
  assert.match(startup({ LIBTMUX_TOOLSETS: 'inspect,admin' }).stderr, /unknown toolset "admin"/);
  assert.match(startup({ LIBTMUX_SOCKET: '../x' }).stderr, /LIBTMUX_SOCKET is a name, not a path/);

  const tmux = privateTmux(t);
  const mcp = await startPython(t, tmux.env, {
    LIBTMUX_TOOLSETS: 'inspect',
    LIBTMUX_TOOLS: 'kill_server,send_keys',
    LIBTMUX_EXCLUDE_TOOLS: 'kill_server',
  });
  const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes('send_keys') && names.includes('capture_pane'));
  assert.ok(!names.includes('kill_server'), 'exclusion wins over LIBTMUX_TOOLS');
  assert.ok(!names.includes('create_session'));
  assert.match(mcp.stderr(), /profile python/);
});
