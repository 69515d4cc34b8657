/**
 * The shells and prompts people run, each through the typical loop (run, fail,
 * exit status, timeout and the wait that ends with it, interrupt, a REPL), in a pane found at its
 * prompt and one the server creates, through libtmux and python. bash with vi keys, a two-line
 * prompt, a PROMPT_COMMAND chain with direnv's hook, fzf's key bindings and powerline; zsh with
 * zsh-autosuggestions, zsh-syntax-highlighting, PROMPT_SUBST, pure (npm pure-prompt, async) and
 * powerlevel9k; fish with vi key bindings and its own prompt. The screen shows each command once and
 * no framing.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { KINDS, run, runPane, type Rc, type RunPane, type Shell } from '../../fixture/run-panes.js';
import { until } from '../../fixture/until.js';

const PURE = fileURLToPath(new URL('../../../node_modules/pure-prompt', import.meta.url));

interface Setup {
  readonly name: string;
  readonly shell: Shell;
  readonly rc: string;
  /** The prompt's last row, drawn: the shell is back at its prompt. */
  readonly prompt: RegExp;
}

const SETUPS: Setup[] = [
  { name: 'bash, set -o vi', shell: 'bash', rc: 'set -o vi', prompt: /b\$$/ },
  { name: 'bash, a two-line prompt', shell: 'bash', rc: `PS1='[\\w]\\nb2$ '`, prompt: /b2\$$/ },
  {
    name: "bash, a PROMPT_COMMAND chain with direnv's hook",
    shell: 'bash',
    rc: `eval "$(direnv hook bash)"\nPROMPT_COMMAND="mine=1;$PROMPT_COMMAND"`,
    prompt: /b\$$/,
  },
  { name: "bash, fzf's key bindings", shell: 'bash', rc: '. /usr/share/doc/fzf/examples/key-bindings.bash', prompt: /b\$$/ },
  { name: 'bash, powerline', shell: 'bash', rc: '. /usr/share/powerline/bindings/bash/powerline.sh', prompt: /\ue0b0$/ },
  { name: 'zsh, zsh-autosuggestions', shell: 'zsh', rc: '. /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh', prompt: /z%$/ },
  {
    name: 'zsh, zsh-syntax-highlighting',
    shell: 'zsh',
    rc: '. /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh',
    prompt: /z%$/,
  },
  { name: 'zsh, PROMPT_SUBST', shell: 'zsh', rc: `setopt PROMPT_SUBST\nPS1='$(echo zs)%% '`, prompt: /zs%$/ },
  {
    name: 'zsh, pure (async)',
    shell: 'zsh',
    rc: `fpath+=(${PURE})\nautoload -U promptinit; promptinit\nPURE_PROMPT_SYMBOL='P>'\nprompt pure`,
    prompt: /P>$/,
  },
  { name: 'zsh, powerlevel9k', shell: 'zsh', rc: '. /usr/share/powerlevel9k/powerlevel9k.zsh-theme', prompt: /\ue0b0/ },
  {
    name: 'fish, vi key bindings and its own prompt',
    shell: 'fish',
    rc: `fish_vi_key_bindings\nfunction fish_prompt; printf '%s f> ' (prompt_pwd); end`,
    prompt: /f>$/,
  },
];

/** The last row of the screen, once it is the prompt. */
async function backAtPrompt(p: RunPane, setup: Setup): Promise<string[]> {
  let rows: string[] = [];
  await until(
    () => `the prompt of ${setup.name}:\n${rows.join('\n')}`,
    async () => {
      rows = (await p.tmux.tmux('capture-pane', '-p', '-t', p.pane))
        .replace(/\s+$/, '')
        .split('\n')
        .map((row) => row.trimEnd());
      return setup.prompt.test(rows.at(-1) ?? '');
    },
    30_000,
  );
  return rows;
}

const sendKeys = (p: RunPane, keys: string, enter: boolean) =>
  p.python
    ? p.mcp.call('send_keys', { pane_id: p.pane, keys, enter, literal: !enter && keys !== 'C-c' ? true : false })
    : p.mcp.ok('send_keys', { paneId: p.pane, keys: enter ? [keys, 'Enter'] : [keys] });

async function waitFor(p: RunPane, pattern: string): Promise<void> {
  if (p.python) {
    const result = await p.mcp.call('wait_for_text', { pane_id: p.pane, patterns: [pattern], timeout: 20 });
    assert.match(result.content.map((c) => c.text ?? '').join('\n'), /matched/);
  } else assert.equal((await p.mcp.ok('wait_for_text', { paneId: p.pane, patterns: [pattern], timeoutMs: 20_000 })).outcome, 'matched');
}

async function waitForChannel(p: RunPane, text: string): Promise<void> {
  const channel = /tmux-mcp-[0-9a-z]+-\d+/.exec(text)?.[0];
  assert.ok(channel, text);
  if (p.python) {
    const result = await p.mcp.call('wait_for_channel', { channel, timeout: 20 });
    assert.ok(!result.isError, `${result.content.map((c) => c.text).join('\n')}\n${await p.tmux.tmux('capture-pane', '-p', '-t', p.pane)}`);
  } else assert.equal((await p.mcp.ok('wait_for_channel', { channel, timeoutMs: 20_000 })).released, true);
}

describe('the typical loop in the shells and prompts people run', { concurrency: 4 }, () => {
  SETUPS.forEach((setup, i) => {
    KINDS.forEach((kind, k) => {
      const profile = (i + k) % 2 === 0 ? 'libtmux' : 'python';
      test(`${setup.name}, a ${kind} pane, ${profile}: run, fail, exit status, timeout, interrupt, a REPL`, async (t) => {
        const rc: Rc = { [setup.shell]: setup.rc };
        const p = await runPane(t, setup.shell, kind, profile, rc, { prompt: setup.prompt });
        const own = async (command: string, status: number, output: string[]) => {
          const ran = await run(p, command);
          assert.deepEqual({ command, status: ran.exitStatus, output: ran.output }, { command, status, output }, ran.text);
        };
        await own('echo hello', 0, ['hello']);
        await own('false', 1, []);
        await own('echo bye; exit 3', 3, ['bye']);

        // Timeout, and the wait that ends with the command.
        // Timeouts leave room for the prompt hooks (powerline's, pure's) that run before a command is typed.
        const slow = await run(p, 'sleep 2.5; echo slept', 1500);
        assert.equal(slow.timedOut, true, slow.text);
        await waitForChannel(p, slow.text);
        await own('echo after-timeout', 0, ['after-timeout']);

        // Interrupt: a command stopped with C-c leaves the pane ready for the next.
        const long = await run(p, 'sleep 30', 1500);
        assert.equal(long.timedOut, true, long.text);
        await sendKeys(p, 'C-c', false);
        await backAtPrompt(p, setup);
        await own('echo after-interrupt', 0, ['after-interrupt']);

        // A REPL started by a run: typed into with send_keys, answered through wait_for_text.
        const repl = await run(p, 'python3 -q', 2000);
        assert.equal(repl.timedOut, true, repl.text);
        await waitFor(p, '>>>');
        await sendKeys(p, '6*7', true);
        await waitFor(p, '42');
        await sendKeys(p, 'exit()', true);
        await backAtPrompt(p, setup);
        await own('echo after-repl', 0, ['after-repl']);

        // The screen, and the scrollback above it (where a found pane's install line may stay, erased from the screen).
        const screen = (await backAtPrompt(p, setup)).join('\n');
        assert.doesNotMatch(screen, /tm[0-9a-f]{12}|integration\.|9999~|9998~|\^\[/, screen);
        const rows = await p.tmux.tmux('capture-pane', '-p', '-S', '-', '-t', p.pane);
        for (const word of ['echo hello', 'echo after-timeout', 'echo after-repl'])
          assert.equal(rows.split(word).length - 1, 1, `${word} shown once:\n${rows}`);
        assert.doesNotMatch(rows, /tm[0-9a-f]{12}|9999~|9998~|\^\[/, rows);
      });
    });
  });
});
