/**
 * run_shell_command (libtmux) and run_command (python) leave the pane as a person would:
 * the prompt, the command as typed, its output, the next prompt. bash, zsh and fish with a
 * temporary HOME whose rc files set a prompt and a hook of the user's own (which must keep
 * running); panes found at their prompt (the first run installs the integration) and panes the
 * server creates (clean from the first run, nothing typed). The screen is read back with
 * capture_pane through the SDK client.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { allToolArgs, startJulia } from '../../fixture/julia.js';
import { until } from '../../fixture/until.js';

type Shell = 'bash' | 'zsh' | 'fish';
const SHELLS: Shell[] = ['bash', 'zsh', 'fish'];
const PROMPT: Record<Shell, string> = { bash: 'b$ ', zsh: 'z% ', fish: 'f> ' };

/** A HOME whose rc files set a plain prompt, a history file, and a hook of the user's own counting prompts in $ucount. */
function home(tmux: PrivateTmux, shell: Shell): string {
  const dir = mkdtempSync(join(tmux.dir, `home-${shell}-`));
  writeFileSync(join(dir, '.bash_profile'), '. ~/.bashrc\n');
  writeFileSync(
    join(dir, '.bashrc'),
    `PS1='${PROMPT.bash}'\nHISTFILE=~/.hist\nHISTCONTROL=\nucount=0\nPROMPT_COMMAND='ucount=$((ucount+1))'\n`,
  );
  writeFileSync(
    join(dir, '.zshrc'),
    `PS1='z%% '\nHISTFILE=~/.hist\nSAVEHIST=100\nHISTSIZE=100\nucount=0\nprecmd() { ucount=$((ucount+1)) }\n`,
  );
  mkdirSync(join(dir, '.config', 'fish'), { recursive: true });
  writeFileSync(
    join(dir, '.config', 'fish', 'config.fish'),
    `set -g fish_greeting\nfunction fish_prompt; printf '${PROMPT.fish}'; end\nset -q ucount; or set -gx ucount 0\nfunction __ucount --on-event fish_prompt; set -gx ucount (math $ucount + 1); end\n`,
  );
  return dir;
}

/** The pane's screen through capture_pane, once its shell drew the prompt after the last command (a few ms after the answer). */
const screen = async (mcp: McpSession, pane: string, python: boolean, prompt: string): Promise<string> => {
  let text = '';
  await until('the pane to settle', async () => (text = await captureText(mcp, pane, python)).endsWith(prompt.trimEnd()));
  return text;
};

const captureText = async (mcp: McpSession, pane: string, python: boolean): Promise<string> => {
  const result = await mcp.call('capture_pane', python ? { pane_id: pane } : { paneId: pane });
  assert.ok(!result.isError);
  const text = python
    ? result.content.map((c) => c.text ?? '').join('\n')
    : String((result.structuredContent as { text?: string } | undefined)?.text ?? result.content.map((c) => c.text ?? '').join('\n'));
  return text.replace(/\s+$/, '');
};

const run = (mcp: McpSession, python: boolean, pane: string, command: string) =>
  python
    ? mcp
        .ok('run_command', { pane_id: pane, command, timeout: 20 })
        .then((r) => ({ exitStatus: r.exit_status as number, output: r.output as string[] }))
    : mcp.ok('run_shell_command', { paneId: pane, command, timeoutMs: 20_000 });

/** The command as the pane shows it: in its subshell, `( ... )` in bash and zsh, a child fish in fish. */
const shown = (shell: Shell, command: string) => (shell === 'fish' ? `fish -c '${command.replace(/[\\']/g, '\\$&')}'` : `( ${command} )`);

/** What a person sees after typing `command` at `prompt`: that line and the output, and the prompt again. */
const NO_FRAMING = /tm[0-9a-f]{12}|_S\b|_E \d|history -d|command printf|tmux-mcp|integration\.(bash|zsh|fish)/;

for (const shell of SHELLS) {
  for (const python of [false, true]) {
    const profile = python ? 'python' : 'libtmux';
    test(`${profile}, ${shell}, a found pane: after the first run only the command and its output show; status, history, the user's hook`, async (t) => {
      const tmux = privateTmux(t);
      const dir = home(tmux, shell);
      const pane = await tmux.start({ shell: `env HOME=${dir} ${shell} -l` });
      const mcp = python ? await startPython(t, tmux.env) : await startMcp(t, { env: tmux.env });
      await until('the pane to settle', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes(PROMPT[shell].trim()));

      const first = await run(mcp, python, pane, 'echo first');
      assert.deepEqual([first.exitStatus, first.output], [0, ['first']]);
      await tmux.tmux('clear-history', '-t', pane);
      await tmux.tmux('send-keys', '-t', pane, 'C-l');
      await until('the pane to settle', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).trim() === PROMPT[shell].trim());

      const second = await run(mcp, python, pane, "printf 'a b\\n  c\\n'; sh -c 'exit 3'");
      assert.deepEqual([second.exitStatus, second.output], [3, ['a b', '  c']]);
      const third = await run(mcp, python, pane, 'echo "hook ran: $ucount"');
      assert.equal(third.exitStatus, 0);
      assert.match(third.output[0] ?? '', /^hook ran: [1-9]\d*$/, "the user's own prompt hook still runs");
      const seen = await screen(mcp, pane, python, PROMPT[shell]);
      assert.doesNotMatch(seen, NO_FRAMING, seen);
      const p = PROMPT[shell].trimEnd();
      const expected = [
        `${p}  ${shown(shell, "printf 'a b\\n  c\\n'; sh -c 'exit 3'")}`,
        'a b',
        '  c',
        `${p}  ${shown(shell, 'echo "hook ran: $ucount"')}`,
        third.output[0],
        p,
      ];
      assert.deepEqual(
        seen.split('\n').map((l) => l.trimEnd()),
        expected,
        seen,
      );

      // Several lines are one command line (a bracketed paste): one status, all the output.
      const lines = await run(mcp, python, pane, 'echo one\necho two\nfalse');
      assert.deepEqual([lines.exitStatus, lines.output], [1, ['one', 'two']]);
      const flood = await run(mcp, python, pane, 'seq 1 200000');
      assert.equal(flood.exitStatus, 0);
      assert.equal(flood.output.at(-1), '200000');
      const after = await run(mcp, python, pane, 'echo after-flood');
      assert.deepEqual([after.exitStatus, after.output], [0, ['after-flood']]);

      // History: the commands typed by the server stay out (bash and zsh write ~/.hist; fish never saves a line with a leading space).
      await tmux.tmux(
        'send-keys',
        '-t',
        pane,
        '-l',
        shell === 'fish' ? 'history save; echo saved\n' : shell === 'bash' ? 'history -a; echo saved\n' : 'fc -AI; echo saved\n',
      );
      await until('the pane to settle', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('\nsaved'));
      const file = shell === 'fish' ? join(dir, '.local', 'share', 'fish', 'fish_history') : join(dir, '.hist');
      const saved = readFileSync(file, 'utf8');
      assert.doesNotMatch(saved, /hook ran|after-flood|exit 3/, saved);
      assert.match(saved, /saved/, 'what the person typed is kept');
    });

    test(`${profile}, ${shell}, a created pane: clean from the first run, nothing typed`, async (t) => {
      const tmux = privateTmux(t);
      await tmux.start();
      const dir = home(tmux, shell);
      await tmux.tmux('set-option', '-g', 'default-shell', shell === 'fish' ? '/usr/bin/fish' : `/bin/${shell}`);
      await tmux.tmux('set-environment', '-g', 'HOME', dir);
      const mcp = python ? await startPython(t, tmux.env) : await startMcp(t, { env: tmux.env });
      if (python) await mcp.ok('create_session', { session_name: 'made' });
      else await mcp.ok('create_session', { name: 'made' });
      const pane = (await tmux.tmux('display-message', '-p', '-t', 'made', '#{pane_id}')).trim();
      const ran = await run(mcp, python, pane, 'echo "made $ucount"');
      assert.equal(ran.exitStatus, 0);
      assert.match(ran.output[0] ?? '', /^made [1-9]\d*$/);
      if (python) await mcp.ok('split_window', { pane_id: pane });
      else await mcp.ok('split_window', { paneId: pane });
      const other = (await tmux.tmux('list-panes', '-t', 'made', '-F', '#{pane_id}'))
        .split('\n')
        .map((l) => l.trim())
        .find((id) => id !== '' && id !== pane)!;
      const ran2 = await run(mcp, python, other, 'false');
      assert.equal(ran2.exitStatus, 1);
      // A new window, and a pane respawned (its shell started again): clean from their first run too.
      if (python) await mcp.ok('create_window', { session_name: 'made' });
      else await mcp.ok('create_window', { session: 'made' });
      const window = (await tmux.tmux('display-message', '-p', '-t', 'made:1', '#{pane_id}')).trim();
      const inWindow = await run(mcp, python, window, 'echo window');
      assert.deepEqual([inWindow.exitStatus, inWindow.output], [0, ['window']]);
      if (python) await mcp.ok('respawn_pane', { pane_id: other, kill: true });
      else await mcp.ok('respawn_pane', { paneId: other, killFirst: true });
      const respawned = await run(mcp, python, other, 'echo respawned');
      assert.deepEqual([respawned.exitStatus, respawned.output], [0, ['respawned']]);
      for (const [id, command, output] of [
        [pane, 'echo "made $ucount"', ran.output[0]],
        [window, 'echo window', 'window'],
        [other, 'echo respawned', 'respawned'],
      ] as const) {
        const seen = await screen(mcp, id, python, PROMPT[shell]);
        assert.doesNotMatch(seen, NO_FRAMING, seen);
        const p = PROMPT[shell].trimEnd();
        assert.deepEqual(
          seen
            .split('\n')
            .map((l) => l.trimEnd())
            .filter((l) => l !== ''),
          [`${p}  ${shown(shell, command)}`, ...(output ? [output] : []), p],
          seen,
        );
      }
    });
  }
}

test('julia: create_session with a lone shell starts it with the integration; its pane shows only its prompt', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: [...allToolArgs(), '--allow-create'] });
  for (const shell of SHELLS) {
    const dir = home(tmux, shell);
    await tmux.tmux('set-environment', '-g', 'HOME', dir);
    const made = await julia.ok('create_session', { name: `j-${shell}`, command: [shell] });
    const pane = made.panes[0].paneId as string;
    // The shell names itself at its first prompt: the integration runs, and nothing was typed.
    await until('the pane to settle', async () =>
      new RegExp(`^\\d+ ${shell} [0-9a-f]{12}$`).test((await tmux.tmux('display-message', '-p', '-t', pane, '#{@tmux_mcp_shell}')).trim()),
    );
    await until('the pane to settle', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).trim() === PROMPT[shell].trim());
  }
});
