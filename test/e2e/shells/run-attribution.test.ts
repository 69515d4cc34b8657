/**
 * A run's answer is tied to the very line the server typed, never counted. An empty
 * Enter, a line a person typed while the shell was busy, a person's own command, and marks a command
 * replays from an earlier run never answer a call; a line the shell runs before the server's is named
 * in the answer. bash, zsh, fish and sh; found and created panes; libtmux and python.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { combos, PROMPT, run, runPane, SHELLS, type RunPane } from '../../fixture/run-panes.js';
import { until } from '../../fixture/until.js';

/** A prompt hook that prints, then takes 400 ms (starship, pyenv, `PROMPT_COMMAND=echo` do as much). */
const SLOW = {
  // In the shell itself (a read that times out on a FIFO nobody writes), as a hook doing shell work would.
  bash: `[ -p ~/.hook-fifo ] || mkfifo ~/.hook-fifo\nPROMPT_COMMAND='echo hook-printed; read -t 0.4 <> ~/.hook-fifo'`,
  zsh: `[ -p ~/.hook-fifo ] || mkfifo ~/.hook-fifo\nprecmd() { echo hook-printed; read -t 0.4 <> ~/.hook-fifo }`,
  fish: `function slow --on-event fish_prompt; echo hook-printed; sleep 0.4; end`,
};

/** Types as a person would (tmux send-keys), not through the server. */
const person = (p: RunPane, ...keys: string[]) => p.tmux.tmux('send-keys', '-t', p.pane, ...keys);
const screen = async (p: RunPane) => (await p.tmux.tmux('capture-pane', '-p', '-t', p.pane)).replace(/\s+$/, '');

/** Until the pane shows `text` on its last row (the prompt back after a person's command). */
const settles = (p: RunPane, text: string) =>
  until(`${JSON.stringify(text)} then the prompt in ${p.pane}`, async () => {
    const rows = (await screen(p)).split('\n');
    return rows.some((row) => row.trimEnd() === text) && rows.at(-1)!.trimEnd() === PROMPT[p.shell].trimEnd();
  });

describe('a run answers for its own line', { concurrency: 4 }, () => {
  for (const shell of SHELLS) {
    for (const [kind, profile] of combos(shell)) {
      test(`${profile}, ${shell}, a ${kind} pane: an empty Enter, a line typed ahead, a person's command, replayed marks`, async (t) => {
        // Behind a prompt hook that prints and then takes 400 ms: what a person types right after an answer lands while it runs.
        const p = await runPane(t, shell, kind, profile, SLOW);
        const own = async (command: string, status: number, output: string[]) => {
          const ran = await run(p, command);
          assert.deepEqual({ command, status: ran.exitStatus, output: ran.output }, { command, status, output }, ran.text);
          return ran;
        };
        await own('echo one', 0, ['one']);

        // An empty Enter right after an answer, while the shell still runs its prompt hook.
        await person(p, 'Enter');
        await own('echo two; false', 1, ['two']);
        await own('echo three', 0, ['three']);

        // A line a person types while the shell is busy (in its hook): it runs first; the answer is still this line's.
        await person(p, '-l', 'echo typed-ahead');
        await person(p, 'Enter');
        await own('echo four', 0, ['four']);

        // A person runs a command of their own at the prompt just before a call.
        await settles(p, 'four');
        await person(p, '-l', 'echo by-person');
        await person(p, 'Enter');
        await own('echo five', 0, ['five']);
        await own('echo six', 0, ['six']);

        // A command that prints marks of earlier runs of this shell (a log of the pane) is not ended by them.
        if (shell !== 'sh') {
          const [, , nonce] = (await p.tmux.tmux('display-message', '-p', '-t', p.pane, '#{@tmux_mcp_shell}')).trim().split(' ');
          assert.match(nonce ?? '', /^[0-9a-z]+$/);
          const marks = [1, 2, 3]
            .map(
              (n) =>
                `\\033]133;C;tmcp=${nonce}.${n};d=1-1\\007\\033]133;D;7;tmcp=${nonce}.${n};d=1-1\\007\\033]133;A;tmcp=${nonce}.${n};s=7;r=1-1\\007`,
            )
            .join('');
          await own(`printf '${marks}'; echo replayed`, 0, ['replayed']);
        } else {
          await own("printf 'tm000000000000_E 7\\n'; echo replayed", 0, ['tm000000000000_E 7', 'replayed']);
        }
        await own('echo seven', 0, ['seven']);
        const rows = await p.tmux.tmux('capture-pane', '-p', '-S', '-', '-t', p.pane);
        assert.match(rows, /by-person/);
        assert.match(rows, /typed-ahead/);
      });
    }

    // With force, a call typed while another line waits in the shell's input queues behind it, and says so.
    test(`libtmux, ${shell}: a line queued behind another one the shell runs first is named in the answer`, async (t) => {
      const p = await runPane(t, shell, 'found', 'libtmux');
      await run(p, 'echo ready');
      await person(p, '-l', 'sleep 5');
      await person(p, 'Enter');
      await person(p, '-l', 'echo typed-ahead');
      await person(p, 'Enter');
      const result = await p.mcp.call('run_shell_command', { paneId: p.pane, command: 'echo mine', timeoutMs: 20_000, force: true });
      const text = result.content.map((c) => c.text ?? '').join('\n');
      const s = result.structuredContent as { exitStatus: number; output: string[] };
      assert.deepEqual([s.exitStatus, s.output], [0, ['mine']], text);
      if (shell !== 'sh') assert.match(text, /ran 1 other command line before this one/, `${text}\n---\n${await screen(p)}`);
    });
  }
});
