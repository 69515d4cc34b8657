/**
 * Stdio in both protocol eras (2026-07-28 through server/discover, 2025-11-25 through initialize),
 * and end of input: calls already read are answered before the process exits, and nothing is left.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLI, startMcp } from '../fixture/mcp.js';
import { clientsAfterExit, privateTmux } from '../fixture/tmux.js';
import { compileValidator } from '../../src/mcp/validation.js';

for (const [negotiation, era, version] of [
  ['auto', 'modern', '2026-07-28'],
  ['legacy', 'legacy', '2025-11-25'],
] as const) {
  test(`stdio, ${negotiation} client: the ${version} era lists and calls tools`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ session: 'eras' });
    const mcp = await startMcp(t, { env: tmux.env, negotiation });
    assert.equal(mcp.client.getProtocolEra(), era);
    assert.equal(mcp.client.getNegotiatedProtocolVersion(), version);
    if (era === 'modern') {
      const discovered = mcp.client.getDiscoverResult();
      assert.ok(discovered?.supportedVersions.includes('2026-07-28'), JSON.stringify(discovered));
      assert.ok(discovered?.capabilities.tools, 'server/discover advertises tools');
    }
    const { tools } = await mcp.client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'wait_for_text'));
    const { sessions } = await mcp.ok('list_sessions');
    assert.deepEqual(sessions.map((s: { name: string }) => s.name), ['eras']);
    await tmux.typeAndWait(pane, 'echo era-$((6*7))');
    const capture = await mcp.ok('capture_pane', { paneId: pane });
    assert.ok(capture.lines.includes('era-42'), capture.lines.join('\n'));
    assert.match(await mcp.fails('capture_pane', { paneId: '%999' }), /no pane %999/);
  });
}

const contract = JSON.parse(readFileSync(new URL('../contracts/libtmux.json', import.meta.url), 'utf8')) as {
  tools: Array<{ name: string; outputSchema?: object }>;
};
const outputOf = (name: string) => compileValidator(contract.tools.find((tool) => tool.name === name)!.outputSchema as never, `${name} result`);

test('stdin closed with calls in flight: each is answered, waits run to their own end, then the process exits', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const server = spawn(process.execPath, [CLI], { env: tmux.env, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => void server.kill('SIGKILL'));
  const answers = new Map<number, any>();
  let pending = '';
  const allRead = new Promise<void>((resolve) => server.stdout.on('end', resolve));
  const seen = (id: number) =>
    new Promise<void>((resolve) => {
      const check = () => (answers.has(id) ? resolve() : server.stdout.once('data', () => setImmediate(check)));
      check();
    });
  server.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const message = JSON.parse(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if (message.id !== undefined) answers.set(message.id, message);
    }
  });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  const send = (message: object) => server.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');

  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
  send({ method: 'notifications/initialized' });
  // One wait that only its deadline ends, one that output printed after end of input ends, one instant call.
  send({ id: 2, method: 'tools/call', params: { name: 'wait_for_text', arguments: { paneId: pane, patterns: ['never-printed-here'], timeoutMs: 1500 } } });
  send({ id: 3, method: 'tools/call', params: { name: 'wait_for_text', arguments: { paneId: pane, patterns: ['after-eof-\\d+'], regex: true, timeoutMs: 60_000 } } });
  send({ id: 4, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
  await seen(4); // every request above has been read once a later one is answered
  server.stdin.end();
  await tmux.typeAndWait(pane, 'echo after-eof-$((40+2))');

  assert.equal(await exited, 0);
  await allRead;
  const validate = { wait: outputOf('wait_for_text'), list: outputOf('list_sessions') };
  const timedOut = answers.get(2)?.result?.structuredContent;
  assert.ok(timedOut, JSON.stringify(answers.get(2)));
  assert.equal(validate.wait(timedOut), undefined);
  assert.equal(timedOut.matched, null, 'the first wait ran to its own deadline');
  const matched = answers.get(3)?.result?.structuredContent;
  assert.ok(matched, JSON.stringify(answers.get(3)));
  assert.equal(validate.wait(matched), undefined);
  assert.equal(matched.matchedIndex, 0, 'the second wait matched output printed after stdin closed');
  assert.ok(matched.tail.includes('after-eof-42'), matched.tail.join('\n'));
  const listed = answers.get(4)?.result?.structuredContent;
  assert.equal(validate.list(listed), undefined);
  assert.equal(listed.sessions.length, 1);
  assert.equal(await clientsAfterExit(tmux), '', 'no tmux control client left behind');
});

test('stdin closed with nothing in flight: the process exits at once, leaving no tmux client', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = spawn(process.execPath, [CLI], { env: tmux.env, stdio: ['pipe', 'ignore', 'pipe'] });
  t.after(() => void server.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  server.stdin.end();
  assert.equal(await exited, 0);
  assert.equal(await clientsAfterExit(tmux), '');
});
