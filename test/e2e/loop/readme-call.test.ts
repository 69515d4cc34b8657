/**
 * The README's "A typical loop" with `tmux-mcp call`, one process per step, as the skill teaches it:
 * each wait counts from the last input any tmux-mcp process sent into the pane (kept in tmux), so it
 * gets the README's answers as a wait inside one server does (test/e2e/loop/readme.test.ts), also
 * under a scope; the mark it keeps in tmux never shows in an answer.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { type } from 'node:os';
import { test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { contractCheck } from '../../fixture/schema-check.js';
import { privateTmux, scrubbedEnv, TMUX_BIN } from '../../fixture/tmux.js';
import { runProgram } from '../../fixture/cli-run.js';

const check = contractCheck('libtmux');

/** One `tmux-mcp call`, a process of its own with stdin closed; its answer checked against the contract. */
async function call(env: NodeJS.ProcessEnv, tool: string, args: Record<string, unknown> = {}): Promise<any> {
  const run = await runProgram(process.execPath, [CLI, 'call', tool, JSON.stringify(args)], env, { stdin: 'ignore' });
  assert.equal(run.status, 0, `${tool} exited ${run.status}: ${run.stderr}`);
  assert.doesNotMatch(run.stdout + run.stderr, /tmux-mcp-input-mark/, 'the mark kept in tmux is not in any answer');
  const value = JSON.parse(run.stdout);
  check(tool, { structuredContent: value });
  return value;
}

async function readmeLoop(env: NodeJS.ProcessEnv): Promise<void> {
  // 1. A session, and its pane.
  await call(env, 'create_session', { name: 'work' });
  const { panes } = await call(env, 'list_panes', { session: 'work' });
  assert.equal(panes.length, 1);
  const pane = panes[0].id as string;

  // 2. A shell command, its output and exit status.
  const run = await call(env, 'run_shell_command', { paneId: pane, command: 'uname -s' });
  assert.deepEqual(run.output, [type()]);
  assert.equal(run.exitStatus, 0);

  // 3. A REPL, and its prompt: printed before the wait's process began, still new to it.
  await call(env, 'send_keys', { paneId: pane, keys: ['python3 -q', 'Enter'] });
  const ready = await call(env, 'wait_for_text', { paneId: pane, patterns: ['>>> '] });
  assert.equal(ready.outcome, 'matched', JSON.stringify(ready));
  assert.equal(ready.matchedAtEntry, false);

  // 4. The answer, however fast it came.
  await call(env, 'send_keys', { paneId: pane, keys: ['print(6*7)', 'Enter'] });
  const answer = await call(env, 'wait_for_text', { paneId: pane, patterns: ['42'] });
  assert.equal(answer.outcome, 'matched', JSON.stringify(answer));
  assert.ok(answer.tail.includes('42'), JSON.stringify(answer.tail));
  // A second wait, in yet another process, starts where that one stopped: the same 42 is not new.
  const again = await call(env, 'wait_for_text', { paneId: pane, patterns: ['42'], timeoutMs: 500 });
  assert.equal(again.outcome, 'timedOut', JSON.stringify(again));

  // 5. Following the pane with a capture_since cursor.
  const start = await call(env, 'capture_since', { paneId: pane });
  assert.deepEqual(start.lines, []);
  await call(env, 'send_keys', { paneId: pane, keys: ["print('ab' * 2)", 'Enter'] });
  const abab = await call(env, 'wait_for_text', { paneId: pane, patterns: ['abab'] });
  assert.equal(abab.outcome, 'matched', JSON.stringify(abab));
  const since = await call(env, 'capture_since', { paneId: pane, cursor: start.cursor });
  assert.deepEqual(since.lines, [">>> print('ab' * 2)", 'abab', '>>>']);

  // 6. Search.
  const found = await call(env, 'search_panes', { pattern: 'abab' });
  assert.ok(
    found.matches.some((m: { pane: string; text: string }) => m.pane === pane && m.text === 'abab'),
    JSON.stringify(found.matches),
  );

  // 7. Clean up.
  await call(env, 'kill_session', { session: 'work' });
  assert.deepEqual((await call(env, 'list_sessions')).sessions, []);
}

/** The private default socket, as the README's reader has it, kept in the test's temp dir. */
function readerEnv(
  t: Parameters<typeof privateTmux>[0] & { after: (fn: () => void) => void },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const tmux = privateTmux(t);
  const env = scrubbedEnv({ ...tmux.env, TMUX_TMPDIR: tmux.dir, ...extra });
  delete env.LIBTMUX_SOCKET_PATH;
  t.after(() => void spawnSync(TMUX_BIN, ['-L', 'libtmux-mcp', 'kill-server'], { env, stdio: 'ignore' }));
  return env;
}

test('README: a typical loop with tmux-mcp call, one process per step', async (t) => {
  await readmeLoop(readerEnv(t));
});

test('README: the same loop under a scope (--allow-session work), one process per step', async (t) => {
  await readmeLoop(readerEnv(t, { TMUX_MCP_ALLOW_SESSIONS: 'work' }));
});
