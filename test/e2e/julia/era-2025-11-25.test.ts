/**
 * The julia profile with a 2025-11-25 client, beside a 2026-07-28 one on the same tmux. The suites
 * (julia-tools, julia-faults) run in 2026-07-28; between the eras only negotiation differs: the
 * opening (initialize, under the contract's version rule, instead of server/discover), and how the
 * SDK carries each request (no per-request version in `_meta`), its progress and its cancellation.
 * So this holds the handshake, the listing, and one call of each kind to the other era's answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allToolArgs, startJulia, type Julia } from '../../fixture/julia.js';
import { privateTmux } from '../../fixture/tmux.js';

test('julia, 2025-11-25: the same server, tools and answers as in 2026-07-28; only the handshake differs', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  // One worker: a cancelled call must give its place back before the next call can run.
  const args = [...allToolArgs(), '--workers', '1', '--timeout', '30'];
  const legacy = await startJulia(t, tmux, { negotiation: 'legacy', args });
  const modern = await startJulia(t, tmux, { negotiation: 'auto', args });

  assert.deepEqual([legacy.mcp.client.getProtocolEra(), legacy.mcp.client.getNegotiatedProtocolVersion()], ['legacy', '2025-11-25']);
  assert.deepEqual([modern.mcp.client.getProtocolEra(), modern.mcp.client.getNegotiatedProtocolVersion()], ['modern', '2026-07-28']);
  assert.deepEqual(legacy.mcp.client.getServerVersion(), modern.mcp.client.getServerVersion());
  assert.deepEqual(legacy.mcp.client.getServerCapabilities(), modern.mcp.client.getServerCapabilities());
  assert.deepEqual((await legacy.mcp.client.listTools()).tools, (await modern.mcp.client.listTools()).tools);

  // A listing, a read, a mutation, a batch, a wait that matches: each payload as the other era answers it.
  const target = await legacy.target(pane);
  assert.deepEqual(target, await modern.target(pane));
  await tmux.typeAndWait(pane, 'echo era-$((6*7))');
  const both = async (name: string, args: Record<string, unknown>, pick: (payload: any) => unknown = (payload) => payload) => {
    const [a, b] = [await legacy.ok(name, args), await modern.ok(name, args)];
    assert.deepEqual(pick(a), pick(b), name);
    return a;
  };
  await both('list_panes', {});
  assert.match((await both('capture_pane', { target })).text, /^era-42$/m);
  await both('send_keys', { target, keys: ['echo typed-$((2*3))', 'Enter'] });
  assert.equal((await legacy.ok('wait_for_text', { target, text: 'typed-6' })).matched, true);
  await both('run_operations', { operations: [{ tool: 'list_panes', arguments: {} }] }, (payload) =>
    payload.completed.map((c: { tool: string }) => c.tool),
  );

  // An error is the same envelope, isError and structuredContent alike (the fixture checks both).
  const refusals = async (julia: Julia) => [await julia.error('capture_pane', {}), await julia.error('list_panes', { limit: 0 })];
  assert.deepEqual(await refusals(legacy), await refusals(modern));

  // Progress reaches the client, and a cancel ends the call and frees the only worker.
  const controller = new AbortController();
  let watching!: () => void;
  const live = new Promise<void>((resolve) => (watching = resolve));
  const waiting = legacy.mcp.call(
    'wait_for_text',
    { target, text: 'never-printed' },
    { signal: controller.signal, onprogress: () => watching() },
  );
  await live;
  controller.abort();
  await assert.rejects(waiting);
  assert.equal((await legacy.ok('capture_pane', { target })).target.paneId, pane);
});
