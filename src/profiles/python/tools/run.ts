/** run_command: type a shell command into a pane, wait for it, answer its exit status and output. */
import { checkCommand, checkPane, runCommand, type RunResult } from '../../../core/act/run-command.js';
import { Failure } from '../../../core/failure.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { modelResult, pythonTool } from '../declare.js';
import { defaulted, field, model, optional, PANE_TARGET, params, positiveTimeout, SOCKET_NAME, TARGETING_NOTE } from '../schema.js';
import { checkTarget, resolvePaneId } from '../targets.js';
import { checkMaxLines } from './capture.js';

/** Lines of output kept when max_lines is null: the byte budget of core still bounds them. */
const ALL_LINES = 1_000_000;

export const runCommandTool = pythonTool({
  name: 'run_command',
  title: 'Run Command',
  description:
    'Run a shell command in a pane and get its real exit status and output in one call: the preferred way to run anything ' +
    'whose result matters (builds, tests, git). In bash, zsh and fish the command is typed as it is and runs in the shell ' +
    'itself (shell integration: the pane shows only the command and its output; the first run in a found shell installs ' +
    'it once); in other shells it runs in a subshell between markers, so cd, export or exit in it do not change the ' +
    'shell; output holds only what the command printed (not the typed command or prompts). The ' +
    'call waits up to timeout seconds (default 30, held to the server ceiling LIBTMUX_MCP_WAIT_MAX_SECONDS); past that it ' +
    'answers timed_out true and the command keeps running (follow it with wait_for_text or capture_since; the answer\'s text says how to learn its exit status). Output is woken ' +
    'by tmux\'s output stream, not polled. max_lines keeps the newest lines (default: all). suppress_history (default ' +
    'from LIBTMUX_SUPPRESS_HISTORY, on) keeps the command out of shell history; false lets the shell record it. The pane must be at a POSIX shell prompt (not this server\'s own pane, not in copy mode). For interactive ' +
    `programs use send_keys and wait_for_text. ${TARGETING_NOTE}`,
  toolset: 'execute',
  selfBounded: true,
  input: params(
    {
      command: field('string', 'The shell command (several lines allowed), run as one command line.'),
      ...PANE_TARGET,
      timeout: defaulted('number', 30, 'Seconds to wait for it to finish (default 30); the server ceiling may lower it. Past it: timed_out true, the command keeps running.'),
      max_lines: optional('integer', 'Most output lines returned, newest kept; older ones are counted in output_truncated_lines. Default: all.'),
      suppress_history: defaulted(
        'boolean',
        true,
        'true: keep the command out of shell history (typed with a leading space, which the shell integration of bash and ' +
          'zsh and fish itself skip; framed in bash the entry is also deleted whatever HISTCONTROL says). false: the shell ' +
          'records it as typed (in shells without the integration wrapped in the markers this tool uses). Default true ' +
          '(LIBTMUX_SUPPRESS_HISTORY=0 makes it false).',
      ),
      socket_name: SOCKET_NAME,
    },
    ['command'],
  ),
  output: model(
    {
      effective_timeout: field('number', 'The timeout that applied, in seconds, after the server ceiling.'),
      elapsed_seconds: field('number', 'How long the call took, in seconds.'),
      exit_status: optional('integer', 'The command\'s exit status; null when it did not finish within the timeout.'),
      output: { description: 'What the command printed, one string per line, oldest first (no prompt, no echo of the command).', items: { type: 'string' }, type: 'array' },
      output_truncated: defaulted('boolean', false, 'True when older output lines were left out (max_lines or the size budget).'),
      output_truncated_lines: defaulted('integer', 0, 'How many older output lines were left out.'),
      pane_id: field('string', 'The pane the command ran in.'),
      timed_out: field('boolean', 'True when the command was still running at the timeout (it keeps running).'),
    },
    ['pane_id', 'timed_out', 'elapsed_seconds', 'effective_timeout'],
  ),
  async handler(args, { ctx, engine, signal, progress }) {
    checkTarget(args);
    const command = checkCommand(args.command);
    const timeout = positiveTimeout(args.timeout ?? 30);
    const maxLines = checkMaxLines(args.max_lines ?? null);
    const timeoutMs = engine.capWait(timeout * 1000);
    const pane = await checkPane(engine, await engine.getPane(await resolvePaneId(engine, args)), false, INTERRUPT);
    const result = await withProgress(progress, timeoutMs, (elapsed) => `Running in pane ${pane.id}: ${elapsed}s elapsed`, () =>
      runCommand(engine, { pane, command, timeoutMs, maxLines: maxLines ?? ALL_LINES, signal, suppressHistory: args.suppress_history ?? ctx.suppressHistory, interruptAdvice: INTERRUPT }),
    );
    if (result.outcome === 'cancelled') throw new Failure('cancelled', `run_command in ${pane.id} was cancelled; the command may still be running`);
    if (result.outcome === 'paneDead' || result.outcome === 'paneClosed') {
      throw new Failure('server_gone', `pane ${pane.id} ${result.outcome === 'paneDead' ? 'died' : 'went away'} before the command finished`, 'Restart it with respawn_pane, or pick another pane with list_panes.');
    }
    if (result.outcome === 'notStarted') {
      throw new Failure(
        'refused',
        `the command never started in ${pane.id}: its shell is busy or waiting for more input (an unclosed quote, a continuation prompt)`,
        'Look at the pane with capture_pane; finish or cancel what it waits for (send_keys "C-c" with enter false), then run again.',
      );
    }
    if (result.outcome === 'watchLost') {
      throw new Failure('observation_lost', `the observation of ${pane.id} was lost before the command finished: the connection carrying its output broke (the pane still exists)`, 'The command may still be running: check the pane with capture_pane.');
    }
    const structured = {
      pane_id: pane.id,
      exit_status: result.exitStatus,
      timed_out: result.outcome === 'timedOut',
      elapsed_seconds: result.seconds,
      output: result.output,
      output_truncated: result.droppedLines > 0 || result.linesMissed,
      output_truncated_lines: result.droppedLines,
      effective_timeout: timeoutMs / 1000,
    };
    const notes = runNotes(result);
    // The JSON stays the text's first line, as every python answer's; what to do next follows it.
    return notes.length === 0 ? modelResult(structured) : { structured, text: `${JSON.stringify(structured)}\n${notes.join('\n')}` };
  },
});

/** Python's own syntax for pressing C-c in a pane. */
const INTERRUPT = 'send_keys with keys: "C-c", enter: false';

/** What an agent needs beyond the fields: how to learn a timed-out command's status, an earlier one's, how the pane was typed into. */
function runNotes(result: RunResult): string[] {
  const notes: string[] = [];
  if (result.earlier) notes.push(`The command an earlier run_command timed out on ended ${result.earlier.secondsAgo} s ago with exit status ${result.earlier.status ?? 'unknown'}.`);
  if (result.outcome === 'timedOut') {
    notes.push(
      result.endMarker
        ? `timed_out: the command keeps running. When it ends the pane prints a line "${result.endMarker} <status>" (this server's end marker; the number is its exit status): wait for it with wait_for_text (pattern "${result.endMarker}"), or stop the command with ${INTERRUPT}. run_command in this pane is refused until it ends.`
        : `timed_out: the command keeps running. Wait for its end with wait_for_text (its last output or the shell prompt); the next run_command in this pane then reports its exit status in this note. Or stop it with ${INTERRUPT}. run_command in this pane is refused until it ends.`,
    );
  }
  if (!result.integration) notes.push('Framed: this shell has no shell integration here, so the pane shows the markers around the command.');
  if (result.integration?.installed) notes.push(`Shell integration installed in this ${result.integration.shell} (once, out of history): from now on the pane shows only the commands typed and their output.`);
  return notes;
}
