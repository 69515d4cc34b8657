import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux, watchClients, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { TmuxServer } from '../../../src/tmux/server.js';
import { until } from '../../fixture/until.js';

type T = Parameters<typeof privateTmux>[0] & { after: (fn: () => Promise<void> | void) => void };

/** One tmux server and one MCP server for the tests below that make ordinary calls, each on a session of its own. */
const server = sharedMcp();

async function setup(t: T) {
  const { tmux, mcp } = await server();
  const { pane, session } = await ownSession(t, tmux);
  // A wait that times out at once hands out a cursor marking "now"; resuming from it makes the
  // tests below independent of when the server starts watching.
  const mark = async () => {
    const r = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['no such text'], timeoutMs: 100 });
    assert.equal(r.outcome, 'timedOut');
    assert.equal(typeof r.cursor, 'string');
    return r.cursor as string;
  };
  return { tmux, pane, session, mcp, mark };
}

test('wait_for_text: matches new output, reports the tail, resumes from a cursor', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  const c0 = await mark();
  // printf assembles the words, so the echo of the typed command contains neither READY nor delta.
  await tmux.typeAndWait(pane, "printf 'alpha\\nbeta RE%sDY gamma\\nde%sta\\n' A l");
  const r = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['nope', 'READY'], cursor: c0, timeoutMs: 5000 });
  assert.equal(r.outcome, 'matched');
  assert.equal(r.matched, 'READY');
  assert.equal(r.matchedIndex, 1);
  assert.equal(r.sawNewOutput, true);
  assert.equal(r.effectiveTimeout, 5);
  assert.ok(r.tail.includes('beta READY gamma'), r.tail.join('\n'));
  assert.match(r.paneRef, /^tmux1_/);

  // Resuming after the match finds what followed it, not the same match again.
  const next = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['delta'], cursor: r.cursor, timeoutMs: 5000 });
  assert.equal(next.outcome, 'matched');
  const again = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['READY'], cursor: r.cursor, timeoutMs: 300 });
  assert.equal(again.outcome, 'timedOut', 'the match a cursor was handed out after is consumed');

  // A cursor for another pane, or garbage, is refused before waiting.
  const other = (await tmux.tmux('split-window', '-t', pane, '-P', '-F', '#{pane_id}')).trim();
  assert.match(await mcp.fails('wait_for_text', { paneId: other, patterns: ['x'], cursor: c0 }), /cursor is for pane/);
  assert.match(await mcp.fails('wait_for_text', { paneId: pane, patterns: ['x'], cursor: 'garbage' }), /cursor is not one/);
});

test('wait_for_text: a capture_since cursor taken before typing catches output printed before the wait', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  const { cursor } = await mcp.ok('capture_since', { paneId: pane });
  await tmux.typeAndWait(pane, "printf 'SIN%sE-OK\\n' C");
  const r = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['SINCE-OK'], cursor, timeoutMs: 5000 });
  assert.equal(r.outcome, 'matched');
  assert.equal(r.matched, 'SINCE-OK');
  assert.ok(r.tail.includes('SINCE-OK'), JSON.stringify(r.tail));
  assert.match(r.cursor, /^tmuxw1_/, 'the answer carries a wait cursor for the next call');
  assert.match(await mcp.fails('wait_for_text', { paneId: pane, patterns: ['x'], cursor: 'cs1.garbage' }), /capture_since/);
});

test('wait_for_text: with a capture_since backlog, the lines left out are counted from both parts', async (t) => {
  const { tmux, pane, session, mcp } = await setup(t);
  const { cursor } = await mcp.ok('capture_since', { paneId: pane });
  await tmux.typeAndWait(pane, "printf 'back-%s\\n' 1 2 3");
  const before = await watchClients(tmux, session);
  const waiting = mcp.call('wait_for_text', { paneId: pane, patterns: ['never-printed'], cursor, maxLines: 2, timeoutMs: 3000 });
  // Once the watch sits in the session, later output reaches the stream.
  await untilWatched(tmux, session, before);
  await tmux.typeAndWait(pane, "printf 'live-%s\\n' 1 2 3 4 5");
  const result = await waiting;
  const r = result.structuredContent as { outcome: string; tail: string[] };
  assert.equal(r.outcome, 'timedOut');
  assert.ok(r.tail.length <= 2, JSON.stringify(r.tail));
  const text = result.content.map((c) => c.text).join('\n');
  const dropped = Number(/\((\d+) older left out\)/.exec(text)?.[1] ?? 0);
  // back-1..3 and live-1..5 alone are eight rows: kept and left out together cover at least those.
  assert.ok(r.tail.length + dropped >= 8, text);
});

test('wait_for_text: text already on screen is not a new match (matchedAtEntry instead)', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  await tmux.typeAndWait(pane, 'echo ALREADY-$((1+1))');
  const r = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['ALREADY-2'], timeoutMs: 300 });
  assert.equal(r.outcome, 'timedOut');
  assert.equal(r.matched, null);
  assert.equal(r.matchedIndex, null);
  assert.equal(r.matchedAtEntry, true);
  // (The shell may still print its prompt after typeAndWait returns, so the tail is not asserted empty.)
  assert.ok(!r.tail.some((line: string) => line.includes('ALREADY-2')), JSON.stringify(r.tail));
  const text = (await mcp.call('wait_for_text', { paneId: pane, patterns: ['ALREADY-2'], timeoutMs: 100 })).content[0]!.text!;
  assert.match(text, /already on screen/);
  const absent = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['NOT-THERE'], timeoutMs: 100 });
  assert.equal(absent.matchedAtEntry, false);
});

test('wait_for_text: wakes on output printed during the wait', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  const c0 = await mark();
  // The shell prints LIVE only when the channel is signalled, after the wait is under way.
  await tmux.tmux('send-keys', '-t', pane, '-l', `tmux -S '${tmux.socketPath}' wait-for go; echo LIVE-$((40+2))\n`);
  const waiting = mcp.ok('wait_for_text', { paneId: pane, patterns: ['LIVE-42'], cursor: c0, timeoutMs: 10_000 });
  await tmux.tmux('wait-for', '-S', 'go');
  const r = await waiting;
  assert.equal(r.outcome, 'matched');
  assert.ok(r.seconds < 10);
});

test('wait_for_text: stop patterns, regex, any output, invalid regex', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  let c = await mark();
  await tmux.typeAndWait(pane, "printf 'building\\nerror: it broke\\nBUILD OK\\n'");
  const stopped = await mcp.ok('wait_for_text', {
    paneId: pane,
    patterns: ['BUILD OK'],
    stop: ['warning', 'error:'],
    cursor: c,
    timeoutMs: 5000,
  });
  assert.equal(stopped.outcome, 'stopped');
  assert.equal(stopped.matched, 'error:');
  assert.equal(stopped.matchedIndex, 1);

  c = await mark();
  await tmux.typeAndWait(pane, 'echo "took 1234 ms"');
  const rx = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['^took \\d+ ms$'], regex: true, cursor: c, timeoutMs: 5000 });
  assert.equal(rx.outcome, 'matched');
  assert.equal(rx.matched, '^took \\d+ ms$');
  const literal = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['\\d+'], cursor: c, timeoutMs: 200 });
  assert.equal(literal.outcome, 'timedOut', 'patterns are literal unless regex is set');

  c = await mark();
  await tmux.typeAndWait(pane, 'true');
  const any = await mcp.ok('wait_for_text', { paneId: pane, patterns: [], cursor: c, timeoutMs: 5000 });
  assert.equal(any.outcome, 'matched');
  assert.equal(any.matched, null);

  assert.match(
    await mcp.fails('wait_for_text', { paneId: pane, patterns: ['(unclosed'], regex: true }),
    /patterns\[0\] is not a valid regular expression/,
  );
  assert.match(await mcp.fails('wait_for_text', { paneId: pane, patterns: ['ok'], stop: ['[z-a]'], regex: true }), /stop\[0\]/);
  assert.match(await mcp.fails('wait_for_text', { paneId: pane, patterns: [''] }), /empty/);
  assert.match(await mcp.fails('wait_for_text', { paneId: pane, patterns: ['x'], timeoutMs: 50 }), /timeoutMs/);
  assert.match(await mcp.fails('wait_for_text', { paneId: pane, patterns: ['x'.repeat(4097)] }), /4096/);
});

test('wait_for_text: a quiet pane times out with sawNewOutput false; escape sequences are stripped', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  const quiet = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['x'], timeoutMs: 200 });
  assert.equal(quiet.outcome, 'timedOut');
  assert.equal(quiet.sawNewOutput, false);
  assert.ok(quiet.seconds >= 0.2, `it waited out its timeout: ${quiet.seconds}`);

  const c = await mark();
  await tmux.typeAndWait(pane, "printf '\\033[1;31mRED\\033[0m \\033]0;title\\007plain 日本語 🎉\\n'");
  const r = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['RED plain 日本語 🎉'], cursor: c, timeoutMs: 5000 });
  assert.equal(r.outcome, 'matched');
  assert.ok(r.tail.includes('RED plain 日本語 🎉'), JSON.stringify(r.tail));
});

/**
 * Polls (each poll one tmux process) until this server's control clients watching `session` are more
 * than `before` (counted before the wait began): a wait on one of its panes is under way.
 */
async function untilWatched(tmux: PrivateTmux, session: string, before: number): Promise<void> {
  await until(`something to watch ${session}`, async () => (await watchClients(tmux, session)) > before, 10_000);
}

test('wait_for_text: a pane killed mid-wait ends the wait with an answer', async (t) => {
  const { tmux, mcp } = await setup(t);
  const { session: victims } = await ownSession(t, tmux);
  const victim = (await tmux.tmux('split-window', '-t', victims, '-P', '-F', '#{pane_id}')).trim();
  const before = await watchClients(tmux, victims);
  const waiting = mcp.ok('wait_for_text', { paneId: victim, patterns: ['never'], timeoutMs: 60_000 });
  await untilWatched(tmux, victims, before);
  await tmux.tmux('kill-pane', '-t', victim);
  const r = await waiting;
  assert.equal(r.outcome, 'paneClosed');
  assert.equal(r.cursor, null);
  assert.match(await mcp.fails('wait_for_text', { paneId: victim, patterns: ['x'] }), new RegExp(`no pane \\${victim}`));
});

test('wait_for_text: a pane whose program exits (remain-on-exit) ends the wait as paneDead', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  await tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
  const c = await mark();
  const waiting = mcp.ok('wait_for_text', { paneId: pane, patterns: ['never'], cursor: c, timeoutMs: 30_000 });
  await tmux.tmux('send-keys', '-t', pane, '-l', 'exit\n');
  const r = await waiting;
  assert.equal(r.outcome, 'paneDead');
  const again = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['x'], timeoutMs: 5000 });
  assert.equal(again.outcome, 'paneDead', 'a dead pane answers at once');
});

test('wait_for_text: kill-session mid-wait ends the wait', async (t) => {
  const { tmux, mcp } = await setup(t);
  const { pane: other, session: doomed } = await ownSession(t, tmux);
  const before = await watchClients(tmux, doomed);
  const waiting = mcp.ok('wait_for_text', { paneId: other, patterns: ['never'], timeoutMs: 60_000 });
  await untilWatched(tmux, doomed, before);
  await tmux.tmux('kill-session', '-t', doomed);
  const r = await waiting;
  assert.equal(r.outcome, 'paneClosed');
});

test('wait_for_text: 30 waits in a row each wake on their own text (latency lives in the bench)', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  // Our own control client types into the pane; the tty echo prints the text at once.
  const typist = new TmuxServer({ bin: 'tmux', socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: tmux.env });
  t.after(() => typist.close());
  await typist.run(['display-message', '-p', 'x']);
  for (let i = 0; i < 30; i++) {
    const c = await mark();
    const waiting = mcp.ok('wait_for_text', { paneId: pane, patterns: [`PING${i}.`], cursor: c, timeoutMs: 10_000 });
    await typist.run(['send-keys', '-t', pane, '-l', `PING${i}.`]);
    const r = await waiting;
    assert.equal(r.outcome, 'matched');
    assert.equal(r.matched, `PING${i}.`);
    await typist.run(['send-keys', '-t', pane, 'C-u']);
  }
});

test('wait_for_text: a regex that backtracks without bound never hangs the server', async (t) => {
  const { tmux, pane, mcp, mark } = await setup(t);
  const c = await mark();
  // Forty zeros give ^(0+)+1$ 2^40 ways to fail in a backtracking engine.
  await tmux.typeAndWait(pane, 'printf "%040d\\n" 0');
  const linear = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['^(0+)+1$'], regex: true, cursor: c, timeoutMs: 500 });
  assert.equal(linear.outcome, 'timedOut', 'a pattern that can run in linear time just runs');
  assert.ok(linear.tail.includes('0'.repeat(40)), JSON.stringify(linear.tail));
  // Case-insensitive patterns cannot run in linear time: each match is time-limited, then the wait ends with a clear error.
  const bounded = await mcp.fails('wait_for_text', { paneId: pane, patterns: ['(?i)^(0+)+1$'], regex: true, cursor: c, timeoutMs: 30_000 });
  // Ended by the per-match limit, not by its 30 s timeout.
  assert.match(bounded, /patterns\[0\] ran for over 250 ms on one line of output.*the wait was ended.*regex: false/s);
  // The server still answers, and patterns outside the linear engine still work when they finish.
  await tmux.typeAndWait(pane, "printf '%s\\n' Done-abab");
  const back = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['(?i)done-(ab)\\1'], regex: true, cursor: c, timeoutMs: 5000 });
  assert.equal(back.outcome, 'matched');
});

test('wait_for_text and run_shell_command: the server ceiling caps timeouts; refs work as pane ids', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_MCP_WAIT_MAX_SECONDS: '1' } });
  const { panes } = await mcp.ok('list_panes');
  const ref = panes.find((p: { id: string }) => p.id === pane).ref;
  const waited = await mcp.ok('wait_for_text', { paneId: ref, patterns: ['never'], timeoutMs: 600_000 });
  assert.equal(waited.effectiveTimeout, 1);
  assert.equal(waited.outcome, 'timedOut');
  assert.ok(waited.seconds >= 1, `it waited out the ceiling: ${waited.seconds}`);
  const ran = await mcp.ok('run_shell_command', { paneId: ref, command: 'echo begun; sleep 3', timeoutMs: 600_000 });
  assert.equal(ran.effectiveTimeout, 1);
  assert.equal(ran.timedOut, true);
  assert.deepEqual(ran.output, ['begun']);
  assert.equal(ran.pane, pane);
});

test('wait_for_channel reports progress every second while it waits', async () => {
  const { mcp } = await server();
  const seen: Array<{ progress: number; total?: number; message?: string }> = [];
  let firstTick!: () => void;
  const ticked = new Promise<void>((resolve) => (firstTick = resolve));
  const waiting = mcp.client.callTool({ name: 'wait_for_channel', arguments: { channel: 'tick', timeoutMs: 20_000 } }, {
    onprogress: (p: { progress: number; total?: number; message?: string }) => (seen.push(p), firstTick()),
  } as never);
  await ticked;
  await mcp.ok('signal_channel', { channel: 'tick' });
  const result = await waiting;
  assert.equal((result.structuredContent as { released: boolean }).released, true);
  assert.ok(seen[0]!.progress >= 0.9 && seen[0]!.progress < 20, JSON.stringify(seen));
  assert.equal(seen[0]!.total, 20);
  assert.match(seen[0]!.message ?? '', /^waiting on channel tick \(\d+ of 20 s\)$/);
});
