/**
 * --approve with `tmux-mcp call` in this process: on a terminal (stdin and stderr a TTY, given
 * here by script(1)) the question is put there and "y" runs the call, anything else refuses it
 * with that reason; with no terminal the call is refused at once (exit 1), naming the rule and
 * how to get approvals, and nothing is typed. A rule that does not parse is a usage error (exit 2).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';
import { neverTyped } from '../../fixture/approvals.js';

const RULE = 'text:rm\\s+-rf';

/** Runs `tmux-mcp call` with no terminal: stdin a closed pipe. */
function call(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'call', ...args], { env: scrubbedEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end();
  });
}

/** Runs `tmux-mcp call` on a pseudo-terminal (script(1)): answers `reply` once the question shows; resolves with the terminal's text and the exit status. */
function callOnTerminal(args: string[], env: NodeJS.ProcessEnv, reply: string): Promise<{ status: number | null; screen: string }> {
  const line = [process.execPath, CLI, 'call', ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', line, '/dev/null'], { env: scrubbedEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      if (!answered && screen.includes('Approve? [y/N')) {
        answered = true;
        child.stdin.write(`${reply}\r`);
      }
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, screen }));
  });
}

test('tmux-mcp call: with no terminal a call a rule meets is refused at once; a bad rule is a usage error', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const refused = await call(
    ['send_keys', JSON.stringify({ paneId: pane, keys: ['echo rm -rf no-tty-1'], literal: true, enter: true }), '--approve', RULE],
    tmux.env,
  );
  assert.equal(refused.status, 1);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, /send_keys needs a person's approval \(--approve text:rm\\s\+-rf\), and no one can be asked/);
  assert.match(
    refused.stderr,
    /Run tmux-mcp call on a terminal \(it asks there\), or send the call with --url to a server started with --view/,
  );
  await neverTyped(tmux, pane, 'no-tty-1');
  // A call no rule meets runs as ever.
  const plain = await call(
    ['send_keys', JSON.stringify({ paneId: pane, keys: ['echo fine-2'], literal: true, enter: true }), '--approve', RULE],
    tmux.env,
  );
  assert.equal(plain.status, 0, plain.stderr);

  const bad = await call(['list_sessions', '--approve', 'text:(unclosed'], tmux.env);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--approve: approval rule "text:\(unclosed": not a valid regular expression/);
});

test('tmux-mcp call on a terminal: asks there; "y" runs the call, a reason refuses it', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'agent' });
  const yes = await callOnTerminal(
    ['send_keys', JSON.stringify({ paneId: pane, keys: ['echo rm -rf tty-yes-1'], literal: true, enter: true }), '--approve', RULE],
    tmux.env,
    'y',
  );
  assert.equal(yes.status, 0, yes.screen);
  for (const fact of ['Approval needed: send_keys', `local:${pane} (session agent`, 'echo rm -rf tty-yes-1', `Rule: ${RULE}`])
    assert.ok(yes.screen.includes(fact), `${fact} in:\n${yes.screen}`);
  await until('the approved command ran', async () => /^rm -rf tty-yes-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));

  const no = await callOnTerminal(
    ['send_keys', JSON.stringify({ paneId: pane, keys: ['echo rm -rf tty-no-2'], literal: true, enter: true }), '--approve', RULE],
    tmux.env,
    'wrong pane',
  );
  assert.equal(no.status, 1, no.screen);
  assert.match(no.screen, /send_keys was denied by a person on the terminal \(--approve text:rm\\s\+-rf\): wrong pane; nothing was sent/);
  await neverTyped(tmux, pane, 'tty-no-2');
});
