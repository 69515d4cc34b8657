/**
 * The julia profile's failures that need a fault in real tmux, in the 2026-07-28 era: a generation
 * made stale by restarting the tmux server (nothing is typed, resized or killed), a target of
 * another server, a stopped tmux server (deadline, busy, request capacity -32000), a broken tmux
 * (operation_failed), the result limit, a pane that goes away during a wait (observation_lost), a
 * screen too large for the wait's baseline (output_limit), and a cancelled wait.
 */
import assert from 'node:assert/strict';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allToolArgs, PANE_TOOL_ARGS, PANE_TOOLS, startJulia, type Target } from '../../fixture/julia.js';
import { PrivateTmux, privateTmux, stopTmuxServer } from '../../fixture/tmux.js';

const MUTATING = new Set([
  'send_keys',
  'paste_text',
  'resize_pane',
  'kill_pane',
  'send_keys_and_wait',
  'create_session',
  'teardown_session',
  'run_operations',
]);

/**
 * Kills the tmux server and starts a new one on the same socket. Until the old daemon has gone, a
 * new-session may still reach it and fail with "server exited unexpectedly"; each try is a real
 * tmux round trip, and the old daemon is gone within a few.
 */
async function restart(tmux: PrivateTmux, via: PrivateTmux = tmux): Promise<string> {
  await tmux.tmux('kill-server').catch((error: Error) => assert.match(error.message, /server exited unexpectedly/));
  for (let attempt = 0; ; attempt++) {
    try {
      return await via.start();
    } catch (error) {
      if (attempt >= 50 || !/server exited unexpectedly|lost server/.test((error as Error).message)) throw error;
    }
  }
}

/**
 * A tmux executable for `--tmux` that is the real one until a fault is named (each passes the
 * start-up check, `-V`): `flood` writes 1.1 MB to stderr, `fail` fails every command, `quotes`
 * fails with 600 quotes, `reborn` refuses control mode and, after a new-session, replaces the
 * server with a new one on the same socket. `fault` names one and ends the profile's control
 * connection, so every later tmux it starts is the faulty one.
 */
function moodyTmux(tmux: PrivateTmux): { bin: string; fault(name: string): Promise<void> } {
  const mode = join(tmux.dir, 'tmux-mode');
  const bin = join(tmux.dir, 'moody-tmux');
  const socket = `-S '${tmux.socketPath}'`;
  writeFileSync(
    bin,
    `#!/bin/sh
[ "$1" = -V ] && exec tmux -V
case "$(cat '${mode}' 2>/dev/null)" in
  flood) head -c 1100000 /dev/zero | tr '\\0' x >&2; exit 1 ;;
  fail) echo "tmux: simulated failure for the test" >&2; exit 1 ;;
  quotes) printf '%0600d' 0 | tr 0 '"' >&2; exit 1 ;;
  reborn)
    case " $* " in
      *" -C "*) exit 1 ;;
      *" new-session "*)
        out=$(tmux "$@") || exit 1
        tmux ${socket} kill-server
        i=0
        until tmux ${socket} -f /dev/null new-session -d -s reborn sh 2>/dev/null; do i=$((i+1)); [ $i -lt 50 ] || exit 1; done
        echo "$out"
        exit 0 ;;
    esac ;;
esac
exec tmux "$@"
`,
  );
  chmodSync(bin, 0o755);
  return {
    bin,
    async fault(name) {
      writeFileSync(mode, name);
      if (name === '') return;
      for (const client of (await tmux.tmux('list-clients', '-F', '#{client_name}')).split('\n').filter(Boolean)) {
        await tmux.tmux('detach-client', '-t', client).catch(() => {});
      }
    },
  };
}

/** The whole suite in the 2026-07-28 era; julia/era-2025-11-25.test.ts runs what the 2025-11-25 era does differently. */
const negotiation = 'auto';

test('julia: a tmux restart makes every target stale; nothing is typed, resized or killed', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation, args: [...allToolArgs(), '--allow-create'] });
  const old = await julia.target(pane);
  const made = await julia.ok('create_session', { name: 'owned', command: ['sh'] });

  assert.equal(await restart(tmux), pane, 'the new server reuses the pane id');
  const fresh = await julia.target(pane);
  assert.notEqual(fresh.generation, old.generation);
  const before = await julia.ok('capture_pane', { target: fresh });
  const sizeBefore = (await julia.ok('list_panes')).panes[0].width;

  for (const tool of PANE_TOOLS) {
    const error = await julia.error(tool, { target: old, ...PANE_TOOL_ARGS[tool] });
    assert.deepEqual([tool, error.code, error.effects], [tool, 'stale_target', 'none']);
    assert.equal(error.message.startsWith(`target "${pane}" belongs to another observed daemon generation`), true, error.message);
  }
  const teardown = await julia.error('teardown_session', { sessionId: made.sessionId, generation: made.generation });
  assert.deepEqual([teardown.code, teardown.effects], ['stale_target', 'none']);
  const batch = await julia.payload('run_operations', { operations: [{ tool: 'send_keys', arguments: { target: old, keys: ['x'] } }] });
  assert.deepEqual([batch.failedIndex, batch.error.code], [1, 'stale_target']);

  assert.equal((await julia.ok('capture_pane', { target: fresh })).text, before.text, 'nothing was typed or pasted');
  const after = await julia.ok('list_panes');
  assert.deepEqual(
    after.panes.map((p: { target: Target }) => p.target),
    [fresh],
    'the pane was not killed',
  );
  assert.equal(after.panes[0].width, sizeBefore, 'nor resized');
});

test('julia: a server started on the same socket under another path is another server: teardown_session is wrong_server', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation, args: [...allToolArgs(), '--allow-create'] });
  const made = await julia.ok('create_session', { name: 'owned', command: ['sh'] });
  // The same socket file, reached through a symlinked directory: tmux reports the path it was started with.
  const link = join(tmux.dir, 'link');
  symlinkSync(tmux.dir, link);
  const viaLink = new PrivateTmux({ socketPath: join(link, 'tmux.sock') });
  t.after(() => viaLink.dispose());
  await restart(tmux, viaLink);
  assert.equal((await tmux.tmux('display-message', '-p', '#{socket_path}')).trim(), viaLink.socketPath);

  const error = await julia.error('teardown_session', { sessionId: made.sessionId, generation: made.generation });
  assert.deepEqual([error.code, error.effects], ['wrong_server', 'none']);
  assert.ok(error.message.startsWith(`target "${made.sessionId}" belongs to another server`), error.message);
  assert.equal((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'test', 'nothing was killed');
});

test('julia: a tmux server replaced right after creating the session makes create_session stale_target', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const moody = moodyTmux(tmux);
  const julia = await startJulia(t, tmux, { negotiation, args: [...allToolArgs(), '--allow-create', '--tmux', moody.bin] });
  await moody.fault('reborn');
  const error = await julia.error('create_session', { name: 'made-then-lost', command: ['sh'] });
  assert.deepEqual([error.code, error.effects], ['stale_target', 'possible']);
  assert.match(error.message, /^target "\$\d+" belongs to another observed daemon generation/);
  await moody.fault('');
  assert.equal((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'reborn', 'the new server has only its own session');
});

test('julia: a target of another tmux server is wrong_server', async (t) => {
  const here = privateTmux(t);
  const there = privateTmux(t);
  const pane = await here.start();
  const far = await there.start();
  const julia = await startJulia(t, here, { negotiation, args: allToolArgs() });
  const other = await startJulia(t, there, { negotiation });
  const foreign = await other.target(far);
  const before = (await julia.ok('capture_pane', { target: await julia.target(pane) })).text;
  for (const tool of PANE_TOOLS) {
    const error = await julia.error(tool, { target: foreign, ...PANE_TOOL_ARGS[tool] });
    assert.deepEqual([tool, error.code, error.effects], [tool, 'wrong_server', 'none']);
  }
  assert.equal((await julia.ok('capture_pane', { target: await julia.target(pane) })).text, before);
});

test('julia: a stopped tmux server runs every tool into its deadline', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const spare = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', pane)).trim();
  const julia = await startJulia(t, tmux, { negotiation, args: [...allToolArgs(), '--allow-create', '--timeout', '1', '--workers', '16'] });
  const target = await julia.target(pane);
  const spareTarget = await julia.target(spare);
  const made = await julia.ok('create_session', { name: 'owned', command: ['sh'] });

  const resume = await stopTmuxServer(t, tmux);
  const calls: Array<[string, Record<string, unknown>]> = [
    ['list_panes', {}],
    ...PANE_TOOLS.map((tool): [string, Record<string, unknown>] => [
      tool,
      { target: tool === 'kill_pane' ? spareTarget : target, ...PANE_TOOL_ARGS[tool] },
    ]),
    ['create_session', { name: 'late', command: ['sh'] }],
    ['teardown_session', { sessionId: made.sessionId, generation: made.generation }],
  ];
  const errors = await Promise.all(calls.map(([tool, args]) => julia.error(tool, args)));
  const batch = await julia.payload('run_operations', { operations: [{ tool: 'capture_pane', arguments: { target } }] });
  resume();
  errors.forEach((error, i) => {
    const tool = calls[i]![0];
    assert.deepEqual([tool, error.code, error.effects], [tool, 'deadline', MUTATING.has(tool) ? 'possible' : 'none']);
    assert.match(error.message, /^request exceeded 1\.0 seconds/);
  });
  assert.deepEqual([batch.failedIndex, batch.completed, batch.error.code], [1, [], 'deadline']);
  // Resumed, the server answers again.
  await julia.ok('capture_pane', { target });
});

test('julia: more calls than --capacity is JSON-RPC -32000; 16 calls still running make the next one busy', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const narrow = await startJulia(t, tmux, { negotiation, args: ['--workers', '1', '--capacity', '2', '--timeout', '30'] });
  const wide = await startJulia(t, tmux, {
    negotiation,
    args: [...allToolArgs(), '--allow-create', '--workers', '16', '--capacity', '16', '--timeout', '30'],
  });
  const target = await narrow.target(pane);
  const made = await wide.ok('create_session', { name: 'owned', command: ['sh'] });

  const resume = await stopTmuxServer(t, tmux);
  // Two calls hang on the stopped server: one running, one queued; a third is over capacity.
  const held = [narrow.ok('capture_pane', { target }), narrow.ok('capture_pane', { target })];
  // Answered only after the calls before it were taken in (tools/list is not counted).
  await narrow.mcp.client.listTools();
  await assert.rejects(
    narrow.mcp.client.callTool({ name: 'capture_pane', arguments: { target } }),
    (error: { code?: number; message?: string }) => {
      assert.equal(error.code, -32000);
      assert.match(String(error.message), /Request capacity exhausted/);
      return true;
    },
  );

  // Sixteen calls hang, then are cancelled: the client stops waiting, but they still run until tmux answers.
  const controllers = Array.from({ length: 16 }, () => new AbortController());
  const abandoned = controllers.map((c) => wide.mcp.call('capture_pane', { target }, { signal: c.signal }).catch(() => 'cancelled'));
  await wide.mcp.client.listTools();
  for (const c of controllers) c.abort();
  assert.deepEqual(new Set(await Promise.all(abandoned)), new Set(['cancelled']));
  await wide.mcp.client.listTools();
  const args: Record<string, Record<string, unknown>> = {
    list_panes: {},
    ...Object.fromEntries(PANE_TOOLS.map((tool) => [tool, { target, ...PANE_TOOL_ARGS[tool] }])),
    run_operations: { operations: [{ tool: 'list_panes', arguments: {} }] },
    create_session: { name: 'busy', command: ['sh'] },
    teardown_session: { sessionId: made.sessionId, generation: made.generation },
  };
  for (const [tool, toolArgs] of Object.entries(args)) {
    const error = await wide.error(tool, toolArgs);
    assert.deepEqual([tool, error.code, error.message, error.effects], [tool, 'busy', 'application request capacity exhausted', 'none']);
  }
  resume();
  for (const answer of await Promise.all(held)) assert.equal(answer.target.paneId, pane);
});

test('julia: stopping the server cancels the calls running (cancelled), refuses those still queued (closed), and answers both', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const spare = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', pane)).trim();
  const common = [...allToolArgs(), '--allow-create', '--timeout', '30'];
  // Every call runs at once on one server; on the other, one call runs and the rest wait for its worker.
  const wide = await startJulia(t, tmux, { negotiation, args: [...common, '--workers', '16'] });
  const narrow = await startJulia(t, tmux, { negotiation, args: [...common, '--workers', '1', '--capacity', '16'] });
  const callsOf = async (julia: typeof wide): Promise<Array<[string, Record<string, unknown>]>> => {
    const target = await julia.target(pane);
    const spareTarget = await julia.target(spare);
    const made = await julia.ok('create_session', { name: `owned-${julia === wide ? 'w' : 'n'}`, command: ['sh'] });
    return [
      ['list_panes', {}],
      ...PANE_TOOLS.map((tool): [string, Record<string, unknown>] => [
        tool,
        { target: tool === 'kill_pane' ? spareTarget : target, ...PANE_TOOL_ARGS[tool] },
      ]),
      ['create_session', { name: 'late', command: ['sh'] }],
      ['teardown_session', { sessionId: made.sessionId, generation: made.generation }],
      ['run_operations', { operations: [{ tool: 'capture_pane', arguments: { target } }] }],
    ];
  };
  const wideCalls = await callsOf(wide);
  const narrowCalls = await callsOf(narrow);
  const resume = await stopTmuxServer(t, tmux);

  const running = wideCalls.map(([tool, args]) => wide.payload(tool, args));
  const holder = narrow.payload('capture_pane', { target: (narrowCalls[1]![1] as { target: Target }).target });
  const queued = narrowCalls.map(([tool, args]) => narrow.payload(tool, args));
  // Answered only once every call before it was taken in (tools/list is not counted).
  await wide.mcp.client.listTools();
  await narrow.mcp.client.listTools();
  process.kill(wide.mcp.pid()!, 'SIGTERM');
  process.kill(narrow.mcp.pid()!, 'SIGTERM');

  const cancelled = await Promise.all(running);
  cancelled.forEach((payload, i) => {
    const tool = wideCalls[i]![0];
    // run_operations reports the operation that was running (a capture: no effects), as a partial result.
    const batch = tool === 'run_operations';
    if (batch) assert.deepEqual([payload.failedIndex, payload.completed], [1, []]);
    const error = payload.error;
    assert.deepEqual([tool, error.code, error.effects], [tool, 'cancelled', MUTATING.has(tool) && !batch ? 'possible' : 'none']);
    // The contract's "remote effects may have occurred" only where effects are possible.
    assert.equal(
      error.message,
      `request cancelled after submission: the server is shutting down${error.effects === 'possible' ? '; remote effects may have occurred' : ''}`,
    );
  });
  assert.equal((await holder).error.code, 'cancelled');
  (await Promise.all(queued)).forEach((payload, i) => {
    const tool = narrowCalls[i]![0];
    assert.deepEqual(
      [tool, payload],
      [tool, { error: { message: 'application is closed', code: 'closed', effects: 'none', retryable: false } }],
    );
  });
  resume();
});

test('julia: a tmux that floods stderr is output_limit, one that fails is operation_failed, and an error over the result limit is result_limit, for every tool', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const spare = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', pane)).trim();
  const moody = moodyTmux(tmux);
  const julia = await startJulia(t, tmux, {
    negotiation,
    args: [...allToolArgs(), '--allow-create', '--tmux', moody.bin],
    env: { LIBTMUX_MCP_MAX_RESULT_BYTES: '1024' },
  });
  const made = await julia.ok('create_session', { name: 'owned', command: ['sh'] });
  const target = { paneId: pane, generation: made.generation };
  const calls: Array<[string, Record<string, unknown>]> = [
    ['list_panes', {}],
    ...PANE_TOOLS.map((tool): [string, Record<string, unknown>] => [
      tool,
      { target: tool === 'kill_pane' ? { paneId: spare, generation: made.generation } : target, ...PANE_TOOL_ARGS[tool] },
    ]),
    ['create_session', { name: 'never', command: ['sh'] }],
    ['teardown_session', { sessionId: made.sessionId, generation: made.generation }],
    ['run_operations', { operations: [{ tool: 'list_panes', arguments: {} }] }],
  ];

  const fault = moody.fault;
  const each = async (check: (tool: string, payload: any) => void) => {
    for (const [tool, args] of calls) check(tool, await julia.payload(tool, args));
  };

  await fault('flood');
  await each((tool, payload) => {
    const error = tool === 'run_operations' ? (assert.equal(payload.failedIndex, 1), payload.error) : payload.error;
    assert.deepEqual([tool, error.code, error.message], [tool, 'output_limit', 'stderr exceeded 1048576 bytes']);
  });

  await fault('fail');
  await each((tool, payload) => {
    const error = tool === 'run_operations' ? (assert.equal(payload.failedIndex, 1), payload.error) : payload.error;
    assert.equal(error.code, 'operation_failed', `${tool}: ${error.message}`);
    assert.match(error.message, /simulated failure/);
  });

  // Six hundred quotes take 1200 bytes as JSON: every error payload is over the 1024-byte limit.
  await fault('quotes');
  await each((tool, payload) => {
    assert.equal(payload.error.code, 'result_limit', `${tool}: ${JSON.stringify(payload).slice(0, 200)}`);
    assert.equal(payload.error.effects, MUTATING.has(tool) && tool !== 'run_operations' ? 'possible' : 'none', tool);
    if (tool === 'run_operations')
      assert.deepEqual([payload.failedIndex, payload.completed, payload.originalError], [1, [], { code: 'operation_failed' }]);
  });

  // Back to the real tmux: the owned session is still there, and goes.
  await fault('');
  await julia.ok('teardown_session', { sessionId: made.sessionId, generation: made.generation });
});

test('julia: a result over the limit is replaced by result_limit, batches keep what completed', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ width: 900 });
  for (let i = 0; i < 4; i++) await tmux.tmux('split-window', '-d', '-t', pane);
  const julia = await startJulia(t, tmux, { negotiation, args: allToolArgs(), env: { LIBTMUX_MCP_MAX_RESULT_BYTES: '1024' } });
  const limited = (payload: { error: { code: string; message: string } }) => {
    assert.equal(payload.error.code, 'result_limit');
    assert.equal(payload.error.message, 'result exceeds the configured byte limit; request fewer rows, lines or operations');
  };
  const listed = await julia.error('list_panes', {});
  limited({ error: listed });
  assert.equal(listed.effects, 'none');

  // Pages of one row fit; the pane's own row gives its target.
  let target: Target | undefined;
  for (let offset = 0; !target; offset++) {
    const { panes } = await julia.ok('list_panes', { limit: 1, offset });
    if (panes[0].target.paneId === pane) target = panes[0].target;
  }
  await tmux.typeAndWait(target.paneId, `printf '%0600d\\n' 0 | tr 0 '"'`);
  limited({ error: await julia.error('capture_pane', { target }) });
  const quotes = '"'.repeat(600);
  const waited = await julia.error('wait_for_text', { target, text: quotes });
  assert.deepEqual([waited.code, waited.effects], ['result_limit', 'none']);
  const ran = await julia.error('send_keys_and_wait', { target, keys: [`printf '%0600d\\n' 0 | tr 0 '"'`, 'Enter'], text: quotes });
  assert.deepEqual([ran.code, ran.effects], ['result_limit', 'possible']);

  const whole = await julia.payload('run_operations', { operations: [{ tool: 'capture_pane', arguments: { target } }] });
  limited(whole);
  assert.deepEqual(
    [whole.failedIndex, whole.completed, whole.atomic],
    [null, [{ completed: true, resultOmitted: true, tool: 'capture_pane' }], false],
  );
  const partial = await julia.payload('run_operations', {
    operations: [
      { tool: 'send_keys', arguments: { target, keys: ['#'] } },
      { tool: 'capture_pane', arguments: { target } },
      { tool: 'capture_pane', arguments: { target: { ...target, paneId: '%999' } } },
    ],
  });
  limited(partial);
  assert.deepEqual(
    [partial.failedIndex, partial.completed.map((c: { tool: string }) => c.tool), partial.originalError, partial.error.effects],
    [3, ['send_keys', 'capture_pane'], { code: 'operation_failed' }, 'possible'],
  );
  const overPartial = await julia.payload('run_operations', {
    operations: [
      { tool: 'capture_pane', arguments: { target } },
      { tool: 'capture_pane', arguments: { target: { ...target, paneId: '%999' } } },
    ],
  });
  limited(overPartial);
  assert.deepEqual(
    [overPartial.failedIndex, overPartial.originalError, overPartial.error.effects],
    [2, { code: 'operation_failed' }, 'none'],
  );
});

test('julia: a pane that goes away during a wait is observation_lost', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const doomed = await tmux.newSession('doomed');
  const leaving = await tmux.newSession('leaving');
  const julia = await startJulia(t, tmux, { negotiation, args: allToolArgs() });
  const doomedTarget = await julia.target(doomed);
  const leavingTarget = await julia.target(leaving);

  let watching!: () => void;
  const live = new Promise<void>((resolve) => (watching = resolve));
  const waiting = julia.error('wait_for_text', { target: doomedTarget, text: 'never-printed' }, { onprogress: () => watching() });
  await live;
  await tmux.tmux('kill-pane', '-t', doomed);
  const lost = await waiting;
  assert.deepEqual([lost.code, lost.effects], ['observation_lost', 'none']);

  const exited = await julia.error('send_keys_and_wait', { target: leavingTarget, keys: ['exit', 'Enter'], text: 'never-printed' });
  assert.deepEqual([exited.code, exited.effects], ['observation_lost', 'possible']);
});

test('julia: a screen larger than the capture limit is output_limit for wait_for_text', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ width: 1000, height: 100 });
  await tmux.typeAndWait(pane, `clear; i=0; while [ $i -lt 99 ]; do printf '%0990d\\n' $i; i=$((i+1)); done`);
  const julia = await startJulia(t, tmux, { negotiation, args: allToolArgs() });
  const error = await julia.error('wait_for_text', { target: await julia.target(pane), text: 'never-printed' });
  assert.deepEqual([error.code, error.effects], ['output_limit', 'none']);
});

test('julia: a cancelled wait ends, and the server goes on answering', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation, args: [...allToolArgs(), '--workers', '1', '--timeout', '30'] });
  const target = await julia.target(pane);
  const controller = new AbortController();
  let watching!: () => void;
  const live = new Promise<void>((resolve) => (watching = resolve));
  const waiting = julia.mcp.call(
    'wait_for_text',
    { target, text: 'never-printed' },
    { signal: controller.signal, onprogress: () => watching() },
  );
  await live;
  controller.abort();
  await assert.rejects(waiting);
  // With one worker, this runs only once the cancelled wait gave its place back.
  assert.equal((await julia.ok('capture_pane', { target })).target.paneId, pane);
});
