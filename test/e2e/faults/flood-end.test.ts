/**
 * Under a flood the watch saw a command's end seconds after tmux had it, because tmux holds
 * output for a control client that reads slower than the pane prints. Here the server cannot read at
 * all while a pane floods (SIGSTOP until tmux's own screen shows the end), so when it resumes its
 * stream is a whole flood behind: run_shell_command must take the end from the screen, with the
 * right exit status and last line, instead of reading through the backlog first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startMcp } from '../../fixture/mcp.js';
import { clientsAfterExit, privateTmux } from '../../fixture/tmux.js';
import { alive } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';

for (const shell of ['sh', 'bash'] as const) {
  test(`a flood the server could not read meanwhile (${shell}${shell === 'bash' ? ', shell integration: the end from the pane option' : ', framed'}): run_shell_command takes the end off the screen, status and last line right`, {
    timeout: 600_000,
  }, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start(shell === 'bash' ? { shell: 'env PS1="$ " bash --norc --noprofile' } : {});
    const mcp = await startMcp(t, { env: tmux.env });
    // bash: the first run installs the shell integration, so the flood's end comes from the pane option it leaves.
    if (shell === 'bash') assert.equal((await mcp.ok('run_shell_command', { paneId: pane, command: 'true' })).exitStatus, 0);
    const pid = (mcp.client.transport as StdioClientTransport).pid!;
    t.after(() => void (alive(pid) && process.kill(pid, 'SIGCONT')));
    const command = "head -c 20000000 /dev/zero | tr '\\0' 'x' | fold -w 200; echo; echo flood-$((1+1))-done";
    const running = mcp.call('run_shell_command', { paneId: pane, command, timeoutMs: 300_000, maxLines: 5 }, { timeout: 400_000 });

    const screen = () => tmux.tmux('capture-pane', '-p', '-t', pane);
    await until('the flood to start', async () => (await screen()).includes('x'.repeat(100)), 60_000);
    process.kill(pid, 'SIGSTOP');
    // tmux itself reads the flood to its end meanwhile, and keeps what the stopped server did not take.
    await until('the flood to end', async () => (await screen()).includes('flood-2-done'), 240_000);
    process.kill(pid, 'SIGCONT');

    const answer = await running;
    const text = answer.content.map((c) => c.text ?? '').join('\n');
    assert.ok(!answer.isError, text);
    const result = answer.structuredContent as { exitStatus: number; output: string[]; timedOut: boolean };
    assert.equal(result.timedOut, false);
    assert.equal(result.exitStatus, 0);
    assert.equal(result.output.at(-1), 'flood-2-done');
    assert.match(text, /the end was read off the screen/);

    // The pane takes the next command at once, and the stream's backlog does not count as new output for it.
    const next = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo after-$((40+2))', timeoutMs: 120_000 });
    assert.deepEqual([next.exitStatus, next.output], [0, ['after-42']]);
    await mcp.close();
    assert.equal(await clientsAfterExit(tmux), '');
  });
}
