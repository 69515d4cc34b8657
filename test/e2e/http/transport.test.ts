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
import { checkEra, CLI, ERAS, connectHttp } from '../../fixture/mcp.js';
import { post as rawPost, startHttp } from '../../fixture/http.js';
import { waiters } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';
import { clientsAfterExit, privateTmux, scrubbedEnv, stopTmuxServer } from '../../fixture/tmux.js';

const TOKEN = 'test-token-0123456789';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** One raw POST (the initialize handshake unless told otherwise). */
const post = (url: string, headers: Record<string, string>, body: unknown = INITIALIZE) => rawPost(url, headers, body);

for (const [negotiation, era, version] of ERAS) {
  test(`HTTP, ${negotiation} client: the ${version} era lists and calls tools`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ session: 'web' });
    const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const mcp = await connectHttp(t, { url: server.url, token: server.token, negotiation });
    await checkEra(mcp, { era, version, pane, session: 'web' });
    await mcp.close();
    assert.equal(await server.stop(), 0, server.stderr());
    assert.equal(await clientsAfterExit(tmux), '', 'the server left no tmux client behind');
  });
}

test('HTTP: without the right bearer token every request is refused with 401', async (t) => {
  const tmux = privateTmux(t);
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  for (const headers of [
    {} as Record<string, string>,
    { authorization: 'Bearer wrong' },
    { authorization: `Bearer ${TOKEN}x` },
    { authorization: `Basic ${TOKEN}` },
  ]) {
    const answer = await post(server.url, headers);
    assert.equal(answer.status, 401, JSON.stringify(headers));
    assert.match(String(answer.headers['www-authenticate']), /^Bearer /);
  }
  const modernProbe = {
    jsonrpc: '2.0',
    id: 2,
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
  };
  assert.equal((await post(server.url, {}, modernProbe)).status, 401);
  const ok = await post(server.url, { authorization: `Bearer ${TOKEN}` });
  assert.equal(ok.status, 200, ok.body);
  assert.match(ok.body, /"protocolVersion":"2025-11-25"/);
});

test('HTTP 2025-11-25: initialize opens a session; an unknown session is 404; DELETE ends one', async (t) => {
  const tmux = privateTmux(t);
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const opened = await post(server.url, auth);
  assert.equal(opened.status, 200, opened.body);
  const session = String(opened.headers['mcp-session-id'] ?? '');
  assert.match(session, /^[0-9a-f-]{36}$/);
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
  const inSession = { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await post(server.url, inSession, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const listed = await post(server.url, inSession, list);
  assert.equal(listed.status, 200);
  assert.match(listed.body, /"name":"list_sessions"/);
  // This era's code for a resource that does not exist (the 2026 era's is -32602).
  const missing = await post(server.url, inSession, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'tmux://nothing' } });
  assert.match(missing.body, /"code":-32002/, missing.body);
  assert.equal((await post(server.url, { ...inSession, 'mcp-session-id': 'not-a-session' }, list)).status, 404);
  // Without a session header, a request is still answered (statelessly), with this era's codes too.
  assert.equal((await post(server.url, auth, list)).status, 200);
  const missingStateless = await post(server.url, auth, {
    jsonrpc: '2.0',
    id: 4,
    method: 'resources/read',
    params: { uri: 'tmux://nothing' },
  });
  assert.match(missingStateless.body, /"code":-32002/, missingStateless.body);
  const ended = await new Promise<number>((resolve, reject) =>
    request(server.url, { method: 'DELETE', headers: inSession })
      .on('response', (res) => (res.resume(), resolve(res.statusCode!)))
      .on('error', reject)
      .end(),
  );
  assert.equal(ended, 200);
  assert.equal((await post(server.url, inSession, list)).status, 404);
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

test("HTTP: a body that is not JSON, or over 4 MiB with or without a length, gets the SDK's own answer; the server serves on", async (t) => {
  const tmux = privateTmux(t);
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const modern = { ...auth, 'mcp-protocol-version': '2026-07-28' };
  for (const headers of [auth, modern]) {
    const garbled = await post(server.url, headers, '{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(garbled.status, 400, garbled.body);
    assert.match(garbled.body, /"code":-32700/);
    const empty = await post(server.url, headers, '');
    assert.equal(empty.status, 400, empty.body);
  }
  const huge = Buffer.from(JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(4 * 1024 * 1024) } }));
  assert.equal(await oversized(server.url, auth, huge, 'declared'), 413);
  // Chunked, no Content-Length: the bound holds while the body streams in.
  assert.equal(await oversized(server.url, auth, huge, 'chunked'), 413);
  const ok = await post(server.url, auth);
  assert.equal(ok.status, 200, ok.body);
  assert.match(ok.body, /"protocolVersion":"2025-11-25"/);
});

/**
 * The status a POST of `body` gets, its length declared or sent chunked, from a client that stops
 * writing where the server has all it needs to refuse it: after the first piece when the length is
 * declared, after the whole body (never ended) when chunked. A server may answer an oversized body
 * before reading it all and close the connection; a client still writing then sees EPIPE, not the answer.
 */
function oversized(url: string, headers: Record<string, string>, body: Buffer, framing: 'declared' | 'chunked'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
        ...(framing === 'declared' ? { 'content-length': String(body.length) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => res.resume().on('end', () => (resolve(res.statusCode!), req.destroy())));
    req.on('error', reject);
    const send = async () => {
      const upTo = framing === 'declared' ? 65536 : body.length;
      for (let at = 0; at < upTo; at += 65536) {
        if (!req.write(body.subarray(at, at + 65536))) await new Promise((drained) => req.once('drain', drained));
      }
    };
    send().catch(reject);
  });
}

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
    spawnSync(process.execPath, [CLI, ...args], {
      env: scrubbedEnv({ LIBTMUX_SOCKET_NAME: 'tmux-mcp-http-flags', ...env }),
      encoding: 'utf8',
      timeout: 10_000,
    });
  const open = run(['--http', '0.0.0.0:0']);
  assert.equal(open.status, 2);
  assert.match(open.stderr, /listens beyond this machine: choose a token \(TMUX_MCP_TOKEN or --token-file\)/);
  assert.match(run(['--http', 'nope']).stderr, /--http takes \[HOST:\]PORT/);
  assert.match(run(['--http', '70000']).stderr, /--http takes \[HOST:\]PORT/);
  assert.match(run(['--token-file', '/x']).stderr, /apply to --http and --view only/);
  assert.match(run(['--http', '0', '--token-file', '/nonexistent/token']).stderr, /--token-file \/nonexistent\/token: no such file/);
  assert.match(run(['--http', '0', '--token-file', '/x'], { TMUX_MCP_TOKEN: 'a' }).stderr, /both set/);
});

test('HTTP: one engine serves every request; a cancelled call or a dropped request stops its wait (both eras)', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  const modern = await connectHttp(t, { url: server.url, token: TOKEN, negotiation: 'auto' });
  const legacy = await connectHttp(t, { url: server.url, token: TOKEN, negotiation: 'legacy' });
  // One tmux control client however many clients and requests there are: one engine.
  await modern.ok('list_sessions');
  await legacy.ok('list_sessions');
  assert.equal((await tmux.tmux('list-clients', '-F', '#{client_control_mode}')).trim(), '1');

  // 2026-07-28: the SDK client cancels a call by closing its request; 2025-11-25: by notifications/cancelled
  // in its session (Mcp-Session-Id), which reaches the call on the server it names.
  for (const [name, mcp] of [
    ['modern', modern],
    ['legacy', legacy],
  ] as const) {
    const channel = `http-cancel-${name}-${process.pid}`;
    const controller = new AbortController();
    const call = mcp.client.callTool(
      { name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } },
      { signal: controller.signal },
    );
    await until(`the ${name} wait-for process`, () => waiters(channel).length === 1);
    controller.abort();
    await assert.rejects(call);
    await until(`the ${name} wait-for process to go once the call is cancelled`, () => waiters(channel).length === 0, 5000);
  }

  // 2025-11-25 without a session: a POST whose connection is simply closed, with no cancellation message.
  const channel = `http-drop-raw-${process.pid}`;
  const req = request(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` },
  });
  req.on('error', () => {});
  req.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } },
    }),
  );
  await until('the raw wait-for process', () => waiters(channel).length === 1);
  req.destroy();
  await until('the raw wait-for process to go once its connection closed', () => waiters(channel).length === 0, 5000);
  assert.ok((await modern.ok('list_sessions')).sessions.length === 1, 'the server carries on');
});

for (const [negotiation, , version] of ERAS) {
  test(`HTTP ${version}: a profile's request capacity holds across HTTP requests (julia, --workers 1 --capacity 2)`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const server = await startHttp(t, {
      env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN },
      args: ['--profile', 'julia', '--workers', '1', '--capacity', '2', '--timeout', '30'],
    });
    const mcp = await connectHttp(t, { url: server.url, token: TOKEN, negotiation });
    const { panes } = await mcp.ok('list_panes', { limit: 128 });
    const { target } = panes.find((row: { target: { paneId: string } }) => row.target.paneId === pane);
    const resume = await stopTmuxServer(t, tmux);
    // Three calls that hang on the stopped tmux server: one runs, one waits, whichever comes third is refused.
    const calls = [0, 1, 2].map((i) =>
      mcp.client.callTool({ name: 'capture_pane', arguments: { target } }).then(
        (result) => ({ i, result }),
        (error: { code?: number; message?: string }) => ({ i, error }),
      ),
    );
    const first = await Promise.race(calls);
    assert.equal('error' in first && first.error.code, -32000, JSON.stringify(first));
    assert.match(String('error' in first && first.error.message), /Request capacity exhausted/);
    resume();
    const rest = await Promise.all(calls.filter((_, i) => i !== first.i));
    for (const settled of rest) assert.ok('result' in settled && !settled.result.isError, JSON.stringify(settled));
  });
}
