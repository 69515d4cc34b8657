/**
 * A command is typed only once the shell sits at its prompt
 * with its hooks finished, so it shows once, never echoed a second time by the terminal. Behind prompt
 * hooks that take 400 ms and print (as starship, pyenv or `PROMPT_COMMAND=echo` do), in panes found
 * and created, with two busy loops taking the machine's cores; a found shell that is busy when the
 * first run comes gets its install line only at its prompt; panes fresh from create_session take a
 * run from a new `tmux-mcp call` process each, clean from that first call.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { combos, run, runPane, settledScreen, SHELLS } from '../../fixture/run-panes.js';
import { privateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';

const runFile = promisify(execFile);

/** An rc file that takes half a second (bash, zsh), and hooks that print, then take 400 ms, before each prompt. */
const SLOW = {
  // In the shell itself (a read that times out on a FIFO nobody writes), as a hook doing shell work would.
  bash: `sleep 0.5\n[ -p ~/.hook-fifo ] || mkfifo ~/.hook-fifo\nPROMPT_COMMAND='echo hook-printed; read -t 0.4 <> ~/.hook-fifo'`,
  zsh: `sleep 0.5\n[ -p ~/.hook-fifo ] || mkfifo ~/.hook-fifo\nprecmd() { echo hook-printed; read -t 0.4 <> ~/.hook-fifo }`,
  fish: `function slow --on-event fish_prompt; echo hook-printed; sleep 0.4; end`,
};

/** Two busy loops (one per core), for as long as this file runs. */
let hogs: ReturnType<typeof spawn>[] = [];
before(() => {
  hogs = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
});
after(() => {
  for (const hog of hogs) hog.kill('SIGKILL');
});

/** How many rows of the screen show `command` (typed once: one). */
const shownRows = (rows: string[], command: string) => rows.filter((row) => row.includes(command)).length;

describe('under load and behind slow prompt hooks, a command is typed once the prompt is drawn', { concurrency: 4 }, () => {
  for (const shell of SHELLS.filter((s) => s !== 'sh')) {
    for (const [kind, profile] of combos(shell)) {
      test(`${profile}, ${shell}, a ${kind} pane: each command shows once and answers for itself`, async (t) => {
        const p = await runPane(t, shell, kind, profile, { [shell]: SLOW[shell as keyof typeof SLOW] });
        for (const [command, status, output] of [
          ['echo one', 0, ['one']],
          ['echo two; false', 1, ['two']],
          ['echo three', 0, ['three']],
        ] as const) {
          const ran = await run(p, command);
          assert.deepEqual({ command, status: ran.exitStatus, output: ran.output }, { command, status, output: [...output] }, ran.text);
        }
        const rows = await settledScreen(p);
        for (const word of ['echo one', 'echo two', 'echo three'])
          assert.equal(shownRows(rows, word), 1, `${word} shown once:\n${rows.join('\n')}`);
        assert.ok(shownRows(rows, 'hook-printed') >= 3, rows.join('\n'));
        assert.doesNotMatch(rows.join('\n'), /integration\.|9999~|9998~|\^\[/, rows.join('\n'));
      });
    }
  }

  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    test(`libtmux, ${shell}, a found pane busy when the first run comes: the install line waits for the prompt and leaves nothing`, async (t) => {
      const p = await runPane(t, shell, 'found', 'libtmux');
      await p.tmux.tmux('send-keys', '-t', p.pane, '-l', 'sleep 0.7; echo busy-done');
      await p.tmux.tmux('send-keys', '-t', p.pane, 'Enter');
      const ran = await run(p, 'echo first');
      assert.deepEqual([ran.exitStatus, ran.output], [0, ['first']], ran.text);
      const rows = await settledScreen(p);
      assert.equal(shownRows(rows, 'echo first'), 1, rows.join('\n'));
      assert.doesNotMatch(rows.join('\n'), /integration\.|tmux-mcp/, rows.join('\n'));
    });
  }

  test('fresh panes from create_session, each first run from a new `tmux-mcp call`: the command shows once', async (t) => {
    const tmux = privateTmux(t);
    await tmux.start();
    await tmux.tmux('set-option', '-g', 'default-shell', '/bin/bash');
    const call = (tool: string, args: object) =>
      runFile(process.execPath, [CLI, 'call', tool, JSON.stringify(args)], { env: tmux.env, timeout: 60_000 });
    const names = ['f1', 'f2', 'f3'];
    await Promise.all(names.map((name) => call('create_session', { name })));
    const panes = await Promise.all(names.map(async (name) => (await tmux.tmux('display-message', '-p', '-t', name, '#{pane_id}')).trim()));
    await Promise.all(names.map((name, i) => call('run_shell_command', { paneId: panes[i], command: `echo fresh-${name}` })));
    for (const name of names) {
      let rows: string[] = [];
      await until(
        () => `the prompt back in ${name}:\n${rows.join('\n')}`,
        async () => {
          rows = (await tmux.tmux('capture-pane', '-p', '-t', `${name}:0.0`)).replace(/\s+$/, '').split('\n');
          return rows.some((row) => row === `fresh-${name}`) && /[$#] ?$/.test(rows.at(-1)!);
        },
      );
      assert.equal(shownRows(rows, `echo fresh-${name}`), 1, rows.join('\n'));
    }
  });
});
