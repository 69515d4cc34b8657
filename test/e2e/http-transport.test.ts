/**
 * `tmux-mcp --http`: tools over Streamable HTTP in both eras, the bearer token, the Host and Origin
 * gates, one engine for all requests, and a dropped request cancelling its call.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, connectHttp } from '../fixture/mcp.js';
import { startHttp } from '../fixture/http.js';
import { until, waiters } from '../fixture/processes.js';
import { clientsAfterExit, privateTmux, scrubbedEnv } from '../fixture/tmux.js';

const TOKEN = 'test-token-0123456789';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** One raw POST with exactly the headers given (node:http lets a test set Host, which fetch does not). */
function post(url: string, headers: Record<string, string>, body: unknown = INITIALIZE): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

for (const [negotiation, era, version] of [
  ['auto', 'modern', '2026-07-28'],
  ['legacy', 'legacy', '2025-11-25'],
] as const) {
  test(`HTTP, ${negotiation} client: the ${version} era lists and calls tools`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ session: 'web' });
    const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const mcp = await connectHttp(t, { url: server.url, token: server.token, negotiation });
    assert.equal(mcp.client.getProtocolEra(), era);
    assert.equal(mcp.client.getNegotiatedProtocolVersion(), version);
    const { tools } = await mcp.client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'run_shell_command'));
    assert.deepEqual((await mcp.ok('list_sessions')).sessions.map((s: { name: string }) => s.name), ['web']);
    const run = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo http-$((6*7))', timeoutMs: 30_000 });
    assert.equal(run.exitStatus, 0, JSON.stringify(run));
    assert.deepEqual(run.output, ['http-42']);
    assert.match(await mcp.fails('capture_pane', { paneId: '%999' }), /no pane %999/);
    // A call that runs past a second reports progress when asked (each second: elapsed of total seconds).
    const seen: Array<{ progress: number; total?: number }> = [];
    const waited = await mcp.client.callTool(
      { name: 'wait_for_text', arguments: { paneId: pane, patterns: ['never-printed-here'], timeoutMs: 2500 } },
      { onprogress: (p: { progress: number; total?: number }) => void seen.push(p) } as never,
    );
    assert.equal((waited.structuredContent as { matched: unknown }).matched, null);
    assert.ok(seen.length >= 1, 'at least one progress notification');
    assert.ok(seen.every((p, i) => p.total === 2.5 && (i === 0 || p.progress > seen[i - 1]!.progress)), JSON.stringify(seen));
    await mcp.close();
    assert.equal(await server.stop(), 0, server.stderr());
    assert.equal(await clientsAfterExit(tmux), '', 'the server left no tmux client behind');
  });
}

test('HTTP: without the right bearer token every request is refused with 401', async (t) => {
  const tmux = privateTmux(t);
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${TOKEN}` }]) {
    const answer = await post(server.url, headers);
    assert.equal(answer.status, 401, JSON.stringify(headers));
    assert.match(String(answer.headers['www-authenticate']), /^Bearer /);
  }
  const modernProbe = { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
  assert.equal((await post(server.url, {}, modernProbe)).status, 401);
  const ok = await post(server.url, { authorization: `Bearer ${TOKEN}` });
  assert.equal(ok.status, 200, ok.body);
  assert.match(ok.body, /"protocolVersion":"2025-11-25"/);
});

test('HTTP: a foreign Host or Origin gets 403 before the token is looked at; --allow-host admits a name', async (t) => {
  const tmux = privateTmux(t);
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--allow-host', 'tmux.example'] });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const port = new URL(server.url).port;
  assert.equal((await post(server.url, { ...auth, host: `evil.example:${port}` })).status, 403);
  assert.equal((await post(server.url, { host: `evil.example:${port}` })).status, 403);
  assert.equal((await post(server.url, { ...auth, origin: 'http://evil.example' })).status, 403);
  assert.equal((await post(server.url, { ...auth, origin: 'null' })).status, 403);
  assert.equal((await post(server.url, { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` })).status, 200);
  assert.equal((await post(server.url, { ...auth, host: `tmux.example:${port}`, origin: 'https://tmux.example' })).status, 200);
  assert.equal((await post(server.url.replace(/\/mcp$/, '/other'), auth)).status, 404);
});

test('HTTP: with no token given, one is generated and printed once; a token file works too', async (t) => {
  const tmux = privateTmux(t);
  const generated = await startHttp(t, { env: tmux.env });
  assert.match(generated.token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(generated.stderr().split(generated.token).length - 1, 1, 'printed exactly once');
  assert.equal((await post(generated.url, { authorization: `Bearer ${generated.token}` })).status, 200);
  assert.equal((await post(generated.url, {})).status, 401);

  const file = join(tmux.dir, 'token');
  writeFileSync(file, 'from-a-file\n');
  const filed = await startHttp(t, { env: tmux.env, args: ['--token-file', file], token: 'from-a-file' });
  assert.doesNotMatch(filed.stderr(), /bearer token for this run/);
  assert.equal((await post(filed.url, { authorization: `Bearer ${filed.token}` })).status, 200);
  assert.equal((await post(filed.url, { authorization: 'Bearer from-a-fil' })).status, 401);
});

test('HTTP: start-up refuses a non-loopback address without a chosen token, and bad flags', () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [CLI, ...args], { env: scrubbedEnv({ LIBTMUX_SOCKET_NAME: 'tmux-mcp-http-flags', ...env }), encoding: 'utf8', timeout: 10_000 });
  const open = run(['--http', '0.0.0.0:0']);
  assert.equal(open.status, 2);
  assert.match(open.stderr, /listens beyond this machine: choose a token \(TMUX_MCP_TOKEN or --token-file\)/);
  assert.match(run(['--http', 'nope']).stderr, /--http takes \[HOST:\]PORT/);
  assert.match(run(['--http', '70000']).stderr, /--http takes \[HOST:\]PORT/);
  assert.match(run(['--token-file', '/x']).stderr, /apply to --http only/);
  assert.match(run(['--http', '0', '--token-file', '/nonexistent/token']).stderr, /--token-file \/nonexistent\/token: no such file/);
  assert.match(run(['--http', '0', '--token-file', '/x'], { TMUX_MCP_TOKEN: 'a' }).stderr, /both set/);
});

test('HTTP: one engine serves every request, and a dropped request cancels its wait (both eras)', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  const modern = await connectHttp(t, { url: server.url, token: TOKEN, negotiation: 'auto' });
  const legacy = await connectHttp(t, { url: server.url, token: TOKEN, negotiation: 'legacy' });
  // One tmux control client however many clients and requests there are: one engine.
  await modern.ok('list_sessions');
  await legacy.ok('list_sessions');
  assert.equal((await tmux.tmux('list-clients', '-F', '#{client_control_mode}')).trim(), '1');

  // 2026-07-28: the SDK client cancels a call by closing its request.
  const modernChannel = `http-drop-modern-${process.pid}`;
  const controller = new AbortController();
  const call = modern.client.callTool({ name: 'wait_for_channel', arguments: { channel: modernChannel, timeoutMs: 60_000 } }, { signal: controller.signal });
  await until('the modern wait-for process', () => waiters(modernChannel).length === 1);
  controller.abort();
  await assert.rejects(call);
  await until('the modern wait-for process to go once its request is gone', () => waiters(modernChannel).length === 0, 5000);

  // 2025-11-25: a POST whose connection is simply closed, with no cancellation message.
  const channel = `http-drop-raw-${process.pid}`;
  const req = request(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` } });
  req.on('error', () => {});
  req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } } }));
  await until('the raw wait-for process', () => waiters(channel).length === 1);
  req.destroy();
  await until('the raw wait-for process to go once its connection closed', () => waiters(channel).length === 0, 5000);
  assert.ok((await modern.ok('list_sessions')).sessions.length === 1, 'the server carries on');
});
