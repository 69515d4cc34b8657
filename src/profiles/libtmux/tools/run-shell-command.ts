import { array, boolean, integer, nullable, number, object, string } from '../../../mcp/tools/schema.js';
import { checkCommand, checkPane, runCommand, type RunResult } from '../../../core/act/run-command.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { libtmuxTool } from '../declare.js';
import { Failure } from '../../../core/failure.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_LINES = 200;

interface Args {
  paneId: string;
  command: string;
  force?: boolean;
  maxLines?: number;
  timeoutMs?: number;
}

export const runShellCommandTool = libtmuxTool({
  name: 'run_shell_command',
  title: 'Run shell command',
  description:
    'Run a shell command in a pane with your user\'s permissions and get back its output and exit status in one call: ' +
    'the command is typed at the pane\'s shell prompt (visible to anyone watching), and the call returns the moment it finishes. History: kept out of bash\'s, zsh\'s and fish\'s ' +
    '(framed zsh, without the integration, saves it unless HIST_IGNORE_SPACE is set). ' +
    '`output` holds only what the command printed (no prompt, no echo ' +
    'of the command), escape sequences removed, long lines whole however the terminal wrapped them; the newest ' +
    '`maxLines` lines are kept (default 200, at most 2000) and `droppedLines` counts older ones left out. In bash, ' +
    'zsh and fish the shell integration (OSC 133 marks; installed once, out of history, by the first run in a pane ' +
    'found at its prompt, and present from the start in panes this server creates) lets it be typed as it is: the ' +
    'pane shows only the command and its output, it runs in the shell itself (`cd` and `export` stay, `exit` ends ' +
    'the shell) and stays out of history. In other POSIX shells it is framed by markers the pane shows and runs in ' +
    'a subshell: `cd`, `export` and `exit` do not change the pane\'s shell. When the pane prints faster than its output reaches this server (a flood), the end is read off ' +
    'the screen as soon as tmux has it, and `output` is the rows the screen shows. Multi-line commands and here-documents ' +
    'work; anything half-typed at the prompt is cleared first; stdin is the terminal, so add `</dev/null` to a ' +
    'command that might read it. The pane must show a shell prompt (sh, bash, dash, zsh, ksh, mksh, ash, ' +
    'busybox, fish); csh, tcsh, nu, pwsh, xonsh and elvish are refused, as are dead panes, panes in copy mode or ' +
    'with synchronize-panes on, panes running another program, and panes where an earlier call\'s command is still ' +
    'running or never started (pass `force: true` only if a POSIX shell will read the input). ' +
    'Timeout: `timeoutMs` (default 30000, capped by the server ceiling; `effectiveTimeout` is in seconds). Keep it ' +
    'under your client\'s request timeout (often 60 s) unless it sends progress tokens; for longer jobs use a short ' +
    'timeout and follow up with wait_for_text. When the deadline passes the answer has `timedOut: true`, ' +
    '`exitStatus: null` and the output so far, and its text says which case it is: RUNNING (the command keeps ' +
    'running; wait for its end with wait_for_text, or stop it with send_keys ["C-c"]) or NOT STARTED (the ' +
    'shell never ran it: busy starting up or running something, or waiting for more input after an unterminated ' +
    'quote; press C-c with send_keys, then run again). Cancelling the call (MCP cancellation) interrupts the command ' +
    'with C-c, as a person at the keyboard would. For interactive programs (editors, REPLs, TUIs) use send_keys and ' +
    'wait_for_text instead.',
  toolset: 'execute',
  processReach: 'pane-command',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref whose shell runs the command.' }),
      command: string({ description: 'Shell command line(s), as you would type them at the prompt. No tabs or control characters; lines up to 4000 bytes.' }),
      force: boolean({ description: 'Type the command even though the pane runs another program than a shell, still runs (or never started) a command an earlier call timed out on (the new one queues behind it), or is the pane this server runs in. Default false. Never overrides the refusal of non-POSIX shells, dead panes or modes.' }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most output lines returned, newest kept. Default 200.' }),
      timeoutMs: integer({ minimum: 100, maximum: 600000, description: 'Milliseconds to wait for the command to finish. Default 30000; the server ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS) may lower it.' }),
    },
    ['command', 'paneId'],
  ),
  output: object(
    {
      paneRef: string({ description: 'Ref of the pane the command ran in.' }),
      pane: string({ description: 'Pane id the command ran in.' }),
      exitStatus: nullable('integer', { description: 'The command\'s exit status (0 = success); null when it had not finished (timedOut) or the pane went away.' }),
      timedOut: boolean({ description: 'True when the deadline passed first: the command is still running, or never started (the text says which).' }),
      output: array(string(), { description: 'Lines the command printed, oldest first, without prompt or echo.' }),
      linesMissed: boolean({ description: 'True when part of the output could not be observed at all, so more may be missing than droppedLines says.' }),
      droppedLines: integer({ description: 'Older output lines left out to stay within maxLines and the byte budget.' }),
      seconds: number({ description: 'How long the call took, in seconds.' }),
      effectiveTimeout: number({ description: 'The timeout that applied, in seconds, after the server ceiling.' }),
    },
    ['droppedLines', 'effectiveTimeout', 'exitStatus', 'linesMissed', 'output', 'pane', 'paneRef', 'seconds', 'timedOut'],
  ),
  async handler(args: Args, { ctx, signal, progress }) {
    const { engine } = ctx;
    const command = checkCommand(args.command); // before any tmux call
    const timeoutMs = engine.capWait(args.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const pane = await checkPane(engine, await engine.resolvePane(args.paneId), args.force ?? false);
    const result: RunResult = await withProgress(progress, timeoutMs, () => `command running in ${pane.id}`, () =>
      runCommand(engine, { pane, command, force: args.force ?? false, timeoutMs, maxLines: args.maxLines ?? DEFAULT_MAX_LINES, signal }),
    );
    // The command never finished: a failure, not a result whose exitStatus null reads like success.
    if (result.outcome === 'paneDead' || result.outcome === 'paneClosed') {
      throw new Failure('not_found', summary(pane.id, result, timeoutMs), 'list_panes shows what is there now; respawn_pane restarts a dead pane.');
    }
    if (result.outcome === 'watchLost') throw new Failure('observation_lost', summary(pane.id, result, timeoutMs), WATCH_LOST_HINT);
    const structured = {
      paneRef: engine.ref('pane', pane.id, pane.incarnation),
      pane: pane.id,
      exitStatus: result.exitStatus,
      timedOut: result.outcome === 'timedOut' || result.outcome === 'notStarted',
      output: result.output,
      linesMissed: result.linesMissed,
      droppedLines: result.droppedLines,
      seconds: result.seconds,
      effectiveTimeout: timeoutMs / 1000,
    };
    return { structured, text: summary(pane.id, result, timeoutMs) };
  },
});

const WATCH_LOST_HINT = 'Wait for the end marker with wait_for_text (output since the command was typed counts), or look with capture_pane.';

function summary(paneId: string, r: RunResult, timeoutMs: number): string {
  let head: string;
  switch (r.outcome) {
    case 'exited':
      head = `Exit status ${r.exitStatus} after ${r.seconds} s in ${paneId}.`;
      break;
    case 'timedOut':
      head = r.endMarker
        ? `RUNNING: still running in ${paneId} after ${timeoutMs / 1000} s (timedOut; exitStatus null). The command keeps running: wait for its end with wait_for_text (it prints "${r.endMarker} <status>" when done; output since the command was typed counts, no cursor needed), or stop it with send_keys ["C-c"]. New run_shell_command calls on this pane are refused until it ends.`
        : `RUNNING: still running in ${paneId} after ${timeoutMs / 1000} s (timedOut; exitStatus null). The command keeps running: wait for its end with wait_for_text (a pattern of its last output or the shell prompt; output since the command was typed counts, no cursor needed); the next run_shell_command in this pane then reports its exit status in the first line of its answer. Or stop it with send_keys ["C-c"]. New run_shell_command calls on this pane are refused until it ends.`;
      break;
    case 'notStarted':
      head =
        `NOT STARTED: the shell in ${paneId} never ran the command within ${timeoutMs / 1000} s (timedOut; exitStatus null). ` +
        (r.shellWaitsForInput
          ? 'The shell holds the terminal but did not run it: it waits for more input (an unterminated quote or a trailing backslash typed earlier; a continuation prompt such as "> "), or it is still starting up (a slow rc file). '
          : 'The shell is busy: still starting up (a slow rc file) or running another program. ') +
        'The command is still pending in its input. Look with capture_pane; press C-c there (send_keys ["C-c"]) to discard it, then run again. New run_shell_command calls on this pane are refused until the shell is back at a prompt.';
      break;
    case 'paneDead':
      head = `The shell in ${paneId} exited before the command finished (an \`exec\` or a kill?); no exit status. Restart the pane with respawn_pane.`;
      break;
    case 'paneClosed':
      head = `Pane ${paneId} went away before the command finished; no exit status.`;
      break;
    case 'watchLost':
      head = `The observation of ${paneId} was lost: the connection carrying its output broke before the command finished (the pane still exists). The command may still be running${r.endMarker ? `; it prints "${r.endMarker} <status>" when done` : ''}.`;
      break;
    case 'cancelled':
      head = r.interrupted
        ? `Cancelled: the command in ${paneId} was interrupted with C-c.`
        : `Cancelled; the command may still be running in ${paneId} (sending C-c failed${r.endMarker ? `; it prints "${r.endMarker} <status>" when done` : ''}).`;
      break;
  }
  const notes = [
    r.earlier ? `[the command an earlier call timed out on ended ${r.earlier.secondsAgo} s ago with exit status ${r.earlier.status ?? 'unknown'}]` : '',
    r.integration?.installed ? `[shell integration installed in this ${r.integration.shell} (once, out of history): from now on the pane shows only the commands typed and their output]` : '',
    r.integration ? '' : '[framed: this shell has no shell integration here, so the pane shows the markers around the command]',
    r.endFromScreen ? '[the end was read off the screen: the output stream lagged behind the pane (a flood), so the output is the rows the screen shows]' : '',
    r.droppedLines ? `[${r.droppedLines} older output lines left out]` : '',
    r.linesMissed ? '[some output could not be observed]' : '',
  ].filter(Boolean);
  return [head, ...notes, ...r.output].join('\n');
}
