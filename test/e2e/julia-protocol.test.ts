/**
 * The julia profile's JSON-RPC rules, spoken raw over stdio (an SDK client never breaks them): a
 * legacy `initialize` for another version, a method the contract does not enable, a request id
 * reused while its request runs, and a request naming an unsupported modern version in `_meta`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startRaw } from '../fixture/raw-stdio.js';
import { privateTmux } from '../fixture/tmux.js';

test('julia: JSON-RPC rules of the contract, raw over stdio', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const raw = startRaw(t, tmux.env, ['--profile', 'julia', '--tool', 'list_panes', '--tool', 'wait_for_text', '--timeout', '30']);
  const send = (message: object) => raw.send({ jsonrpc: '2.0', ...message });
  const clientInfo = { name: 'raw', version: '0' };

  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
  assert.deepEqual((await raw.answer(1)).error, { code: -32602, message: 'Legacy initialization requires an idle session and version 2025-11-25' });
  send({ id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
  assert.equal((await raw.answer(2)).result?.protocolVersion, '2025-11-25');
  send({ method: 'notifications/initialized' });

  send({ id: 3, method: 'resources/list' });
  assert.deepEqual((await raw.answer(3)).error, { code: -32601, message: 'Method is not enabled' });
  send({ id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  assert.deepEqual((await raw.answer(4)).error, { code: -32602, message: 'Unsupported modern protocol version' });

  // A wait that runs until cancelled holds id 5; reusing it meanwhile is refused, with id null.
  send({ id: 6, method: 'tools/call', params: { name: 'list_panes', arguments: {} } });
  const target = (await raw.answer(6)).result.structuredContent.panes[0].target;
  send({ id: 5, method: 'tools/call', params: { name: 'wait_for_text', arguments: { target, text: 'never-printed' } } });
  send({ id: 5, method: 'tools/list' });
  assert.deepEqual((await raw.answer(null)).error, { code: -32600, message: 'Duplicate active request ID' });
  send({ method: 'notifications/cancelled', params: { requestId: 5 } });
  send({ id: 5, method: 'tools/list' });
  const listed = await raw.answer(5);
  assert.deepEqual(listed.result.tools.map((tool: { name: string }) => tool.name), ['list_panes', 'wait_for_text']);
});
