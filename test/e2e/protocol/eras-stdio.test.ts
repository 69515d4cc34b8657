/**
 * Stdio in both protocol eras (2026-07-28 through server/discover, 2025-11-25 through initialize),
 * and end of input: calls already read are answered before the process exits, and nothing is left.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { checkEra, CLI, ERAS, startMcp } from '../../fixture/mcp.js';
import { clientsAfterExit, privateTmux } from '../../fixture/tmux.js';
import { waiters } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';
import { contractCheck } from '../../fixture/schema-check.js';

for (const [negotiation, era, version] of ERAS) {
  test(`stdio, ${negotiation} client: the ${version} era lists and calls tools`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ session: 'eras' });
    const mcp = await startMcp(t, { env: tmux.env, negotiation });
    await checkEra(mcp, { era, version, pane, session: 'eras' });
  });
}

test('stdin closed with calls in flight: each is answered (waits end at once with what they have, saying why), then the process exits', async (t) => {
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

  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  send({ method: 'notifications/initialized' });
  // A text wait, a channel wait (both far from their deadlines), one instant call.
  const channel = `eof-${process.pid}`;
  send({
    id: 2,
    method: 'tools/call',
    params: { name: 'wait_for_text', arguments: { paneId: pane, patterns: ['never-printed-here'], timeoutMs: 1500 } },
  });
  send({ id: 3, method: 'tools/call', params: { name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } } });
  send({ id: 4, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
  await seen(4);
  await until('the channel wait to be armed', () => waiters(channel).length === 1);
  server.stdin.end();

  assert.equal(await exited, 0);
  await allRead;
  const check = contractCheck('libtmux');
  const timedOut = answers.get(2)?.result?.structuredContent;
  assert.ok(timedOut, JSON.stringify(answers.get(2)));
  check('wait_for_text', answers.get(2).result);
  assert.equal(timedOut.matched, null, 'the text wait ended without a match');
  assert.match(JSON.stringify(answers.get(2).result.content), /shutting down/, 'and says why');
  const released = answers.get(3)?.result?.structuredContent;
  assert.ok(released, JSON.stringify(answers.get(3)));
  check('wait_for_channel', answers.get(3).result);
  assert.equal(released.released, false, 'the channel wait ended unreleased');
  assert.match(JSON.stringify(answers.get(3).result.content), /shutting down/);
  const listed = answers.get(4)?.result?.structuredContent;
  check('list_sessions', answers.get(4).result);
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
