/**
 * Many agents on one `tmux-mcp --http`: fifty clients at once, each on its own connection, calling
 * list_sessions, capture_pane and list_panes in turn, in both protocol eras. Every answer is the
 * one a call made alone returns (and what tmux itself says), however the server shares the work
 * among them; every 2025 session is closed by its client; nothing is left running after the server
 * stops. (The timing of the same load is in `npm run bench -- --only http`.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHttp } from '../../fixture/http.js';
import { httpLoad, type LoadEra } from '../../fixture/http-load.js';
import { until } from '../../fixture/until.js';
import { contractCheck, type ToolResult } from '../../fixture/schema-check.js';
import { clientsAfterExit, privateTmux } from '../../fixture/tmux.js';

const TOKEN = 'test-token-0123456789';
const CLIENTS = 50;
const CALLS = 6;

for (const era of ['modern', 'legacy'] as const satisfies readonly LoadEra[]) {
  test(`HTTP ${era === 'modern' ? '2026-07-28' : '2025-11-25'}: ${CLIENTS} clients at once each get the answer a call alone gets`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ session: 'web' });
    await tmux.tmux('new-session', '-d', '-s', 'other');
    await tmux.tmux('split-window', '-d', '-t', 'web');
    // A still screen with something on it: every capture of it, at any moment, is the same.
    await tmux.tmux('send-keys', '-t', pane, 'clear; printf "load %s\\n" 1 2 3', 'Enter');
    const screen = ['load 1', 'load 2', 'load 3'];
    await until('the pane shows its lines', async () =>
      (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes(screen.join('\n') + '\n$'),
    );
    const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN } });
    const mix = [
      { tool: 'list_sessions', args: {} },
      { tool: 'capture_pane', args: { paneId: pane } },
      { tool: 'list_panes', args: {} },
    ];
    const alone = async () =>
      (await httpLoad({ url: server.url, token: TOKEN, era, clients: 1, calls: mix.length, mix, keep: true })).results![0]!;
    const before = await alone();
    const load = await httpLoad({ url: server.url, token: TOKEN, era, clients: CLIENTS, calls: CALLS, mix, keep: true });
    const after = await alone();

    assert.deepEqual(after, before, 'tmux did not change during the load');
    // What a call alone gets keeps the contract (every answer under load is then held to it).
    const check = contractCheck('libtmux');
    before.forEach((result, i) => check(mix[i]!.tool, result as ToolResult));
    assert.equal(load.failed, 0, load.firstFailure);
    assert.equal(load.ms.length, CLIENTS * CALLS, 'every call was answered');
    load.results!.forEach((results, c) =>
      results.forEach((result, i) => assert.deepEqual(result, before[(c + i) % mix.length], `client ${c}, call ${i}`)),
    );
    // And what a call alone gets is what tmux says.
    const sessions = (before[0] as { structuredContent: { sessions: Array<{ name: string }> } }).structuredContent.sessions.map(
      (s) => s.name,
    );
    assert.deepEqual(sessions.sort(), (await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n').sort());
    const captured = (before[1] as { content: Array<{ text: string }> }).content[0]!.text;
    for (const line of screen) assert.ok(captured.includes(line), captured);
    const panes = (before[2] as { structuredContent: { panes: Array<{ id: string }> } }).structuredContent.panes.map((p) => p.id);
    assert.deepEqual(panes.sort(), (await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n').sort());

    if (era === 'legacy') assert.deepEqual(load.closed, Array(CLIENTS).fill(200), 'every client ended its session');
    assert.equal(await server.stop(), 0, server.stderr());
    assert.equal(await clientsAfterExit(tmux), '', 'the server left no tmux client behind');
  });
}
