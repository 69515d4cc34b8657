/**
 * Every julia tool against real tmux through the SDK client, in the 2026-07-28 era: what each
 * returns, and the refusals decided before tmux is touched (invalid_arguments, target_required,
 * target_denied, tool_denied, creation_denied, owned_limit, ownership_required), each with
 * effects "none". Results are checked for the contract's shape by test/fixture/julia.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allToolArgs, PANE_TOOL_ARGS, PANE_TOOLS, startJulia, type Target } from '../../fixture/julia.js';
import { privateTmux } from '../../fixture/tmux.js';

/** The whole suite in the 2026-07-28 era; julia/era-2025-11-25.test.ts runs what the 2025-11-25 era does differently. */
const negotiation = 'auto';

test('julia: list_panes, capture_pane, send_keys, paste_text and the waits on a live shell', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation, args: allToolArgs() });
  assert.equal(julia.mcp.client.getNegotiatedProtocolVersion(), '2026-07-28');

  const listed = await julia.ok('list_panes');
  assert.equal(listed.total, 1);
  assert.equal(listed.nextOffset, null);
  assert.equal(listed.coverage, 'complete_observed_graph');
  const [row] = listed.panes;
  assert.equal(row.target.paneId, pane);
  assert.match(row.target.generation, /^\d+:\d+:/);
  assert.deepEqual(
    row.contexts.map((c: { sessionName: string; windowIndex: number }) => [c.sessionName, c.windowIndex]),
    [['test', 0]],
  );
  assert.equal(row.caller, false);
  const target: Target = row.target;

  await tmux.typeAndWait(pane, 'echo cap-$((6*7))');
  const capture = await julia.ok('capture_pane', { target });
  assert.match(capture.text, /^cap-42$/m);
  assert.deepEqual([capture.lineLimit, capture.byteLimit, capture.encoding, capture.terminalContent], [100, 65536, 'utf-8', 'data']);
  assert.deepEqual(capture.target, target);
  const oneLine = await julia.ok('capture_pane', { target, lines: 1 });
  assert.equal(oneLine.truncated, true);
  assert.ok(oneLine.text.split('\n').length <= 2, JSON.stringify(oneLine.text));
  const fewBytes = await julia.ok('capture_pane', { target, maxBytes: 3 });
  assert.equal(fewBytes.truncated, true);
  assert.ok(Buffer.byteLength(fewBytes.text) <= 3);

  // Already on screen, and this server has not typed into the pane or waited on it: found in the baseline, at once.
  const seen = await julia.ok('wait_for_text', { target, text: 'cap-42' });
  assert.equal(seen.source, 'baseline');

  const sent = await julia.ok('send_keys', { target, keys: ['echo typed-$((2*3))', 'Enter'] });
  assert.deepEqual(sent, { completed: true, generationGuarantee: 'best_effort', target });
  const typed = await julia.ok('wait_for_text', { target, text: 'typed-6' });
  assert.equal(typed.matched, true);
  assert.equal(typed.text, 'typed-6');
  assert.equal(typed.keysSent, false);

  const pasted = await julia.ok('paste_text', { target, text: 'echo pasted-$((4*4))' });
  assert.equal(pasted.completed, true);
  await julia.ok('send_keys', { target, keys: ['Enter'] });
  await julia.ok('wait_for_text', { target, text: 'pasted-16' });
  assert.equal((await julia.ok('paste_text', { target, text: '' })).completed, true);

  // Only output after the keys went out can match: the old "sk-" lines on screen do not count.
  const ran = await julia.ok('send_keys_and_wait', { target, keys: ['echo sk-$((3*3))', 'Enter'], text: 'sk-9' });
  assert.deepEqual([ran.source, ran.keysSent, ran.evidence, ran.continuity], ['output', true, 'literal_text', 'reset']);
});

test('julia: resize_pane and kill_pane act on the pane named, and list_panes pages', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const other = (await tmux.tmux('split-window', '-d', '-h', '-P', '-F', '#{pane_id}', '-t', pane)).trim();
  const julia = await startJulia(t, tmux, { negotiation, args: allToolArgs() });

  const page = await julia.ok('list_panes', { limit: 1 });
  assert.deepEqual([page.total, page.panes.length, page.nextOffset, page.truncated], [2, 1, 1, true]);
  const rest = await julia.ok('list_panes', { limit: 1, offset: 1 });
  assert.deepEqual([rest.panes.length, rest.nextOffset, rest.truncated], [1, null, false]);

  const target = await julia.target(other);
  assert.equal((await julia.ok('resize_pane', { target, width: 30 })).completed, true);
  const resized = (await julia.ok('list_panes')).panes.find((p: { target: Target }) => p.target.paneId === other);
  assert.equal(resized.width, 30);

  assert.equal((await julia.ok('kill_pane', { target })).completed, true);
  const after = await julia.ok('list_panes');
  assert.deepEqual(
    after.panes.map((p: { target: Target }) => p.target.paneId),
    [pane],
  );
});

test('julia: create_session and teardown_session own what they make, and nothing else', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation, args: [...allToolArgs(), '--allow-create'] });

  const made = await julia.ok('create_session', { name: 'owned-1', command: ['sh'] });
  assert.equal(made.ownership, 'application');
  assert.match(made.sessionId, /^\$\d+$/);
  assert.equal(made.panes.length, 1);
  assert.equal(made.panes[0].generation, made.generation);
  const ran = await julia.ok('send_keys_and_wait', { target: made.panes[0], keys: ['echo owned-$((5*5))', 'Enter'], text: 'owned-25' });
  assert.equal(ran.matched, true);

  // Borrowed sessions are never torn down.
  assert.equal((await julia.error('teardown_session', { sessionId: '$0', generation: made.generation })).code, 'ownership_required');
  const gone = await julia.ok('teardown_session', { sessionId: made.sessionId, generation: made.generation });
  assert.deepEqual(gone, { completed: true, sessionId: made.sessionId, generation: made.generation });
  assert.equal((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'test');
  assert.equal(
    (await julia.error('teardown_session', { sessionId: made.sessionId, generation: made.generation })).code,
    'ownership_required',
  );

  for (let i = 0; i < 8; i++) await julia.ok('create_session', { name: `many-${i}`, command: ['sh'] });
  const full = await julia.error('create_session', { name: 'one-too-many', command: ['sh'] });
  assert.deepEqual([full.code, full.message], ['owned_limit', 'at most eight owned sessions']);
});

test('julia: run_operations runs in order, stops at the first failure, and checks every item first', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, {
    negotiation,
    args: ['--tool', 'list_panes', '--tool', 'capture_pane', '--tool', 'send_keys', '--tool', 'run_operations'],
  });
  const target = await julia.target(pane);
  const missing = { paneId: '%999', generation: target.generation };

  const done = await julia.ok('run_operations', {
    operations: [
      { tool: 'send_keys', arguments: { target, keys: ['echo batch-$((7*7))', 'Enter'] } },
      { tool: 'list_panes', arguments: {} },
    ],
  });
  assert.equal(done.failedIndex, null);
  assert.equal(done.atomic, false);
  assert.deepEqual(
    done.completed.map((c: { tool: string }) => c.tool),
    ['send_keys', 'list_panes'],
  );
  assert.deepEqual(done.completed[0].result, { completed: true, generationGuarantee: 'best_effort', target });

  const partial = await julia.payload('run_operations', {
    operations: [
      { tool: 'capture_pane', arguments: { target } },
      { tool: 'capture_pane', arguments: { target: missing } },
      { tool: 'send_keys', arguments: { target, keys: ['never sent'] } },
    ],
  });
  assert.equal(partial.failedIndex, 2);
  assert.equal(partial.completed.length, 1);
  assert.deepEqual([partial.error.code, partial.error.effects], ['operation_failed', 'none']);

  // After a completed send_keys, whatever fails next may follow a change: effects are "possible".
  const afterChange = await julia.payload('run_operations', {
    operations: [
      { tool: 'send_keys', arguments: { target, keys: ['#'] } },
      { tool: 'capture_pane', arguments: { target: missing } },
    ],
  });
  assert.deepEqual([afterChange.failedIndex, afterChange.error.code, afterChange.error.effects], [2, 'operation_failed', 'possible']);

  // Planned before anything runs: a refused item fails the whole call and nothing is typed.
  const before = (await julia.ok('capture_pane', { target })).text;
  const denied = await julia.error('run_operations', {
    operations: [
      { tool: 'send_keys', arguments: { target, keys: ['echo never-typed'] } },
      { tool: 'kill_pane', arguments: { target } },
    ],
  });
  assert.deepEqual([denied.code, denied.message, denied.effects], ['tool_denied', 'tool is not enabled', 'none']);
  assert.equal((await julia.error('run_operations', { operations: [{ tool: 'no_such_tool', arguments: {} }] })).code, 'tool_denied');
  const bad = await julia.error('run_operations', {
    operations: [
      { tool: 'send_keys', arguments: { target, keys: ['echo never-typed'] } },
      { tool: 'capture_pane', arguments: { target, lines: 0 } },
    ],
  });
  assert.equal(bad.code, 'invalid_arguments');
  assert.match(bad.message, /^ArgumentError: /);
  assert.equal(
    (await julia.error('run_operations', { operations: [{ tool: 'run_operations', arguments: { operations: [] } }] })).code,
    'invalid_arguments',
  );
  assert.equal((await julia.error('run_operations', { operations: [] })).code, 'invalid_arguments');
  assert.equal((await julia.ok('capture_pane', { target })).text, before, 'nothing was typed');
});

test('julia: bad arguments, a missing target and create_session without --allow-create are refused before tmux', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation, args: allToolArgs() });
  const target = await julia.target(pane);
  const before = (await julia.ok('capture_pane', { target })).text;

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['list_panes', { limit: 0 }],
    ['list_panes', { offset: 1.5 }],
    ['capture_pane', { target, lines: 1001 }],
    ['capture_pane', { target: { paneId: '%01', generation: target.generation } }],
    ['capture_pane', { target: { paneId: pane, generation: '' } }],
    ['capture_pane', { target: null }],
    ['send_keys', { target, keys: [] }],
    ['send_keys', { target, keys: ['é'.repeat(600)] }],
    ['send_keys', { target, keys: Array(9).fill('x'.repeat(1000)) }],
    ['send_keys', { target, keys: ['x'], extra: true }],
    ['paste_text', { target, text: 'a\u0000b' }],
    ['paste_text', { target, text: 'a\uD800b' }],
    ['resize_pane', { target }],
    ['resize_pane', { target, width: 10001 }],
    ['kill_pane', { target: { paneId: pane } }],
    ['wait_for_text', { target, text: '' }],
    ['send_keys_and_wait', { target, keys: ['x'] }],
    ['create_session', { name: 'bad name', command: ['sh'] }],
    ['teardown_session', { sessionId: 'x', generation: target.generation }],
    ['run_operations', { operations: Array(9).fill({ tool: 'list_panes', arguments: {} }) }],
  ];
  for (const [tool, args] of invalid) {
    const error = await julia.error(tool, args);
    assert.deepEqual([tool, error.code, error.effects], [tool, 'invalid_arguments', 'none'], error.message);
    assert.match(error.message, /^ArgumentError: /);
  }

  for (const tool of PANE_TOOLS) {
    const error = await julia.error(tool, PANE_TOOL_ARGS[tool]);
    assert.deepEqual(
      [tool, error.code, error.message, error.effects],
      [tool, 'target_required', 'supply a target or configure a caller pane', 'none'],
    );
  }
  const denied = await julia.error('create_session', { name: 'nope', command: ['sh'] });
  assert.deepEqual([denied.code, denied.effects], ['creation_denied', 'none']);
  assert.equal((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'test');
  assert.equal((await julia.ok('capture_pane', { target })).text, before, 'nothing was typed');
});

test('julia: --caller-pane is the default target; --allow-pane narrows what may be listed and targeted', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const other = await tmux.newSession('other');
  const julia = await startJulia(t, tmux, {
    negotiation,
    args: [...allToolArgs(), '--caller-pane', pane, '--allow-pane', pane, '--allow-create'],
  });

  const listed = await julia.ok('list_panes');
  assert.deepEqual(
    listed.panes.map((p: { target: Target }) => p.target.paneId),
    [pane],
    'only the allowed pane is listed',
  );
  assert.equal(listed.panes[0].caller, true);
  await tmux.typeAndWait(pane, 'echo caller-$((8*8))');
  assert.match((await julia.ok('capture_pane', {})).text, /caller-64/);
  assert.equal((await julia.ok('send_keys_and_wait', { keys: ['echo again-$((9*9))', 'Enter'], text: 'again-81' })).target.paneId, pane);

  const generation = listed.panes[0].target.generation;
  for (const tool of PANE_TOOLS) {
    const error = await julia.error(tool, { target: { paneId: other, generation }, ...PANE_TOOL_ARGS[tool] });
    assert.deepEqual(
      [tool, error.code, error.message, error.effects],
      [tool, 'target_denied', 'pane is not allowed by this application', 'none'],
    );
  }
  const inBatch = await julia.error('run_operations', {
    operations: [{ tool: 'capture_pane', arguments: { target: { paneId: other, generation } } }],
  });
  assert.equal(inBatch.code, 'target_denied');

  // A session this process creates is allowed with its panes, and listed.
  const made = await julia.ok('create_session', { name: 'mine', command: ['sh'] });
  const now = await julia.ok('list_panes');
  assert.deepEqual(now.panes.map((p: { target: Target }) => p.target.paneId).sort(), [pane, made.panes[0].paneId].sort());
  await julia.ok('capture_pane', { target: made.panes[0] });
});
