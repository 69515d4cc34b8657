/**
 * The julia profile's JSON-RPC rules, spoken raw over stdio (an SDK client never breaks them): a
 * legacy `initialize` for another version, a method the contract does not enable, a request id
 * reused while its request runs, a request naming an unsupported modern version in `_meta`, and
 * the inbound limits (2 MiB, depth 64, 16384 tokens, duplicate keys, UTF-8) answered -32700.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startRaw } from '../../fixture/raw-stdio.js';
import { privateTmux } from '../../fixture/tmux.js';

test('julia: JSON-RPC rules of the contract, raw over stdio', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const raw = startRaw(t, tmux.env, ['--profile', 'julia', '--tool', 'list_panes', '--tool', 'wait_for_text', '--timeout', '30']);
  const send = (message: object) => raw.send({ jsonrpc: '2.0', ...message });
  const clientInfo = { name: 'raw', version: '0' };

  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
  assert.deepEqual((await raw.answer(1)).error, {
    code: -32602,
    message: 'Legacy initialization requires an idle session and version 2025-11-25',
  });
  send({ id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
  assert.equal((await raw.answer(2)).result?.protocolVersion, '2025-11-25');
  send({ method: 'notifications/initialized' });

  send({ id: 3, method: 'resources/list' });
  assert.deepEqual((await raw.answer(3)).error, { code: -32601, message: 'Method is not enabled' });
  send({ id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  assert.deepEqual((await raw.answer(4)).error, {
    code: -32602,
    message: 'Unsupported modern protocol version',
    data: { supported: ['2026-07-28'], requested: '2099-01-01' },
  });

  // A wait that runs until cancelled holds id 5; reusing it meanwhile is refused, with id null.
  send({ id: 6, method: 'tools/call', params: { name: 'list_panes', arguments: {} } });
  const target = (await raw.answer(6)).result.structuredContent.panes[0].target;
  send({ id: 5, method: 'tools/call', params: { name: 'wait_for_text', arguments: { target, text: 'never-printed' } } });
  send({ id: 5, method: 'tools/list' });
  assert.deepEqual((await raw.answer(null)).error, { code: -32600, message: 'Duplicate active request ID' });
  send({ method: 'notifications/cancelled', params: { requestId: 5 } });
  send({ id: 5, method: 'tools/list' });
  const listed = await raw.answer(5);
  assert.deepEqual(
    listed.result.tools.map((tool: { name: string }) => tool.name),
    ['list_panes', 'wait_for_text'],
  );
});

/** `inner` wrapped in `levels` arrays: `[[...inner...]]`. */
const nested = (levels: number, inner = '0') => '['.repeat(levels) + inner + ']'.repeat(levels);

test('julia: inbound JSON limits of the contract are answered -32700 with id null, and reading goes on', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const raw = startRaw(t, tmux.env, ['--profile', 'julia']);
  await raw.initialize();
  const refused = { code: -32700, message: 'Invalid or over-limit JSON input' };
  const ping = (id: number, meta: string) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"_meta":{"x":${meta}}}}`;

  // Depth: the ping object, params and _meta are three levels, so 61 arrays make 64 and 62 make 65.
  raw.send(ping(1, nested(61)));
  assert.deepEqual((await raw.answer(1)).result, {});
  raw.send(ping(2, nested(62)));
  assert.deepEqual((await raw.answer(null)).error, refused);

  // Tokens: 13 besides the array's items (three objects, the array, eight strings and the id).
  const items = (n: number) => `[${Array(n).fill('0').join(',')}]`;
  raw.send(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"x":${items(16384 - 13)}}}}`);
  assert.deepEqual((await raw.answer(3)).result, {});
  raw.send(`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"x":${items(16384 - 12)}}}}`);
  assert.deepEqual((await raw.answer(null)).error, refused);

  // Size: 2 MiB is the most a line may take.
  const pad = (bytes: number) => {
    const frame = ping(5, '""');
    return ping(5, JSON.stringify('x'.repeat(bytes - Buffer.byteLength(frame))));
  };
  raw.send(pad(2 * 1024 * 1024));
  assert.deepEqual((await raw.answer(5)).result, {});
  raw.send(pad(2 * 1024 * 1024 + 1));
  assert.deepEqual((await raw.answer(null)).error, refused);

  // A key named twice, anywhere: JSON.parse would quietly keep the last one.
  raw.send('{"jsonrpc":"2.0","id":6,"id":7,"method":"ping"}');
  assert.deepEqual((await raw.answer(null)).error, refused);
  raw.send('{"jsonrpc":"2.0","id":8,"method":"ping","params":{"_meta":{"a":1,"b":{"a":1},"a":2}}}');
  assert.deepEqual((await raw.answer(null)).error, refused);
  // The same key in two objects is no duplicate.
  raw.send('{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"a":{"a":1},"b":[{"a":1},{"a":2}]}}}');
  assert.deepEqual((await raw.answer(9)).result, {});

  // Bytes that are not UTF-8, and text that is not JSON.
  raw.child.stdin.write(
    Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":10,"method":"ping","params":{"_meta":{"x":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}}\n'),
    ]),
  );
  assert.deepEqual((await raw.answer(null)).error, refused);
  raw.send('{"jsonrpc":"2.0","id":11,');
  assert.deepEqual((await raw.answer(null)).error, refused);

  raw.send({ jsonrpc: '2.0', id: 12, method: 'tools/list' });
  assert.deepEqual(
    (await raw.answer(12)).result.tools.map((tool: { name: string }) => tool.name),
    ['list_panes', 'capture_pane', 'send_keys'],
  );
});

test('julia: every outbound message is one line: CR and LF in results travel escaped', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const raw = startRaw(t, tmux.env, ['--profile', 'julia']);
  await raw.initialize();
  await tmux.typeAndWait(pane, "printf 'line-a\\r\\nline-b\\n'");
  raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_panes', arguments: {} } });
  const target = (await raw.answer(1)).result.structuredContent.panes[0].target;
  raw.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'capture_pane', arguments: { target } } });
  const text: string = (await raw.answer(2)).result.structuredContent.text;
  assert.match(text, /line-a\nline-b/);
  // The raw fixture parses line by line: had a raw CR or LF split a message, parsing would have failed.
  assert.deepEqual(
    raw.lines().filter((line) => /\r/.test(line)),
    [],
    'no line holds a raw CR',
  );
});
