/**
 * Requests the SDK cannot take are answered with a JSON-RPC error, never dropped: params that are an
 * array or a string, ids and methods of the wrong type, unparseable JSON, and non-object
 * `arguments` (which get a one-line reason, not the validator's dump). The server keeps serving.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startRaw } from '../../fixture/raw-stdio.js';
import { privateTmux } from '../../fixture/tmux.js';

test('malformed requests over stdio each get a JSON-RPC error answer, and serving goes on', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const raw = startRaw(t, tmux.env);
  await raw.initialize();

  const cases: Array<[unknown, number, RegExp]> = [
    [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: ['list_sessions', {}] },
      -32602,
      /tools\/call: params must be an object.*array/,
    ],
    [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: 'list_sessions' }, -32600, /params must be an object.*string/],
    [{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: [] }, -32602, /tools\/list: params/],
    [{ jsonrpc: '2.0', id: 4, method: 'ping', params: 'x' }, -32600, /ping: params/],
    [{ jsonrpc: '2.0', id: 5, method: 'ping', params: 7 }, -32600, /a number/],
    [{ jsonrpc: '2.0', id: 6, method: 42 }, -32600, /method must be a string/],
    [{ jsonrpc: '1.0', id: 7, method: 'ping' }, -32600, /jsonrpc must be "2.0"/],
  ];
  for (const [request] of cases) raw.send(request);
  for (const [request, code, message] of cases) {
    const answer = await raw.answer((request as { id: number }).id);
    assert.equal(answer.error?.code, code, JSON.stringify(answer));
    assert.match(answer.error.message, message);
  }

  for (const [id, args, kind] of [
    [10, [1, 2], 'array'],
    [11, 'x', 'string'],
  ] as const) {
    raw.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_sessions', arguments: args } });
    const answer = await raw.answer(id);
    assert.equal(answer.error?.code, -32602);
    assert.equal(answer.error.message, `Invalid tools/call request: params.arguments: expected record, received ${kind}`);
  }

  raw.send('{"jsonrpc":"2.0","id":20,"method":"ping"'); // cut short: not JSON
  const parseError = await raw.answer(null);
  assert.equal(parseError.error.code, -32700);
  raw.send({ jsonrpc: '2.0', id: { nested: true }, method: 'ping' });
  assert.match((await raw.answer(null)).error.message, /id must be a string or an integer/);

  raw.send({ jsonrpc: '2.0', id: 30, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
  const listed = await raw.answer(30);
  assert.equal(listed.result?.structuredContent?.sessions?.length, 1, JSON.stringify(listed));
  raw.child.stdin.end();
  assert.equal(await raw.exited, 0);
});

test('a request line longer than the read limit is answered and skipped; the next one is served', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const raw = startRaw(t, tmux.env);
  await raw.initialize();
  raw.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'list_sessions', arguments: { padding: 'x'.repeat(17 * 1024 * 1024) } },
  });
  raw.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
  const tooLong = await raw.answer(null);
  assert.equal(tooLong.error.code, -32600);
  assert.match(tooLong.error.message, /longer than \d+ bytes/);
  assert.deepEqual((await raw.answer(2)).result, {});
  raw.child.stdin.end();
  assert.equal(await raw.exited, 0);
});
