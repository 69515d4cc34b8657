/**
 * A run is a subshell, as the published servers run it. `exit`, `set -e`, `set -u`,
 * traps, options, `cd`, `export`, variables, background jobs and a re-sourced prompt hook neither end
 * nor change the pane's shell; each answer carries the command's own status and only its own output.
 * bash, zsh, fish and sh; panes found at their prompt and panes the server creates; libtmux and python.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { combos, panePid, run, runPane, settledScreen, SHELLS, type Shell } from '../../fixture/run-panes.js';

/** One step: the command, the status it must answer and the output it must print (exactly). */
type Step = readonly [command: string, status: number, output: readonly string[]];

const POSIX: Step[] = [
  ['echo before; exit 4', 4, ['before']],
  ['test "$ans" = y && exit 4; false || exit 1', 1, []],
  ['set -e; false; echo not-here', 1, []],
  // Everything a command may change about its shell; the next step finds none of it.
  ['set -u; set -o noglob; export LEAK=1; NOTEXPORTED=1; cd /; f() { echo LEAKED; }; echo changed', 0, ['changed']],
  [
    'echo "[${NOPE}] [${LEAK-}] [${NOTEXPORTED-}]" /bi*; [ "$PWD" = / ] && echo at-root || echo not-root; command -v f || echo no-f',
    0,
    ['[] [] [] /bin', 'not-root', 'no-f'],
  ],
  // A background job: no job-control line in the answer, and the shell is back at once.
  ['sleep 3 & echo started', 0, ['started']],
  ['echo after', 0, ['after']],
];

const SHELL_STEPS: Record<Shell, Step[]> = {
  bash: [
    ...POSIX,
    ["trap 'echo TRAPPED' EXIT; shopt -s nullglob; echo trapped", 0, ['trapped', 'TRAPPED']],
    // A trap the interactive shell kept would show in a subshell's `trap` (bash lists the parent's there).
    ['trap; echo /nomatch*', 0, ['/nomatch*']],
    // Re-sourcing an rc file that assigns the prompt hook changes nothing for the next run.
    ["PROMPT_COMMAND='echo after-source'; echo sourced", 0, ['sourced']],
    ['echo next', 0, ['next']],
  ],
  zsh: [
    ...POSIX,
    ["setopt nullglob; trap 'echo TRAPPED' EXIT; echo trapped", 0, ['trapped', 'TRAPPED']],
    ['echo /nomatch*(N) end', 0, ['end']],
    ['precmd_functions=(); preexec_functions=(); precmd() { echo after-source }; echo sourced', 0, ['sourced']],
    ['echo next', 0, ['next']],
  ],
  sh: [...POSIX, ["trap 'echo TRAPPED' EXIT; echo trapped", 0, ['trapped', 'TRAPPED']], ['echo next', 0, ['next']]],
  fish: [
    ['echo before; exit 4', 4, ['before']],
    ['test "$ans" = y; and exit 4; false; or exit 1', 1, []],
    ['set -g LEAK 1; set -gx XLEAK 1; cd /; function leaked --on-event fish_preexec; echo TRAPPED; end; echo changed', 0, ['changed']],
    [
      'echo "[$LEAK] [$XLEAK]"; test "$PWD" = /; and echo at-root; or echo not-root; functions -q leaked; or echo no-handler',
      0,
      ['[] []', 'not-root', 'no-handler'],
    ],
    ['sleep 3 & echo started', 0, ['started']],
    // Erasing the integration's own handlers in the run's fish changes nothing for the next run.
    ['functions -e __tmcp_prompt __tmcp_preexec __tmcp_postexec; echo erased', 0, ['erased']],
    ['echo next', 0, ['next']],
  ],
};

describe('a run is a subshell', { concurrency: 4 }, () => {
  for (const shell of SHELLS) {
    for (const [kind, profile] of combos(shell)) {
      test(`${profile}, ${shell}, a ${kind} pane: exit, set -e, state and jobs stay in the run; each answer is its own`, async (t) => {
        const p = await runPane(t, shell, kind, profile);
        const before = await panePid(p);
        for (const [command, status, output] of SHELL_STEPS[shell]) {
          const ran = await run(p, command);
          assert.deepEqual({ command, status: ran.exitStatus, output: ran.output }, { command, status, output }, ran.text);
        }
        assert.equal(await panePid(p), before, 'the same shell, alive, from the first run to the last');
        // Nothing but prompts, the commands (in their subshell) and their output: no marker, id or framing.
        const rows = await settledScreen(p);
        if (shell !== 'sh')
          assert.doesNotMatch(rows.join('\n'), /tm[0-9a-f]{12}|_S\b|_E \d|tmux-mcp|integration\.|\[1\] \d+/, rows.join('\n'));
      });
    }
  }
});
