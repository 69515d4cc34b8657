/**
 * A timed-out python run_command says how to learn the command's exit
 * status later, and explains the end marker a framed pane prints; the next run reports the status.
 * A run a moment after C-c (the program still printing its last words) waits for the prompt
 * instead of being refused; a refusal gives the advice in the profile's own syntax.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { privateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { until } from '../../fixture/until.js';
import { alive } from '../../fixture/processes.js';

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((c) => c.text ?? '').join('\n');

for (const shell of ['sh', 'bash'] as const) {
  test(`python, ${shell}: a timed-out run_command says how to learn the exit status; the next run reports it`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start(shell === 'bash' ? { shell: 'env PS1="$ " bash --norc --noprofile' } : {});
    const mcp = await startPython(t, tmux.env);
    await mcp.ok('run_command', { pane_id: pane, command: 'true' });
    const slow = await mcp.call('run_command', { pane_id: pane, command: 'sleep 1; sh -c "exit 4"', timeout: 0.2 });
    assert.ok(!slow.isError, text(slow));
    assert.equal((slow.structuredContent as { timed_out: boolean }).timed_out, true);
    const note = text(slow);
    assert.match(note, /exit status/, note);
    if (shell === 'sh') assert.match(note, /tm[0-9a-f]{12}_E <status>" \(this server's end marker; the number is its exit status\)/, note);
    else assert.match(note, /the next run_command in this pane then reports its exit status/, note);
    // Once it ended (refused until then), the next run says how it ended.
    const next = await until(
      'the timed-out command to end',
      async () => {
        const answer = await mcp.call('run_command', { pane_id: pane, command: 'echo next' });
        return !text(answer).includes('has not finished') && answer;
      },
      10_000,
    );
    assert.ok(!next.isError, text(next));
    assert.match(text(next), /The command an earlier run_command timed out on ended \d+ s ago with exit status 4\./, text(next));
  });
}

for (const profile of ['python', 'libtmux'] as const) {
  test(`${profile}, bash: the next run reports a timed-out command's exit status while the stream still lags behind the shell`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ shell: 'env PS1="$ " bash --norc --noprofile' });
    const python = profile === 'python';
    const mcp = python ? await startPython(t, tmux.env) : await startMcp(t, { env: tmux.env });
    const run = (command: string, seconds: number) =>
      python
        ? mcp.call('run_command', { pane_id: pane, command, timeout: seconds })
        : mcp.call('run_shell_command', { paneId: pane, command, timeoutMs: seconds * 1000 });
    assert.ok(!(await run('true', 10)).isError);
    // It floods once the call has timed out; the server is stopped meanwhile, so its stream of the
    // pane is a flood behind when the shell is back at its prompt and the next call comes.
    const slow = await run(`sleep 1; head -c 3000000 /dev/zero | tr '\\0' x | fold -w 200; echo flood-$((1+1))-done; sh -c "exit 4"`, 0.2);
    assert.ok(!slow.isError, text(slow));
    const pid = (mcp.client.transport as StdioClientTransport).pid!;
    process.kill(pid, 'SIGSTOP');
    t.after(() => void (alive(pid) && process.kill(pid, 'SIGCONT')));
    await untilScreen(tmux, pane, 'flood-2-done', 60_000);
    await untilCommand(tmux, pane, 'bash');
    process.kill(pid, 'SIGCONT');
    const next = await run('echo next', 30);
    assert.ok(!next.isError, text(next));
    assert.match(text(next), /an earlier (run_command|call) timed out on ended \d+ s ago with exit status 4/, text(next));
  });

  test(`${profile}: a run a moment after C-c, while the program still prints its last words, waits for the prompt instead of being refused`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const mcp = profile === 'python' ? await startPython(t, tmux.env) : await startMcp(t, { env: tmux.env });
    // A program that takes a moment to exit after C-c, as a REPL or a server printing its last words.
    const script = join(tmux.dir, 'slow-exit.py');
    writeFileSync(
      script,
      'import time\ntry:\n  print("ready", flush=True)\n  while True: time.sleep(0.05)\nexcept KeyboardInterrupt:\n  print("bye", flush=True); time.sleep(0.5)\n',
    );
    await tmux.tmux('send-keys', '-t', pane, '-l', `python3 ${script}\n`);
    await untilScreen(tmux, pane, 'ready');
    await tmux.tmux('send-keys', '-t', pane, 'C-c');
    await untilScreen(tmux, pane, 'bye');
    const after =
      profile === 'python'
        ? await mcp.call('run_command', { pane_id: pane, command: 'echo back', timeout: 10 })
        : await mcp.call('run_shell_command', { paneId: pane, command: 'echo back', timeoutMs: 10_000 });
    assert.ok(!after.isError, text(after));
  });
}

test("a refusal of a pane running a program advises C-c in the profile's own syntax (python: send_keys with keys and enter false)", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const python = await startPython(t, tmux.env);
  const libtmux = await startMcp(t, { env: tmux.env });
  await tmux.tmux('send-keys', '-t', pane, '-l', 'sleep 30\n');
  await untilCommand(tmux, pane, 'sleep');
  const refused = await python.call('run_command', { pane_id: pane, command: 'echo no' });
  assert.ok(refused.isError);
  assert.match(text(refused), /send_keys with keys: "C-c", enter: false/, text(refused));
  assert.doesNotMatch(text(refused), /send_keys \["C-c"\]/);
  const refusedLibtmux = await libtmux.call('run_shell_command', { paneId: pane, command: 'echo no' });
  assert.match(text(refusedLibtmux), /send_keys \["C-c"\]/);
  await tmux.tmux('send-keys', '-t', pane, 'C-c');
});

async function untilScreen(tmux: { tmux(...args: string[]): Promise<string> }, pane: string, needle: string, ms = 10_000): Promise<void> {
  await until(`${pane} to show ${needle}`, async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes(needle), ms);
}

async function untilCommand(tmux: { tmux(...args: string[]): Promise<string> }, pane: string, name: string): Promise<void> {
  await until(
    `${pane} to run ${name}`,
    async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim() === name,
    10_000,
  );
}
