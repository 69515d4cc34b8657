import assert from 'node:assert/strict';
import { test } from 'node:test';
import { symlinkSync } from 'node:fs';
import type { PrivateTmux } from '../../fixture/tmux.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { until } from '../../fixture/until.js';

/** Polls (each poll is one tmux process, no sleeping) until the pane's foreground program is `name`; 10 s at most. */
async function untilRunning(tmux: PrivateTmux, pane: string, name: string): Promise<void> {
  await until(
    `${pane} to run ${name}`,
    async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim() === name,
    10_000,
  );
}

/** One tmux server and one MCP server for the file: every test here makes ordinary calls on a session of its own. */
const server = sharedMcp();

async function setup(t: { after: (fn: () => Promise<void> | void) => void }, shell?: string) {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux, shell);
  return { tmux, pane, mcp };
}

test('run_shell_command: exit status, exact output, no echo or prompt', async (t) => {
  const { pane, mcp } = await setup(t);
  const ok = await mcp.ok('run_shell_command', { paneId: pane, command: "printf 'one\\ntwo\\n  three  \\n'; echo four" });
  assert.deepEqual(ok.output, ['one', 'two', '  three  ', 'four']);
  assert.equal(ok.exitStatus, 0);
  assert.equal(ok.timedOut, false);
  assert.equal(ok.linesMissed, false);
  assert.equal(ok.droppedLines, 0);
  assert.equal(ok.pane, pane);
  assert.match(ok.paneRef, /^tmux1_/);
  assert.equal(ok.effectiveTimeout, 30);

  const failed = await mcp.ok('run_shell_command', { paneId: pane, command: 'false' });
  assert.equal(failed.exitStatus, 1);
  assert.deepEqual(failed.output, []);

  // `exit` leaves the subshell, not the pane's shell: the pane keeps working.
  const exited = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo bye; exit 3', timeoutMs: 5000 });
  assert.equal(exited.exitStatus, 3);
  assert.deepEqual(exited.output, ['bye']);
  assert.equal(exited.effectiveTimeout, 5);
  const after = await mcp.ok('run_shell_command', { paneId: pane, command: 'cd /; export LEAK=1; pwd' });
  assert.deepEqual(after.output, ['/']);
  const state = await mcp.ok('run_shell_command', { paneId: pane, command: 'test -z "${LEAK+x}" && test "$PWD" != /' });
  assert.equal(state.exitStatus, 0, 'cd and export stay inside the subshell');
});

test('run_shell_command: echo of the marker text never counts as output', async (t) => {
  const { pane, mcp } = await setup(t);
  // Commands that mention the markers and the frame's own words.
  const r = await mcp.ok('run_shell_command', {
    paneId: pane,
    command: "echo '_S _E 0'; echo \"tm_E 0\"; printf '%s%s\\n' x _S # a comment",
  });
  assert.deepEqual(r.output, ['_S _E 0', 'tm_E 0', 'x_S']);
  assert.equal(r.exitStatus, 0);
  const partial = await mcp.ok('run_shell_command', { paneId: pane, command: 'printf no-newline' });
  assert.deepEqual(partial.output, ['no-newline'], 'output without a final newline ends on the marker line');
});

test('run_shell_command: unicode, long wrapped lines, multi-line commands and here-documents', async (t) => {
  const { pane, mcp } = await setup(t);
  const uni = await mcp.ok('run_shell_command', { paneId: pane, command: "echo 'héllo wörld 日本語 中文 🎉👍🏽'" });
  assert.deepEqual(uni.output, ['héllo wörld 日本語 中文 🎉👍🏽']);
  const long = 'x'.repeat(300) + 'END';
  const wrapped = await mcp.ok('run_shell_command', { paneId: pane, command: `printf '%s\\n' ${long}` });
  assert.deepEqual(wrapped.output, [long], 'a line the 120-column terminal wraps comes back whole');
  const multi = await mcp.ok('run_shell_command', {
    paneId: pane,
    command: 'for i in 1 2 3; do\n  echo "n=$i"\ndone\ncat <<EOF\nhere $((6*7))\nEOF\nfalse',
  });
  assert.deepEqual(multi.output, ['n=1', 'n=2', 'n=3', 'here 42']);
  assert.equal(multi.exitStatus, 1);
});

test('run_shell_command: maxLines keeps the newest lines and counts the rest', async (t) => {
  const { pane, mcp } = await setup(t);
  const r = await mcp.ok('run_shell_command', {
    paneId: pane,
    command: 'i=1; while [ $i -le 500 ]; do echo line$i; i=$((i+1)); done',
    maxLines: 10,
  });
  assert.equal(r.output.length, 10);
  assert.equal(r.output[9], 'line500');
  assert.equal(r.output[0], 'line491');
  assert.equal(r.droppedLines, 490);
});

test('run_shell_command: a timeout answers, the command keeps running, C-c makes the pane usable again', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  const r = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo started; sleep 30', timeoutMs: 300 });
  assert.equal(r.timedOut, true);
  assert.equal(r.exitStatus, null);
  assert.deepEqual(r.output, ['started']);
  assert.equal(r.effectiveTimeout, 0.3);
  assert.ok(r.seconds >= 0.3, `it waited out its timeout: ${r.seconds}`);
  // Still running: the pane shows sleep, and run_shell_command refuses it.
  const refusal = await mcp.fails('run_shell_command', { paneId: pane, command: 'true' });
  assert.match(refusal, /running "sleep"/);
  // A short wait hands out a cursor; the next wait resumes from it, so the prompt that C-c brings back cannot be missed.
  const mark = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['never printed'], timeoutMs: 100 });
  assert.equal(mark.outcome, 'timedOut');
  await tmux.tmux('send-keys', '-t', pane, 'C-c');
  // The shell prints its prompt (a line that is just "$ " or "# ") once it has the terminal back.
  const prompt = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['^[$#] $'], regex: true, cursor: mark.cursor, timeoutMs: 5000 });
  assert.equal(prompt.outcome, 'matched');
  const again = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo usable' });
  assert.deepEqual(again.output, ['usable']);
  assert.equal(again.exitStatus, 0);
});

test('run_shell_command: after a timeout, a command still running blocks the next run until it ends', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  // The subshell waits for tmux and then runs a builtin, so the pane's foreground program reads "sh":
  // only the unfinished frame tells that it is busy.
  const r = await mcp.call('run_shell_command', {
    paneId: pane,
    command: `tmux -S '${tmux.socketPath}' wait-for go; echo finished`,
    timeoutMs: 200,
  });
  assert.equal(r.structuredContent?.timedOut, true);
  const marker = /prints "(tm[0-9a-f]+_E) <status>"/.exec(r.content[0]!.text!)?.[1];
  assert.ok(marker, r.content[0]!.text);
  const refusal = await mcp.fails('run_shell_command', { paneId: pane, command: 'echo next' });
  assert.match(refusal, /has not finished/);
  assert.match(refusal, new RegExp(marker!));
  // Follow it to its end with wait_for_text: a cursor taken first makes the order irrelevant.
  const mark = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['no such text'], timeoutMs: 100 });
  await tmux.tmux('wait-for', '-S', 'go');
  const end = await mcp.ok('wait_for_text', { paneId: pane, patterns: [`${marker} `], cursor: mark.cursor, timeoutMs: 10_000 });
  assert.equal(end.outcome, 'matched');
  assert.ok(end.tail.includes('finished'), JSON.stringify(end.tail));
  const next = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo next' });
  assert.deepEqual(next.output, ['next']);
});

test('run_shell_command: refusals type nothing', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  await tmux.tmux('send-keys', '-t', pane, '-l', 'sleep 100\n');
  await untilRunning(tmux, pane, 'sleep');
  const busy = await mcp.fails('run_shell_command', { paneId: pane, command: 'echo MUST-NOT-APPEAR' });
  assert.match(busy, /running "sleep", not a shell/);
  assert.match(busy, /force/);
  await tmux.tmux('send-keys', '-t', pane, 'C-c');

  assert.match(await mcp.fails('run_shell_command', { paneId: pane, command: '   ' }), /command is empty/);
  assert.match(await mcp.fails('run_shell_command', { paneId: pane, command: 'echo a\tb' }), /tab/);
  assert.match(await mcp.fails('run_shell_command', { paneId: pane, command: 'echo \x03' }), /control character 0x03/);
  assert.match(await mcp.fails('run_shell_command', { paneId: pane, command: 'echo a \\' }), /backslash/);
  assert.match(await mcp.fails('run_shell_command', { paneId: '%999', command: 'true' }), /no pane %999/);

  // Copy mode swallows keys.
  await tmux.tmux('copy-mode', '-t', pane);
  assert.match(await mcp.fails('run_shell_command', { paneId: pane, command: 'echo MUST-NOT-APPEAR' }), /copy mode/);
  await tmux.tmux('send-keys', '-t', pane, '-X', 'cancel');

  // A csh-like shell is refused even with force (the binary is a renamed sh: tmux only sees its name).
  const csh = `${tmux.dir}/tcsh`;
  symlinkSync('/bin/sh', csh);
  // ENV=/dev/null: the session's rc file would run a `tmux` child after tcsh first shows as running.
  const cshPane = (await tmux.tmux('split-window', '-t', pane, '-P', '-F', '#{pane_id}', '-e', 'ENV=/dev/null', csh)).trim();
  await untilRunning(tmux, cshPane, 'tcsh');
  assert.match(await mcp.fails('run_shell_command', { paneId: cshPane, command: 'echo MUST-NOT-APPEAR', force: true }), /runs tcsh/);

  const screens = (await tmux.tmux('capture-pane', '-p', '-t', pane)) + (await tmux.tmux('capture-pane', '-p', '-t', cshPane));
  assert.ok(!screens.includes('MUST-NOT-APPEAR'), screens);
});

test('run_shell_command: works in bash too', async (t) => {
  const { tmux, pane, mcp } = await setup(t, 'bash --norc --noprofile');
  await tmux.typeAndWait(pane, 'true');
  const r = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo "$((2+3))"; (exit 7)' });
  assert.deepEqual(r.output, ['5']);
  assert.equal(r.exitStatus, 7);
});

test('run_shell_command: back-to-back runs each report their own exit status', async (t) => {
  const { pane, mcp } = await setup(t);
  for (let i = 0; i < 20; i++) {
    const r = await mcp.ok('run_shell_command', { paneId: pane, command: `echo run-${i}; (exit ${i % 3})` });
    assert.deepEqual(r.output, [`run-${i}`]);
    assert.equal(r.exitStatus, i % 3);
  }
});

test('run_shell_command: the shell dying mid-run is an error answer (the command never finished), not a hang', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  // $$ is the interactive shell even inside the subshell.
  await tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
  const dead = await mcp.fails('run_shell_command', { paneId: pane, command: 'echo going; kill -9 $$', timeoutMs: 30_000 });
  assert.match(dead, /exited before the command finished/);

  const other = (await tmux.tmux('split-window', '-t', pane, '-P', '-F', '#{pane_id}', 'sh')).trim();
  await tmux.tmux('set-option', '-p', '-t', other, 'remain-on-exit', 'off');
  await tmux.typeAndWait(other, 'true');
  const closed = await mcp.fails('run_shell_command', { paneId: other, command: 'kill -9 $$', timeoutMs: 30_000 });
  assert.match(closed, /went away/);
});

test('run_shell_command: cancelling the call interrupts the command it typed (C-c), and the pane is usable again', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  const controller = new AbortController();
  const call = mcp.client.callTool(
    // exec: the frame's subshell becomes sleep, so the pane's foreground program reads "sleep" while it runs.
    { name: 'run_shell_command', arguments: { paneId: pane, command: 'exec sleep 300', timeoutMs: 60_000 } },
    { signal: controller.signal },
  );
  const current = async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim();
  // Once sleep holds the terminal the command is running; then cancel the request.
  await until('the command to start', async () => (await current()) === 'sleep', 20_000);
  controller.abort();
  await assert.rejects(call);
  // The C-c ends sleep: the shell holds the terminal again.
  await until('the command to end after the cancel', async () => (await current()) !== 'sleep', 20_000);
  // The shell's prompt after the C-c counts as new output for a wait without a cursor.
  const prompt = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['^[$#] $'], regex: true, timeoutMs: 10_000 });
  assert.equal(prompt.outcome, 'matched');
  const next = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo next' });
  assert.deepEqual(next.output, ['next']);
});
