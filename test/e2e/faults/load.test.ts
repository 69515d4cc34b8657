/**
 * Faults of load and of panes, survived: a pane dying under a wait and under run_shell_command, a
 * 100 MB flood, a 10 MB line, cancelled calls, and 64 calls at once. Each ends in answers that
 * match their schemas and stay under the cap, within generous deadlines, and leaves nothing running.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { clientsAfterExit, privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { MAX_RESPONSE_BYTES } from '../../../src/mcp/tools/results.js';
import { waiters } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const foreground = async (tmux: PrivateTmux, pane: string) =>
  (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim();

test('a pane dying under wait_for_text and under run_shell_command: each call ends and says so', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'keep' });
  const first = await tmux.newSession('dies-in-wait');
  const second = await tmux.newSession('dies-in-run');
  const mcp = await startMcp(t, { env: tmux.env });

  const waiting = mcp.call('wait_for_text', { paneId: first, patterns: ['never-printed'], timeoutMs: 60_000 });
  const running = mcp.call('run_shell_command', { paneId: second, command: 'sleep 50', timeoutMs: 60_000 });
  // Killed once each call is under way: the wait watches its pane through a control client attached to that
  // pane's session, so the pane dies under the wait only once that client is there.
  await until(
    'the wait to start watching its pane',
    async () => (await tmux.tmux('list-clients', '-F', '#{session_name}')).split('\n').includes('dies-in-wait'),
    30_000,
  );
  await tmux.tmux('kill-pane', '-t', first);
  await until('the command to start', async () => (await foreground(tmux, second)) === 'sleep', 30_000);
  await tmux.tmux('kill-pane', '-t', second);

  const waited = await waiting;
  assert.match(waited.content.map((c) => c.text).join('\n'), /went away|dead|gone|closed/i);
  const ran = await running;
  assert.equal(ran.isError, true, `a command whose pane died did not finish: ${JSON.stringify(ran.structuredContent)}`);
  assert.match(ran.content.map((c) => c.text).join('\n'), /went away|exited|dead/i);
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '');
});

test('a 100 MB flood: run_shell_command sees its end, answers under the cap, and the server stays responsive', {
  timeout: 600_000,
}, async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  // Past the SDK's default 60 s request timeout: tmux takes a while to draw 100 MB on a busy machine.
  const answer = await mcp.client.callTool(
    {
      name: 'run_shell_command',
      arguments: {
        paneId: pane,
        command: "head -c 100000000 /dev/zero | tr '\\0' 'x' | fold -w 200; echo; echo flood-done",
        timeoutMs: 115_000,
        maxLines: 5,
      },
    },
    { timeout: 300_000 },
  );
  assert.ok(!answer.isError, JSON.stringify(answer.content));
  const flooded = answer.structuredContent as any;
  assert.equal(flooded.timedOut, false, 'the flood ended within the wait');
  assert.equal(flooded.exitStatus, 0);
  assert.equal(flooded.output.at(-1), 'flood-done');
  assert.ok(bytesOf(flooded) < MAX_RESPONSE_BYTES);
  const capture = await mcp.ok('capture_pane', { paneId: pane, start: -2000 });
  assert.ok(bytesOf(capture) < MAX_RESPONSE_BYTES);
  assert.equal((await mcp.ok('list_panes')).panes.length, 1);
  assert.equal(await foreground(tmux, pane), 'sh', 'nothing of the flood is left running');
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '');
});

test("a 10 MB line: captures stay under the cap, and joinWrapped keeps the line's tail", { timeout: 300_000 }, async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  const ran = await mcp.ok('run_shell_command', {
    paneId: pane,
    command: "head -c 10000000 /dev/zero | tr '\\0' 'y'; echo line-end",
    timeoutMs: 110_000,
    maxLines: 3,
  });
  assert.equal(ran.exitStatus, 0);
  assert.ok(bytesOf(ran) < MAX_RESPONSE_BYTES);
  const plain = await mcp.ok('capture_pane', { paneId: pane, start: -100000 });
  assert.ok(bytesOf(plain) < MAX_RESPONSE_BYTES);
  const joined = await mcp.ok('capture_pane', { paneId: pane, start: -100000, joinWrapped: true });
  assert.ok(bytesOf(joined) < MAX_RESPONSE_BYTES);
  const row = joined.lines.find((line: string) => line.endsWith('yyyyline-end'));
  assert.ok(row, `the joined 10 MB row is kept by its tail: ${joined.lines.map((l: string) => l.slice(-30)).join(' | ')}`);
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '');
});

test('cancelled calls are answered and leave no watch or waiter behind; the server serves on', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  for (const [tool, args] of [
    ['wait_for_text', { paneId: pane, patterns: ['never'], timeoutMs: 60_000 }],
    ['wait_for_channel', { channel: 'never-signalled', timeoutMs: 60_000 }],
    ['capture_since', { paneId: pane, waitMs: 10_000 }],
  ] as const) {
    const controller = new AbortController();
    const call = mcp.client.callTool({ name: tool, arguments: args }, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(call, tool);
  }
  // Whatever each cancelled call started ends: no channel waiter, only the command client attached.
  await until(
    'every cancelled call to leave no waiter or watch behind',
    async () =>
      waiters('never-signalled').length === 0 && (await tmux.tmux('list-clients', '-F', '#{client_pid}')).trim().split('\n').length <= 1,
    20_000,
  );
  await tmux.typeAndWait(pane, 'echo after-$((40+2))');
  assert.ok((await mcp.ok('capture_pane', { paneId: pane })).lines.includes('after-42'));
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '');
});

test('64 calls at once: every one answered, valid, under the cap', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  const calls: Array<[string, Record<string, unknown>]> = [];
  for (let i = 0; i < 64; i++) {
    calls.push(
      [
        ['list_sessions', {}],
        ['list_panes', {}],
        ['capture_pane', { paneId: pane }],
        ['get_pane_info', { paneId: pane }],
        ['wait_for_text', { paneId: pane, patterns: [`never-${i}`], timeoutMs: 500 }],
        ['search_panes', { pattern: 'x' }],
        ['capture_pane', { paneId: '%999' }],
        ['show_option', { name: 'history-limit' }],
      ][i % 8] as [string, Record<string, unknown>],
    );
  }
  const results = await Promise.all(calls.map(([tool, args]) => mcp.call(tool, args)));
  results.forEach((result, i) => {
    assert.ok(bytesOf(result) < MAX_RESPONSE_BYTES);
    assert.equal(
      result.isError ?? false,
      calls[i]![1].paneId === '%999',
      `${calls[i]![0]}: ${result.content
        .map((c) => c.text)
        .join('\n')
        .slice(0, 200)}`,
    );
  });
  await mcp.close();
  assert.equal(await clientsAfterExit(tmux), '');
});
