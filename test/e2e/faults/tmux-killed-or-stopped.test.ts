/**
 * Faults of tmux itself, survived: the tmux server killed, this server's control clients killed,
 * tmux stopped (SIGSTOP) and resumed, stdin closed while tmux is stopped, and the caller's own
 * pane. Each ends in clear answers within generous deadlines, and leaves nothing running.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI, startMcp } from '../../fixture/mcp.js';
import { clientsAfterExit, privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { alive } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';
import { killWatchUnder } from '../../fixture/watch-clients.js';

const serverPid = async (tmux: PrivateTmux) => Number((await tmux.tmux('display-message', '-p', '#{pid}')).trim());

test('the tmux server killed under the MCP server: clear answers, then a new tmux server serves', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'before' });
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' } });
  assert.equal((await mcp.ok('list_sessions')).sessions.length, 1);
  const pid = await serverPid(tmux);
  process.kill(pid, 'SIGKILL');
  await until('the killed tmux server to be gone', () => !alive(pid));
  // Listings answer "nothing there"; targeted calls say there is no server.
  assert.deepEqual((await mcp.ok('list_sessions')).sessions, []);
  assert.match(await mcp.fails('capture_pane', { paneId: '%0' }), /no tmux server is running|control connection closed/);
  const created = await mcp.ok('create_session', { name: 'after' });
  assert.equal(created.name, 'after');
  assert.deepEqual(
    (await mcp.ok('list_sessions')).sessions.map((s: { name: string }) => s.name),
    ['after'],
  );
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '', 'no tmux client left behind');
});

test('the control clients killed: the next calls reconnect and answer', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  // A wait keeps an output-receiving client attached beside the command client.
  const ended = await killWatchUnder(
    tmux,
    () => mcp.call('wait_for_text', { paneId: pane, patterns: ['never-printed'], timeoutMs: 60_000 }),
    true,
  );
  // The wait is answered: the watch was lost, the pane lives on (test/e2e/faults/watch-lost.test.ts).
  assert.equal((ended.structuredContent as { outcome: string }).outcome, 'watchLost');
  assert.equal((await mcp.ok('list_panes')).panes[0].id, pane);
  await tmux.typeAndWait(pane, 'echo back-$((40+2))');
  assert.ok((await mcp.ok('capture_pane', { paneId: pane })).lines.includes('back-42'));
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '');
});

test('tmux stopped (SIGSTOP): every call fails within the command timeout; after SIGCONT tmux is alive and calls succeed', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '2' } });
  const pid = await serverPid(tmux);
  await mcp.ok('list_sessions');
  process.kill(pid, 'SIGSTOP');
  t.after(() => void (alive(pid) && process.kill(pid, 'SIGCONT')));
  // list_sessions asks tmux, and fails like every other call.
  const answer = await mcp.call('list_sessions');
  assert.ok(answer.isError, 'list_sessions fails while tmux is stopped');
  const listed = answer.content.map((c) => c.text).join('\n');
  assert.match(listed, /did not answer within (19\d\d|2000) ms/, `list_sessions: ${listed}`);
  // Each call gets its own answer (the SDK's 60 s request timeout would turn a hang into a throw).
  for (const [tool, args] of [
    ['capture_pane', { paneId: pane }],
    ['list_panes', {}],
    ['wait_for_text', { paneId: pane, patterns: ['x'], timeoutMs: 1000 }],
    ['get_server_info', {}],
  ] as const) {
    const text = await mcp.fails(tool, args);
    // What is left of the call's 2 s deadline when the command goes out: a few ms less under load.
    assert.match(text, /did not answer within (19\d\d|2000) ms/, `${tool}: ${text}`);
  }
  process.kill(pid, 'SIGCONT');
  // tmux first works off what queued while it was stopped; under load that can outlast the 2 s timeout.
  await until('tmux to answer again after SIGCONT', async () => !(await mcp.call('list_panes')).isError, 60_000);
  assert.equal((await mcp.ok('list_panes')).panes[0].id, pane);
  await tmux.typeAndWait(pane, 'echo resumed-$((40+2))');
  assert.ok((await mcp.ok('capture_pane', { paneId: pane })).lines.includes('resumed-42'));
  assert.ok(alive(pid), 'tmux survived the stop and the resume');
  assert.equal(await serverPid(tmux), pid, 'the same tmux server answers');
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '', 'no tmux client left behind');
});

test('stdin closed while tmux is stopped: the call in flight is answered (the server is shutting down), the process exits, tmux survives', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const pid = await serverPid(tmux);
  const server = spawn(process.execPath, [CLI], {
    env: { ...tmux.env, LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '2' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  t.after(() => void server.kill('SIGKILL'));
  let out = '';
  server.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  const send = (message: object) => server.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
  await until('the answer to the first call', () => out.includes('"id":2'));
  process.kill(pid, 'SIGSTOP');
  t.after(() => void (alive(pid) && process.kill(pid, 'SIGCONT')));
  send({ id: 3, method: 'tools/call', params: { name: 'list_panes', arguments: {} } });
  server.stdin.end();
  assert.equal(await exited, 0);
  const answer = out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .find((message) => message.id === 3);
  // It cannot finish while tmux is stopped; the process does not wait out its deadline, and still answers it.
  assert.match(answer?.error?.message ?? '', /shutting down .* did not finish/, out);
  process.kill(pid, 'SIGCONT');
  assert.equal(await clientsAfterExit(tmux), '', 'no tmux client left once tmux resumed');
  assert.ok(alive(pid), 'tmux survived');
});

test("the caller's own pane: typing into it, respawning or killing it, its window or its session is refused unless force", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'home' });
  await tmux.newSession('elsewhere');
  const pid = await serverPid(tmux);
  const window = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();
  const mcp = await startMcp(t, {
    env: { ...tmux.env, TMUX_PANE: pane, TMUX: `${tmux.socketPath},${pid},0`, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' },
  });
  for (const [tool, args] of [
    ['send_keys', { paneId: pane, keys: ['echo no'] }],
    ['paste_text', { paneId: pane, text: 'no' }],
    ['run_shell_command', { paneId: pane, command: 'echo no' }],
    ['respawn_pane', { paneId: pane, killFirst: true }],
    ['kill_pane', { paneId: pane }],
    ['kill_window', { windowId: window }],
    ['kill_session', { session: 'home' }],
  ] as const) {
    assert.match(await mcp.fails(tool, args), /pane this MCP server runs in|runs in/, tool);
  }
  assert.deepEqual((await tmux.tmux('list-sessions', '-F', '#{session_name}')).split('\n').filter(Boolean).sort(), ['elsewhere', 'home']);
  assert.equal((await tmux.tmux('list-panes', '-t', 'home', '-F', '#{pane_id}')).trim(), pane, 'the pane is untouched');
  await mcp.ok('kill_session', { session: 'elsewhere' });
  await mcp.ok('kill_pane', { paneId: pane, force: true });
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux).catch(() => ''), '');
});
