/**
 * The julia profile's JSON-RPC rules, spoken raw over stdio (an SDK client never breaks them): a
 * legacy `initialize` for another version, a method the contract does not enable, a request id
 * reused while its request runs, and a request naming an unsupported modern version in `_meta`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../fixture/mcp.js';
import { privateTmux } from '../fixture/tmux.js';

interface Answer {
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

test('julia: JSON-RPC rules of the contract, raw over stdio', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = spawn(process.execPath, [CLI, '--profile', 'julia', '--tool', 'list_panes', '--tool', 'wait_for_text', '--timeout', '30'], {
    env: tmux.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.after(() => void server.kill('SIGKILL'));
  const answers: Answer[] = [];
  const waiting: Array<() => void> = [];
  let pending = '';
  server.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline; (newline = pending.indexOf('\n')) !== -1; ) {
      const message = JSON.parse(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if ('id' in message && ('result' in message || 'error' in message)) answers.push(message);
      for (const wake of waiting.splice(0)) wake();
    }
  });
  const send = (message: object) => server.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  /** The next answer not yet taken that `match` accepts. */
  const answer = async (match: (a: Answer) => boolean): Promise<Answer> => {
    for (;;) {
      const index = answers.findIndex(match);
      if (index !== -1) return answers.splice(index, 1)[0]!;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const byId = (id: number | string) => answer((a) => a.id === id);
  const clientInfo = { name: 'raw', version: '0' };

  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
  assert.deepEqual((await byId(1)).error, { code: -32602, message: 'Legacy initialization requires an idle session and version 2025-11-25' });
  send({ id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
  assert.equal((await byId(2)).result?.protocolVersion, '2025-11-25');
  send({ method: 'notifications/initialized' });

  send({ id: 3, method: 'resources/list' });
  assert.deepEqual((await byId(3)).error, { code: -32601, message: 'Method is not enabled' });
  send({ id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  assert.deepEqual((await byId(4)).error, { code: -32602, message: 'Unsupported modern protocol version' });

  // A wait that runs until cancelled holds id 5; reusing it meanwhile is refused, with id null.
  send({ id: 6, method: 'tools/call', params: { name: 'list_panes', arguments: {} } });
  const target = ((await byId(6)).result?.structuredContent as { panes: Array<{ target: object }> }).panes[0]!.target;
  send({ id: 5, method: 'tools/call', params: { name: 'wait_for_text', arguments: { target, text: 'never-printed' } } });
  send({ id: 5, method: 'tools/list' });
  assert.deepEqual((await answer((a) => a.id === null)).error, { code: -32600, message: 'Duplicate active request ID' });
  send({ method: 'notifications/cancelled', params: { requestId: 5 } });
  send({ id: 5, method: 'tools/list' });
  const listed = await byId(5);
  assert.deepEqual((listed.result?.tools as Array<{ name: string }>).map((tool) => tool.name), ['list_panes', 'wait_for_text']);
  server.stdin.end();
});
