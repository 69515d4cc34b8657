/**
 * The julia contract's JSON-RPC rules over a real HTTP listener (`--http`), spoken raw since an SDK
 * client never breaks them: the inbound limits (-32700), methods the contract does not enable
 * (-32601), the protocol versions (-32602) and, inside one 2025 session, a request id reused while
 * its request runs (-32600); and a server stopped with calls in flight answers them (cancelled, closed).
 * Request capacity over HTTP: test/e2e/http/transport.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonRpcMessages, openPost, post, startHttp } from '../../fixture/http.js';
import { connectHttp, ERAS } from '../../fixture/mcp.js';
import { privateTmux } from '../../fixture/tmux.js';
import { contractCheck } from '../../fixture/schema-check.js';

const TOKEN = 'julia-http-token-0123456789';
const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};
const REFUSED = { code: -32700, message: 'Invalid or over-limit JSON input' };

test('julia over HTTP: inbound limits are -32700, and the method and version rules hold as on stdio', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--profile', 'julia'] });
  const headers = { authorization: `Bearer ${TOKEN}`, 'mcp-protocol-version': '2026-07-28' };
  // A 2026 request names its method in a header too.
  const answer = async (body: unknown, method = 'tools/list', version = '2026-07-28') => {
    const reply = await post(server.url, { ...headers, 'mcp-protocol-version': version, 'mcp-method': method }, body);
    return { status: reply.status, messages: jsonRpcMessages(reply.body) };
  };
  const meta = JSON.stringify(MODERN).slice(1, -1);
  const list = (id: number, x: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":{${meta},"x":${x}}}}`;

  const fine = await answer(list(1, '0'));
  assert.equal(fine.status, 200, JSON.stringify(fine));
  assert.deepEqual(
    fine.messages[0].result.tools.map((tool: { name: string }) => tool.name),
    ['list_panes', 'capture_pane', 'send_keys'],
  );

  // (Invalid UTF-8 is not among them: the SDK's Node adapter decodes a body leniently, to U+FFFD, before any gate sees it.)
  const refusedBodies: Array<[string, string]> = [
    ['over 2 MiB', list(2, JSON.stringify('x'.repeat(2 * 1024 * 1024)))],
    ['nested 65 deep', list(3, '['.repeat(62) + ']'.repeat(62))],
    ['over 16384 tokens', list(4, `[${Array(16384).fill('0').join(',')}]`)],
    ['a duplicate key', '{"jsonrpc":"2.0","id":5,"method":"tools/list","method":"tools/list"}'],
    ['not JSON', '{"jsonrpc":"2.0","id":7,'],
  ];
  for (const [what, body] of refusedBodies) {
    const refused = await answer(body);
    assert.deepEqual([what, refused.status, refused.messages[0]?.id, refused.messages[0]?.error], [what, 400, null, REFUSED]);
  }

  const notEnabled = await answer({ jsonrpc: '2.0', id: 8, method: 'resources/list', params: { _meta: MODERN } }, 'resources/list');
  assert.deepEqual(notEnabled.messages[0], { jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'Method is not enabled' } });
  assert.equal(notEnabled.status, 404, 'over HTTP in 2026-07-28, a method not served is 404');
  const wrongModern = await answer(
    {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/list',
      params: { _meta: { ...MODERN, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    },
    'tools/list',
    '2099-01-01',
  );
  // The contract's code and message, with what 2026-07-28 asks of an unsupported version: HTTP 400 and the versions served.
  assert.equal(wrongModern.status, 400);
  assert.deepEqual(wrongModern.messages[0], {
    jsonrpc: '2.0',
    id: 9,
    error: { code: -32602, message: 'Unsupported modern protocol version', data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
  });
  // A _meta version that the header contradicts is 2026-07-28's header mismatch, answered before the version rule.
  const mismatch = await answer({
    jsonrpc: '2.0',
    id: 11,
    method: 'tools/list',
    params: { _meta: { ...MODERN, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
  });
  assert.deepEqual([mismatch.status, mismatch.messages[0]?.id, mismatch.messages[0]?.error?.code], [400, 11, -32020]);
  const wrongLegacy = await answer(
    {
      jsonrpc: '2.0',
      id: 10,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    },
    'initialize',
  );
  assert.deepEqual(wrongLegacy.messages[0], {
    jsonrpc: '2.0',
    id: 10,
    error: { code: -32602, message: 'Legacy initialization requires an idle session and version 2025-11-25' },
  });
});

test('julia over HTTP: in a 2025 session, an id still running is refused -32600 until it is cancelled', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = await startHttp(t, {
    env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN },
    args: ['--profile', 'julia', '--tool', 'list_panes', '--tool', 'wait_for_text', '--timeout', '30'],
  });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const opened = await post(server.url, auth, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  assert.equal(opened.status, 200, opened.body);
  const session = { ...auth, 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await post(server.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const listed = jsonRpcMessages(
    (await post(server.url, session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_panes', arguments: {} } })).body,
  );
  contractCheck('julia')('list_panes', listed[0].result);
  const target = listed[0].result.structuredContent.panes[0].target;

  // The wait runs until cancelled; once its answer stream has opened (its first progress), id 3 is taken.
  const waiting = await openPost(server.url, session, {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'wait_for_text', arguments: { target, text: 'never-printed' }, _meta: { progressToken: 'p' } },
  });
  assert.equal(waiting.status, 200);
  const duplicate = await post(server.url, session, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
  assert.deepEqual(
    [duplicate.status, jsonRpcMessages(duplicate.body)[0]],
    [400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Duplicate active request ID' } }],
  );
  // Another session, or a request without one, may use the same id.
  assert.equal(
    jsonRpcMessages(
      (
        await post(
          server.url,
          { ...auth, 'mcp-protocol-version': '2025-11-25' },
          { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
        )
      ).body,
    )[0].id,
    3,
  );

  assert.equal(
    (await post(server.url, session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } })).status,
    202,
  );
  const reused = jsonRpcMessages((await post(server.url, session, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} })).body);
  assert.deepEqual(
    reused[0].result.tools.map((tool: { name: string }) => tool.name),
    ['list_panes', 'wait_for_text'],
  );
  waiting.destroy();
});

for (const [negotiation, , version] of ERAS) {
  test(`julia over HTTP ${version}: stopping the server answers the call running (cancelled) and the one queued (closed)`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const server = await startHttp(t, {
      env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN },
      args: [
        '--profile',
        'julia',
        '--tool',
        'list_panes',
        '--tool',
        'wait_for_text',
        '--workers',
        '1',
        '--capacity',
        '2',
        '--timeout',
        '30',
      ],
    });
    const mcp = await connectHttp(t, { url: server.url, token: TOKEN, negotiation });
    const { panes } = await mcp.ok('list_panes', { limit: 128 });
    const { target } = panes.find((row: { target: { paneId: string } }) => row.target.paneId === pane);
    // Three waits that never match: one runs, one waits for the only worker, and whichever comes third is refused.
    let watching!: () => void;
    const running = new Promise<void>((resolve) => (watching = resolve));
    const calls = [0, 1, 2].map((i) =>
      mcp.call('wait_for_text', { target, text: 'never-printed' }, { onprogress: () => watching() }).then(
        (result) => ({ i, code: (result.structuredContent as { error: { code: string } }).error.code }),
        (error: { code?: number }) => ({ i, code: error.code }),
      ),
    );
    const refused = await Promise.race(calls);
    assert.equal(refused.code, -32000);
    // The one that runs says so with its first progress.
    await running;
    server.child.kill('SIGTERM');
    const codes = (await Promise.all(calls.filter((_, i) => i !== refused.i))).map((settled) => settled.code);
    assert.deepEqual(codes.sort(), ['cancelled', 'closed']);
    assert.equal(await server.stop(), 0, server.stderr());
  });
}
