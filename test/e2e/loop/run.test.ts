/**
 * run_shell_command in the everyday loop: a command the shell never started is told from
 * one that runs, and blocks the pane until the shell is back at a prompt (item 2); the frame stays
 * out of bash's history whatever HISTCONTROL says (item 8).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { until } from '../../fixture/until.js';

type T = { after: (fn: () => Promise<void> | void) => void };

/** One tmux server and one MCP server for the file: every test makes ordinary calls on a session (and with files in a folder) of its own. */
const server = sharedMcp();

async function setup(t: T, shell?: string) {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux, shell);
  return { tmux, pane, mcp };
}

test('run_shell_command: a shell waiting for more input answers NOT STARTED, and the pane takes no frame until C-c brings the prompt back', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  // Someone left an unterminated quote: the shell shows its continuation prompt.
  await tmux.tmux('send-keys', '-t', pane, '-l', 'echo "unterminated\n');
  await until('a continuation prompt', async () => /^> ?$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));

  const first = await mcp.call('run_shell_command', { paneId: pane, command: 'echo first', timeoutMs: 1000 });
  const r = first.structuredContent as any;
  assert.equal(r.timedOut, true);
  assert.equal(r.exitStatus, null);
  assert.deepEqual(r.output, []);
  const text = first.content[0]!.text!;
  assert.match(text, /^NOT STARTED/);
  assert.match(text, /waits for more input/);
  assert.match(text, /send_keys \["C-c"\]/);

  // The next frame is refused, and nothing is typed.
  const before = await tmux.tmux('capture-pane', '-p', '-t', pane);
  const refusal = await mcp.fails('run_shell_command', { paneId: pane, command: 'echo MUST-NOT-APPEAR' });
  assert.match(refusal, /never started/);
  assert.match(refusal, /C-c/);
  assert.equal(await tmux.tmux('capture-pane', '-p', '-t', pane), before);

  // C-c discards the pending input; once the shell prints its prompt the pane takes frames again.
  await mcp.ok('send_keys', { paneId: pane, keys: ['C-c'] });
  const prompt = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['^[$#] $'], regex: true, timeoutMs: 10_000 });
  assert.equal(prompt.outcome, 'matched');
  const back = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo back' });
  assert.deepEqual(back.output, ['back']);
  assert.equal(back.exitStatus, 0);
});

test('run_shell_command: a shell still in its rc file answers NOT STARTED, refuses the next frame, and runs the pending one once it starts', async (t) => {
  const { tmux, mcp } = await server();
  const dir = mkdtempSync(join(tmux.dir, 'case-'));
  // The rc blocks in a shell builtin (read from a FIFO) until the test lets it go, so the pane's
  // foreground program is the shell itself, as with a slow .bashrc, and no timing is involved.
  const fifo = join(dir, 'rc-gate');
  execFileSync('mkfifo', [fifo]);
  const rc = join(dir, 'slow.rc');
  writeFileSync(rc, `read _ < '${fifo}'\nPS1='$ '\n`);
  const { pane } = await ownSession(t, tmux, `env ENV='${rc}' sh`);
  await until(
    'the shell to start',
    async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim() === 'sh',
  );

  const first = await mcp.call('run_shell_command', { paneId: pane, command: 'echo first-$((6*7))', timeoutMs: 1000 });
  const r = first.structuredContent as any;
  assert.deepEqual([r.timedOut, r.exitStatus, r.output], [true, null, []]);
  const text = first.content[0]!.text!;
  assert.match(text, /^NOT STARTED/);
  assert.match(text, /still starting up/);
  const refusal = await mcp.fails('run_shell_command', { paneId: pane, command: 'echo MUST-NOT-RUN' });
  assert.match(refusal, /never started/);

  // The rc finishes: the shell reads what was typed meanwhile and runs the pending frame.
  writeFileSync(fifo, 'go\n');
  const ran = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['first-42'], timeoutMs: 30_000 });
  assert.equal(ran.outcome, 'matched');
  const next = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo next-$((6*7))', timeoutMs: 30_000 });
  assert.deepEqual([next.exitStatus, next.output], [0, ['next-42']]);
  assert.doesNotMatch((await mcp.ok('capture_pane', { paneId: pane })).lines.join('\n'), /MUST-NOT-RUN/);
});

test('run_shell_command: a command that started and runs past the deadline answers RUNNING', async (t) => {
  const { tmux, pane, mcp } = await setup(t);
  const r = await mcp.call('run_shell_command', {
    paneId: pane,
    command: `tmux -S '${tmux.socketPath}' wait-for go-run; echo done`,
    timeoutMs: 300,
  });
  assert.equal((r.structuredContent as any).timedOut, true);
  assert.match(r.content[0]!.text!, /^RUNNING/);
  const refusal = await mcp.fails('run_shell_command', { paneId: pane, command: 'echo next' });
  assert.match(refusal, /has not finished/);
  await tmux.tmux('wait-for', '-S', 'go-run');
  // Output since the command was typed counts for a wait without a cursor: its end marker cannot be missed.
  const marker = /prints "(tm[0-9a-f]+_E) <status>"/.exec(r.content[0]!.text!)![1]!;
  const end = await mcp.ok('wait_for_text', { paneId: pane, patterns: [`${marker} 0`], timeoutMs: 10_000 });
  assert.equal(end.outcome, 'matched');
});

/** bash with its history in `file` and the given HISTCONTROL; no rc files. */
function bash(file: string, histcontrol: string): string {
  return `env HISTFILE=${file} HISTCONTROL=${histcontrol} HISTSIZE=100 bash --norc --noprofile`;
}

for (const histcontrol of ['', 'ignorespace', 'ignoreboth']) {
  test(`run_shell_command: the frame stays out of bash history (HISTCONTROL=${JSON.stringify(histcontrol)}), the user's own lines stay in`, async (t) => {
    const { tmux, mcp } = await server();
    const file = join(mkdtempSync(join(tmux.dir, 'case-')), 'history');
    const { pane } = await ownSession(t, tmux, bash(file, histcontrol));
    await tmux.typeAndWait(pane, 'echo user-before');
    const r = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo framed-output' });
    assert.deepEqual(r.output, ['framed-output']);
    await tmux.typeAndWait(pane, 'echo user-after');
    await tmux.typeAndWait(pane, 'history -w');
    const saved = readFileSync(file, 'utf8');
    assert.doesNotMatch(saved, /framed-output|printf|tm[0-9a-f]{12}/, saved);
    assert.match(saved, /echo user-before/);
    assert.match(saved, /echo user-after/);
  });
}

/** A shell started with its own config and data dirs under `dir` (fish keeps its history in XDG_DATA_HOME), and a fixed prompt. */
function fishIn(dir: string): string {
  mkdirSync(join(dir, 'config', 'fish'), { recursive: true });
  // Present, so fish does not start a background job generating completions there (it would outlive the test).
  mkdirSync(join(dir, 'data', 'fish', 'generated_completions'), { recursive: true });
  writeFileSync(join(dir, 'config', 'fish', 'config.fish'), "set -g fish_greeting\nfunction fish_prompt; echo -n 'fish> '; end\n");
  return `env XDG_CONFIG_HOME=${join(dir, 'config')} XDG_DATA_HOME=${join(dir, 'data')} fish`;
}

test('run_shell_command in fish: a frame in fish syntax, output and exit status right, and the frame stays out of fish history', async (t) => {
  const { tmux, mcp } = await server();
  const dir = mkdtempSync(join(tmux.dir, 'case-'));
  const { pane } = await ownSession(t, tmux, fishIn(dir));
  await until(
    async () => 'fish to show its prompt: ' + (await tmux.tmux('capture-pane', '-p', '-t', pane)),
    async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('fish>'),
    30_000,
  );
  const ok = await mcp.ok('run_shell_command', {
    paneId: pane,
    command: 'set n (math 6 \\* 7)\necho fish-$n\nprintf "two\\nlines\\n"',
    timeoutMs: 30_000,
  });
  assert.deepEqual([ok.exitStatus, ok.output], [0, ['fish-42', 'two', 'lines']]);
  const failed = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo before-false; false', timeoutMs: 30_000 });
  assert.deepEqual([failed.exitStatus, failed.output], [1, ['before-false']]);
  await tmux.tmux('send-keys', '-t', pane, '-l', 'echo user-$status-line\n');
  await mcp.ok('wait_for_text', { paneId: pane, patterns: ['user-0-line'], timeoutMs: 30_000 });
  // fish writes its history file after each command; the user's line lands there, the frames never.
  const file = join(dir, 'data', 'fish', 'fish_history');
  await until(
    'fish to save the user line',
    () => existsSync(file) && readFileSync(file, 'utf8').includes('echo user-$status-line'),
    30_000,
  );
  assert.doesNotMatch(readFileSync(file, 'utf8'), /printf|tm[0-9a-f]{12}|fish-/);
});

/**
 * zsh has no way to delete a history entry (no `history -d`; the line is in the list before it
 * runs). The shell integration keeps the commands this server types out of it with a
 * zshaddhistory hook, whatever HIST_IGNORE_SPACE says; only the line that installed it in a found
 * zsh is saved, and only when HIST_IGNORE_SPACE is unset, zsh's default. This pins both cases.
 */
for (const ignoreSpace of [false, true]) {
  test(`run_shell_command in zsh: the command stays out of history with HIST_IGNORE_SPACE ${ignoreSpace ? 'set' : 'unset (the default; only the install line is saved)'}`, async (t) => {
    const { tmux, mcp } = await server();
    const file = join(mkdtempSync(join(tmux.dir, 'case-')), 'zsh_history');
    const { pane } = await ownSession(
      t,
      tmux,
      `env HISTFILE=${file} SAVEHIST=100 HISTSIZE=100 PS1='zsh> ' zsh -f${ignoreSpace ? ' -o histignorespace' : ''}`,
    );
    await until('zsh to show its prompt', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('zsh>'), 30_000);
    const r = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo zsh-$((6*7))', timeoutMs: 30_000 });
    assert.deepEqual([r.exitStatus, r.output], [0, ['zsh-42']]);
    await tmux.tmux('send-keys', '-t', pane, '-l', 'echo user-line; fc -W\n');
    await until('zsh to write its history', () => existsSync(file) && readFileSync(file, 'utf8').includes('echo user-line'), 30_000);
    const saved = readFileSync(file, 'utf8');
    assert.doesNotMatch(saved, /printf|tm[0-9a-f]{12}|zsh-/, saved);
    if (ignoreSpace) assert.doesNotMatch(saved, /integration\.zsh/, saved);
    else assert.match(saved, /^ \. '[^']+\/integration\.zsh' [0-9a-f]{12} \d+$/m, saved);
  });
}
