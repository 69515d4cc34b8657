/**
 * End of input mid-wait, in every profile: a client that closed stdin is gone, so the server ends
 * its waits at once with what they have (saying it is shutting down), answers the quick calls in
 * flight, and exits, instead of lingering until each wait's own deadline (25 s here).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startRaw } from '../../fixture/raw-stdio.js';
import { privateTmux, clientsAfterExit } from '../../fixture/tmux.js';

const WAIT_SECONDS = 25;
const PROFILES = {
  libtmux: {
    args: [] as string[],
    wait: (pane: string) => ({
      name: 'wait_for_text',
      arguments: { paneId: pane, patterns: ['never-printed-here'], timeoutMs: WAIT_SECONDS * 1000 },
    }),
    quick: { name: 'list_sessions', arguments: {} },
  },
  python: {
    args: ['--profile', 'python'],
    wait: (pane: string) => ({
      name: 'wait_for_text',
      arguments: { pane_id: pane, patterns: ['never-printed-here'], timeout: WAIT_SECONDS },
    }),
    quick: { name: 'list_sessions', arguments: {} },
  },
  julia: {
    args: ['--profile', 'julia', '--tool', 'list_panes', '--tool', 'wait_for_text', '--timeout', String(WAIT_SECONDS)],
    wait: (pane: string, generation?: string) => ({
      name: 'wait_for_text',
      arguments: { target: { paneId: pane, generation }, text: 'never-printed-here' },
    }),
    quick: { name: 'list_panes', arguments: {} },
  },
} as const;

for (const [profile, how] of Object.entries(PROFILES)) {
  test(`${profile}: stdin closed mid-wait ends the wait at once, saying the server is shutting down; quick calls are answered; the process exits`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const server = startRaw(t, { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute', LIBTMUX_MCP_WAIT_MAX_SECONDS: '60' }, how.args);
    await server.initialize();
    let generation: string | undefined;
    if (profile === 'julia') {
      server.send({ jsonrpc: '2.0', id: 'panes', method: 'tools/call', params: PROFILES.julia.quick });
      generation = (await server.answer('panes')).result.structuredContent.panes[0].target.generation;
    }
    server.send({ jsonrpc: '2.0', id: 'wait', method: 'tools/call', params: how.wait(pane, generation) });
    server.send({ jsonrpc: '2.0', id: 'quick', method: 'tools/call', params: how.quick });
    server.child.stdin.end();
    assert.equal(await server.exited, 0, 'the process exited by itself');

    const quick = await server.answer('quick', 1000);
    assert.equal(quick.result?.isError ?? false, false, JSON.stringify(quick));
    const wait = await server.answer('wait', 1000);
    const text = JSON.stringify(wait);
    // Ended by the shutdown, not by its own 25 s: a wait that ran its course would not say so.
    assert.match(text, /shutting down/, `the wait says why it ended: ${text}`);
    if (profile === 'julia') assert.equal(wait.result.structuredContent.error.code, 'cancelled', text);
    else {
      assert.notEqual(wait.result?.isError, true, `the wait answered with what it had: ${text}`);
      if (profile === 'libtmux') assert.equal(wait.result.structuredContent.matched, null);
      else assert.equal(wait.result.structuredContent.outcome, 'timeout');
    }
    assert.equal(await clientsAfterExit(tmux), '', 'no tmux client left behind');
  });
}
