/**
 * `tmux-mcp --http`, 2025-11-25 sessions on the SDK's stateful transport (src/mcp/http/sessions.ts):
 * each request of a session is answered with the status, headers and JSON-RPC error the SDK's
 * WebStandardStreamableHTTPServerTransport gives, from the handshake to DELETE; a call in a session
 * ends when notifications/cancelled names it or the session ends, and goes on when its client drops it.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { jsonRpcMessages, post, startHttp } from '../../fixture/http.js';
import { waiters } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';
import { privateTmux } from '../../fixture/tmux.js';

const TOKEN = 'test-token-sessions';
const auth = { authorization: `Bearer ${TOKEN}` };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** A request of any method, its whole answer awaited. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const error = (answer: { body: string }) =>
  JSON.parse(answer.body) as { jsonrpc: string; id: null; error: { code: number; message: string } };

test('HTTP 2025-11-25: a session answers each request as the SDK transport does, from initialize to DELETE', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  const opened = await post(server.url, auth, INITIALIZE);
  assert.equal(opened.status, 200, opened.body);
  assert.equal(opened.headers['content-type'], 'text/event-stream');
  assert.equal(opened.headers['cache-control'], 'no-cache, no-transform');
  const id = String(opened.headers['mcp-session-id']);
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.equal(jsonRpcMessages(opened.body)[0].result.protocolVersion, '2025-11-25');
  const session = { ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await post(server.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);

  // A call, a slower one, and a batch: one event for each request, the batch's in one answer.
  const listed = await post(server.url, session, {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'list_sessions', arguments: {} },
  });
  assert.equal(listed.headers['mcp-session-id'], id);
  assert.deepEqual(
    jsonRpcMessages(listed.body).map((message) => [message.id, message.result?.isError]),
    [[2, undefined]],
  );
  const waited = await post(server.url, session, {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'wait_for_channel', arguments: { channel: `never-${process.pid}`, timeoutMs: 300 } },
  });
  assert.equal(jsonRpcMessages(waited.body)[0].id, 3);
  const batch = await post(server.url, session, [
    { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} },
    { jsonrpc: '2.0', id: 5, method: 'ping' },
  ]);
  assert.deepEqual(
    jsonRpcMessages(batch.body).map((message) => message.id),
    [4, 5],
  );

  // The SDK transport's refusals, each with its status and JSON-RPC error.
  const put = await send(server.url, 'PUT', session, '{}');
  assert.deepEqual(
    [put.status, put.headers['allow'], error(put).error],
    [405, 'GET, POST, DELETE', { code: -32000, message: 'Method not allowed.' }],
  );
  assert.equal((await send(server.url, 'GET', session)).status, 406);
  assert.equal((await post(server.url, { ...session, accept: 'application/json' }, { jsonrpc: '2.0', id: 6, method: 'ping' })).status, 406);
  assert.equal(
    (await post(server.url, { ...session, 'content-type': 'text/plain' }, { jsonrpc: '2.0', id: 6, method: 'ping' })).status,
    415,
  );
  const unparsed = await post(server.url, session, '{nope');
  assert.deepEqual([unparsed.status, error(unparsed).error], [400, { code: -32700, message: 'Parse error: Invalid JSON' }]);
  const tooMany = await post(
    server.url,
    session,
    Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: 100 + i, method: 'ping' })),
  );
  assert.deepEqual([tooMany.status, error(tooMany).error.code], [400, -32600]);
  const version = await post(server.url, { ...session, 'mcp-protocol-version': '1999-01-01' }, { jsonrpc: '2.0', id: 7, method: 'ping' });
  assert.equal(version.status, 400);
  assert.match(error(version).error.message, /^Bad Request: Unsupported protocol version: 1999-01-01/);
  const again = await post(server.url, session, INITIALIZE);
  assert.deepEqual([again.status, error(again).error], [400, { code: -32600, message: 'Invalid Request: Server already initialized' }]);

  // One GET stream at a time.
  const stream = await new Promise<{ status: number; type: unknown; close(): void }>((resolve, reject) => {
    const req = request(server.url, { method: 'GET', headers: { ...session, accept: 'text/event-stream' } }, (res) =>
      resolve({ status: res.statusCode!, type: res.headers['content-type'], close: () => req.destroy() }),
    );
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual([stream.status, stream.type], [200, 'text/event-stream']);
  assert.equal((await send(server.url, 'GET', { ...session, accept: 'text/event-stream' })).status, 409);
  stream.close();

  // A request dropped before its answer leaves the session serving.
  const channel = `http-session-drop-${process.pid}`;
  const dropped = request(server.url, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  dropped.on('error', () => {});
  dropped.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'wait_for_channel', arguments: { channel, timeoutMs: 2000 } },
    }),
  );
  await until('the wait-for process', () => waiters(channel).length === 1);
  dropped.destroy();
  assert.equal(jsonRpcMessages((await post(server.url, session, { jsonrpc: '2.0', id: 9, method: 'ping' })).body)[0].id, 9);

  assert.equal((await send(server.url, 'DELETE', session)).status, 200);
  const gone = await post(server.url, session, { jsonrpc: '2.0', id: 10, method: 'ping' });
  assert.deepEqual([gone.status, error(gone).error.code], [404, -32001]);
});

/** A wait of `channel` sent in a session as request `id`: the request (to drop it) and its whole answer once it ends. */
function startWait(url: string, session: Record<string, string>, id: number, channel: string): { drop(): void; answer: Promise<string> } {
  const req = request(url, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  const answer = new Promise<string>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('close', () => resolve(text));
    });
    req.on('error', () => resolve(''));
  });
  req.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } },
    }),
  );
  return { drop: () => req.destroy(), answer };
}

test('HTTP 2025-11-25: a call in a session ends when notifications/cancelled names it or its session ends, and goes on when its client drops it', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
  const opened = await post(server.url, auth, INITIALIZE);
  const session = { ...auth, 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await post(server.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);

  // Cancelled: the wait's tmux process goes, no answer is written, and the session answers its next call.
  const channel = `session-cancel-${process.pid}`;
  let answered = false;
  const wait = startWait(server.url, session, 41, channel);
  void wait.answer.then(() => (answered = true));
  await until('the wait-for process', () => waiters(channel).length === 1);
  assert.equal(
    (await post(server.url, session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 41, reason: 'enough' } }))
      .status,
    202,
  );
  await until('the wait-for process to go once cancelled', () => waiters(channel).length === 0, 10_000);
  const next = await post(server.url, session, {
    jsonrpc: '2.0',
    id: 42,
    method: 'tools/call',
    params: { name: 'list_sessions', arguments: {} },
  });
  assert.equal(next.status, 200);
  assert.match(next.body, /^event: message\ndata: \{"result":/);
  assert.equal(answered, false, 'a cancelled call is not answered');
  wait.drop();

  // Dropped: in 2025-11-25 a disconnection is not a cancellation, so the wait goes on until it ends.
  const channel2 = `session-drop-${process.pid}`;
  const dropped = startWait(server.url, session, 43, channel2);
  await until('the dropped wait-for process', () => waiters(channel2).length === 1);
  dropped.drop();
  const after = await post(server.url, session, {
    jsonrpc: '2.0',
    id: 44,
    method: 'tools/call',
    params: { name: 'list_sessions', arguments: {} },
  });
  assert.match(after.body, /^event: message\ndata: \{"result":/);
  assert.equal(waiters(channel2).length, 1, "the dropped request's wait goes on");
  await tmux.tmux('wait-for', '-S', channel2);
  await until('the dropped wait to end once its channel is signalled', () => waiters(channel2).length === 0, 10_000);

  // The session ended (DELETE): the wait ends, and its POST ends without an answer.
  const channel3 = `session-delete-${process.pid}`;
  const ended = startWait(server.url, session, 45, channel3);
  await until('the wait-for process before DELETE', () => waiters(channel3).length === 1);
  assert.equal((await send(server.url, 'DELETE', session)).status, 200);
  assert.equal(await ended.answer, '', "the ended session's POST closes empty");
  await until('the wait-for process to go once its session ended', () => waiters(channel3).length === 0, 10_000);
});
