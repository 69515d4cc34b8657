/** The python profile's run and wait tools against real tmux: run_command, wait_for_text outcomes, capture_since cursors, channels. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { privateTmux } from '../../fixture/tmux.js';
import { afterWatching, startPython } from '../../fixture/python.js';
import { ownSession, sharedServer } from '../../fixture/shared.js';

/** One tmux server and one python server for the tests that make ordinary calls, each on a session of its own. */
const server = sharedServer((scope, tmux) => startPython(scope, tmux.env));

test('python: run_command gives the real exit status and the output without the echo', async (t) => {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);

  const ok = await mcp.ok('run_command', { pane_id: pane, command: 'echo hello; echo world' });
  assert.equal(ok.exit_status, 0);
  assert.equal(ok.timed_out, false);
  assert.deepEqual(ok.output, ['hello', 'world']);
  assert.equal(ok.pane_id, pane);
  assert.equal(ok.effective_timeout, 30);

  const failed = await mcp.ok('run_command', { pane_id: pane, command: 'echo out; exit 3' });
  assert.equal(failed.exit_status, 3, 'exit ends the subshell, not the pane');
  assert.deepEqual(failed.output, ['out']);
  assert.equal((await mcp.ok('get_pane_info', { pane_id: pane })).pane_current_command, 'sh');

  const many = await mcp.ok('run_command', { pane_id: pane, command: 'seq 1 50', max_lines: 10 });
  assert.deepEqual(many.output, ['41', '42', '43', '44', '45', '46', '47', '48', '49', '50']);
  assert.equal(many.output_truncated, true);
  assert.equal(many.output_truncated_lines, 40);

  const slow = await mcp.ok('run_command', { pane_id: pane, command: 'sleep 30', timeout: 0.5 });
  assert.equal(slow.timed_out, true);
  assert.equal(slow.exit_status, null);
  await tmux.tmux('send-keys', '-t', pane, 'C-c');
  assert.match(await mcp.fails('run_command', { pane_id: pane, command: '   ' }), /empty/);
  assert.match(await mcp.fails('run_command', { pane_id: pane, command: 'true', timeout: 0 }), /timeout must be positive/);
});

test('python: wait_for_text outcomes: matched, any_output, stopped, timeout; matched_at_entry', async (t) => {
  const { tmux, mcp } = await server();
  // Each wait watches a fresh session, so its watch is seen arriving before the output is printed.
  const fresh = () => ownSession(t, tmux);

  let { session, pane } = await fresh();
  const matched = await afterWatching(
    tmux,
    session,
    () => mcp.ok('wait_for_text', { pane_id: pane, patterns: ['nothing-here', 'ready-42'], stop: ['FATAL'], timeout: 30 }),
    () => tmux.typeAndWait(pane, "printf 'READY-%s\\n' 42"),
  );
  assert.equal(matched.outcome, 'matched');
  assert.equal(matched.found, true, 'case is ignored by default');
  assert.equal(matched.matched_index, 1);
  assert.ok(matched.matched_lines.includes('READY-42'), JSON.stringify(matched));
  assert.equal(matched.saw_new_output, true);

  ({ session, pane } = await fresh());
  const any = await afterWatching(
    tmux,
    session,
    () => mcp.ok('wait_for_text', { pane_id: pane, timeout: 30 }),
    () => tmux.typeAndWait(pane, 'echo something'),
  );
  assert.equal(any.outcome, 'any_output');
  assert.equal(any.found, true);

  ({ session, pane } = await fresh());
  const stopped = await afterWatching(
    tmux,
    session,
    () => mcp.ok('wait_for_text', { pane_id: pane, patterns: ['COMPLETE'], stop: ['fatal'], timeout: 30 }),
    () => tmux.typeAndWait(pane, "printf 'FA%sAL: broken\\n' T"),
  );
  assert.equal(stopped.outcome, 'stopped');
  assert.equal(stopped.found, false);
  assert.equal(stopped.matched_index, 0);

  ({ session, pane } = await fresh());
  const caseful = await afterWatching(
    tmux,
    session,
    () => mcp.ok('wait_for_text', { pane_id: pane, patterns: ['ready'], match_case: true, timeout: 1 }),
    () => tmux.typeAndWait(pane, "printf 'RE%sDY\\n' A"),
  );
  assert.equal(caseful.outcome, 'timeout');
  assert.equal(caseful.saw_new_output, true);
  assert.ok(caseful.tail.includes('READY'), JSON.stringify(caseful.tail));

  // Text already on screen before anything of ours happened in the pane is not new: matched_at_entry instead.
  ({ session, pane } = await fresh());
  await tmux.typeAndWait(pane, 'echo ALREADY-here');
  const entry = await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['already-here'], timeout: 0.3 });
  assert.equal(entry.outcome, 'timeout');
  assert.equal(entry.matched_at_entry, true);

  // Better than polling: output printed after our own input counts as new, however fast it came.
  ({ session, pane } = await fresh());
  await mcp.ok('send_keys', { pane_id: pane, keys: 'echo FAST-$((2*3))' });
  const fast = await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['FAST-6'], timeout: 30 });
  assert.equal(fast.outcome, 'matched');

  assert.match(await mcp.fails('wait_for_text', { pane_id: pane, patterns: [] }), /non-empty list, or null/);
  assert.match(await mcp.fails('wait_for_text', { pane_id: pane, patterns: ['('], regex: true }), /regular expression/);
  assert.match(await mcp.fails('wait_for_text', { pane_id: pane, interval: 0.001 }), /interval must be at least 0.01/);
});

test('python: wait_for_text reports alternate_screen when a full-screen program showed', async (t) => {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  // Switch to the alternate screen and stay there (tput smcup, falling back to the raw sequence).
  await tmux.typeAndWait(pane, "printf '\\033[?1049h'");
  const r = await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['never'], timeout: 0.3 });
  assert.equal(r.outcome, 'alternate_screen');
  assert.equal(r.alternate_screen, true);
});

test('python: capture_since: first read is the screen, then only what is new; cursors are checked', async (t) => {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  const other = (await tmux.tmux('split-window', '-t', pane, '-P', '-F', '#{pane_id}')).trim();
  await tmux.typeAndWait(pane, 'clear; echo first-screen');

  const first = (await mcp.call('capture_since', { pane_id: pane })).structuredContent as any;
  assert.ok(first.lines.includes('first-screen'), JSON.stringify(first));
  assert.equal(first.lines_missed, false);
  await tmux.typeAndWait(pane, 'echo second-part');
  const next = (await mcp.call('capture_since', { cursor: first.cursor })).structuredContent as any;
  assert.equal(next.pane_id, pane, 'the cursor names its pane');
  assert.ok(next.lines.includes('second-part'), JSON.stringify(next.lines));
  assert.ok(!next.lines.includes('first-screen'), 'old lines are not repeated');
  const none = (await mcp.call('capture_since', { cursor: next.cursor, pane_id: pane })).structuredContent as any;
  assert.deepEqual(none.lines, []);
  assert.match(await mcp.fails('capture_since', { cursor: next.cursor, pane_id: other }), /does not match requested pane/);
  assert.match(await mcp.fails('capture_since', { cursor: 'garbage' }), /invalid capture_since cursor/);
  const bounded = (await mcp.call('capture_since', { pane_id: pane, max_lines: 1 })).structuredContent as any;
  assert.equal(bounded.lines.length, 1);
  assert.equal(bounded.truncated, true);
});

test('python: signal_channel and wait_for_channel', async () => {
  const { mcp } = await server();
  assert.equal((await mcp.ok('signal_channel', { channel: 'py.done' })).result, "Channel 'py.done' signalled");
  assert.match((await mcp.ok('wait_for_channel', { channel: 'py.done', timeout: 10 })).result, /^Channel 'py.done' was signalled/);
  assert.match(
    await mcp.fails('wait_for_channel', { channel: 'never-signalled', timeout: 0.2 }),
    /wait-for timeout: channel 'never-signalled' was not signalled/,
  );
  assert.match(await mcp.fails('signal_channel', { channel: 'bad name' }), /not a valid channel name/);
});

test('python: LIBTMUX_MCP_WAIT_MAX_SECONDS holds every wait to its ceiling', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startPython(t, tmux.env, { LIBTMUX_MCP_WAIT_MAX_SECONDS: '1' });
  const wait = await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['never-printed'], timeout: 100 });
  assert.equal(wait.effective_timeout, 1);
  assert.equal(wait.outcome, 'timeout');
  const run = await mcp.ok('run_command', { pane_id: pane, command: 'sleep 30', timeout: 100 });
  assert.equal(run.effective_timeout, 1);
  assert.equal(run.timed_out, true);
  assert.match(await mcp.fails('wait_for_channel', { channel: 'never', timeout: 100 }), /within 1s/);
});

test('python: run_command suppress_history: true (and the default) keeps the command out of bash history, false lets bash record it', async (t) => {
  const tmux = privateTmux(t);
  const file = join(tmux.dir, 'history');
  // No HISTCONTROL: bash would record a space-prefixed line too, so only the frame's own deletion keeps it out.
  const pane = await tmux.start({ shell: `env HOME=${tmux.dir} HISTFILE=${file} HISTCONTROL= HISTSIZE=100 bash --norc --noprofile` });
  const mcp = await startPython(t, tmux.env);
  await tmux.typeAndWait(pane, 'echo user-line');
  assert.deepEqual((await mcp.ok('run_command', { pane_id: pane, command: 'echo suppressed-default' })).output, ['suppressed-default']);
  assert.deepEqual((await mcp.ok('run_command', { pane_id: pane, command: 'echo suppressed-explicit', suppress_history: true })).output, [
    'suppressed-explicit',
  ]);
  const kept = await mcp.ok('run_command', { pane_id: pane, command: 'echo kept-in-history; (exit 4)', suppress_history: false });
  assert.deepEqual(kept.output, ['kept-in-history']);
  assert.equal(kept.exit_status, 4);
  await tmux.typeAndWait(pane, 'history -w');
  const saved = readFileSync(file, 'utf8');
  assert.match(saved, /echo user-line/);
  assert.doesNotMatch(saved, /suppressed-(default|explicit)/, saved);
  // As the user would see it: bash has the shell integration (installed by the first run), so the command in its subshell.
  assert.match(saved, /^\( echo kept-in-history; \(exit 4\) \)$/m, saved);
  assert.doesNotMatch(saved, /tm[0-9a-f]{12}|integration\.bash/, saved);
});

test('python: LIBTMUX_SUPPRESS_HISTORY=0 makes run_command record commands unless suppress_history is true', async (t) => {
  const tmux = privateTmux(t);
  const file = join(tmux.dir, 'history');
  const pane = await tmux.start({ shell: `env HOME=${tmux.dir} HISTFILE=${file} HISTCONTROL= HISTSIZE=100 bash --norc --noprofile` });
  const mcp = await startPython(t, tmux.env, { LIBTMUX_SUPPRESS_HISTORY: '0' });
  const { tools } = await mcp.client.listTools();
  assert.equal(
    (tools.find((tool) => tool.name === 'run_command')!.inputSchema.properties as any).suppress_history.default,
    false,
    'the advertised default follows',
  );
  await mcp.ok('run_command', { pane_id: pane, command: 'echo recorded-by-default' });
  await mcp.ok('run_command', { pane_id: pane, command: 'echo suppressed-on-request', suppress_history: true });
  await tmux.typeAndWait(pane, 'history -w');
  const saved = readFileSync(file, 'utf8');
  assert.match(saved, /echo recorded-by-default/);
  assert.doesNotMatch(saved, /suppressed-on-request/, saved);
});
