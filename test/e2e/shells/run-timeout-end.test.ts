/**
 * After a timeout, the answer names a wait that ends with that very command and
 * cannot match the echo of what was typed: in bash, zsh and fish a tmux channel the shell signals
 * when the command ends (wait_for_channel; a wait begun after the end returns at once), in framed
 * shells the end marker, which the echo of the frame does not contain. The exit status follows: in the
 * next run's answer and the pane option @tmux_mcp_end. Found and created panes, libtmux and python.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { combos, run, runPane, SHELLS, type RunPane } from '../../fixture/run-panes.js';
import { until } from '../../fixture/until.js';

const ended = async (p: RunPane) => (await p.tmux.tmux('capture-pane', '-p', '-t', p.pane)).includes('\nslept');

/** A python call that must succeed, as its text. */
async function pythonText(p: RunPane, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await p.mcp.call(name, args);
  const text = result.content.map((c) => c.text ?? '').join('\n');
  assert.ok(!result.isError, text);
  return text;
}

/** Waits as the timed-out answer advises; asserts the wait ended only once the command had. */
async function waitAsAdvised(p: RunPane, text: string): Promise<void> {
  const channel = /tmux-mcp-[0-9a-z]+-\d+/.exec(text)?.[0];
  const marker = /tm[0-9a-f]{12}_E/.exec(text)?.[0];
  if (p.shell === 'sh') assert.ok(marker, `the answer names the end marker: ${text}`);
  else assert.ok(channel, `the answer names the channel its end signals: ${text}`);
  if (channel) {
    if (p.python) await pythonText(p, 'wait_for_channel', { channel, timeout: 20 });
    else assert.equal((await p.mcp.ok('wait_for_channel', { channel, timeoutMs: 20_000 })).released, true);
  } else if (p.python) {
    assert.match(await pythonText(p, 'wait_for_text', { pane_id: p.pane, patterns: [marker], timeout: 20 }), /matched/);
  } else {
    assert.equal((await p.mcp.ok('wait_for_text', { paneId: p.pane, patterns: [marker], timeoutMs: 20_000 })).outcome, 'matched');
  }
  assert.ok(await ended(p), 'the wait ended only once the command had');
}

describe('after a timeout, a wait that ends with the command', { concurrency: 4 }, () => {
  for (const shell of SHELLS) {
    for (const [kind, profile] of combos(shell)) {
      test(`${profile}, ${shell}, a ${kind} pane: the advised wait ends with the command; its status follows`, async (t) => {
        const p = await runPane(t, shell, kind, profile);
        await run(p, 'echo warm');
        const slow = await run(p, 'sleep 1.5; echo slept; exit 3', 500);
        assert.equal(slow.timedOut, true, slow.text);
        await waitAsAdvised(p, slow.text);
        if (shell !== 'sh') assert.match(await p.tmux.tmux('show-options', '-pv', '-t', p.pane, '@tmux_mcp_end'), /^[0-9a-z]+\.\d+ 3 /);
        const next = await run(p, 'echo next');
        assert.deepEqual([next.exitStatus, next.output], [0, ['next']], next.text);
        if (shell !== 'sh') assert.match(next.text, /timed out on ended \d+ s ago with exit status 3/, next.text);

        // Waited for only after the command ended: the channel (or the marker on screen) answers at once.
        const late = await run(p, 'sleep 0.8; echo slept; exit 5', 300);
        assert.equal(late.timedOut, true, late.text);
        await p.tmux.tmux('clear-history', '-t', p.pane);
        await until('the command to end', () => ended(p));
        if (shell !== 'sh') {
          // The shell's end hook has run and this server has seen the end: a second signal before anyone
          // waits would make tmux forget the first, and this wait would never return.
          const end = () => p.tmux.tmux('show-options', '-pv', '-t', p.pane, '@tmux_mcp_end');
          await until('the end recorded', async () => / 5 /.test(await end()));
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        const begun = performance.now();
        await waitAsAdvised(p, late.text);
        assert.ok(performance.now() - begun < 5000, 'a wait begun after the end returns at once');
      });
    }
  }
});
