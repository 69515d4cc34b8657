/** The wait tools: wait_for_text and capture_since watch a pane without sleeping; run_command runs a command and waits for its end. */
import {
  captureLines,
  captureSince,
  checkCommand,
  checkPane,
  compileMatchers,
  decodeSinceCursor,
  escapeRegExp,
  Failure,
  getPane,
  invalidArgument,
  paneDetail,
  readVariables,
  refused,
  runCommand,
  type RunResult,
  tailBudget,
  typedText,
  waitForText,
} from '../../../core/index.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { modelResult, pythonTool } from '../declare.js';
import {
  defaulted,
  field,
  model,
  optional,
  PANE_TARGET,
  params,
  positiveTimeout,
  SOCKET_NAME,
  stringList,
  TARGETING_NOTE,
} from '../schema.js';
import { checkTarget, targetedPaneId } from '../targets.js';
import { checkMaxLines, DEFAULT_MAX_LINES } from './inspect.js';

const REPORT_LINES = 20;
const REPORT_BYTES = 2000;

/** Patterns as core matchers: literal or regex, case-insensitive unless match_case. */
function matchers(patterns: readonly string[], regex: boolean, matchCase: boolean, label: string) {
  patterns.forEach((p, i) => {
    if (p === '') throw invalidArgument(`${label}[${i}] pattern must be a non-empty string`);
  });
  if (matchCase) return compileMatchers(patterns, regex, label);
  return compileMatchers(
    patterns.map((p) => `(?i)${regex ? p : escapeRegExp(p)}`),
    true,
    label,
  );
}

export const waitForTextTool = pythonTool({
  name: 'wait_for_text',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Wait For Text',
  description:
    'Block until a pane prints one of `patterns` (or, with patterns null, anything new), instead of sleeping and ' +
    "re-reading. Woken by tmux's output stream the moment the pane writes; no polling. What counts: everything the " +
    'pane printed since this server last sent it input (send_keys, send_keys_batch, paste_text, run_command) or since ' +
    'the last wait on it stopped, whichever came later, even output that came before this call (so send_keys ' +
    '"python3 -c \'print(6*7)\'" then a wait for "42" matches however fast the answer came, and a second wait never ' +
    're-matches what the first found); when this server has done neither, only output after the call starts. Older ' +
    'text never matches; found on screen, it only sets matched_at_entry. A typed line echoes, so wait for what the ' +
    'command prints, not what you typed. Always pass `stop` patterns for failure ' +
    '("error", "FAILED"): the wait then ends early with outcome "stopped" instead of running to the timeout. Outcomes: ' +
    'matched, any_output (patterns null), stopped, timeout, alternate_screen (timed out while a full-screen program ' +
    'showed, whose redraws are not lines). Patterns are literal text unless regex true, and ignore case unless ' +
    'match_case true. timeout is in seconds (default 8, held to the server ceiling). tail holds the last lines of new output ' +
    '(at most 20 lines / 2000 bytes). For a command you run yourself, run_command waits for it and returns its exit ' +
    `status. ${TARGETING_NOTE}`,
  toolset: 'inspect',
  selfBounded: true,
  input: params({
    patterns: stringList(
      'Text to wait for; the first to appear ends the wait with outcome "matched". null (default): any new output ends it ("any_output").',
    ),
    stop: stringList(
      'Failure markers: the first to appear ends the wait with outcome "stopped". Checked before patterns on the same line. Default none.',
    ),
    regex: defaulted('boolean', false, 'Treat patterns and stop as regular expressions (JavaScript syntax). Default false: literal text.'),
    ...PANE_TARGET,
    timeout: defaulted('number', 8, 'Seconds to wait (default 8); the server ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS) may lower it.'),
    interval: defaulted(
      'number',
      0.05,
      'Accepted for compatibility; this server is woken by output as it arrives and never polls. At least 0.01.',
    ),
    match_case: defaulted('boolean', false, 'Match case exactly. Default false: case is ignored.'),
    socket_name: SOCKET_NAME,
  }),
  output: model(
    {
      alternate_screen: defaulted(
        'boolean',
        false,
        'True when the pane showed the alternate screen (a full-screen program) during the wait.',
      ),
      effective_timeout: field('number', 'The timeout that applied, in seconds, after the server ceiling.'),
      elapsed_seconds: field('number', 'How long the wait took, in seconds.'),
      found: field('boolean', 'True when a pattern matched (outcome matched or any_output).'),
      matched_at_entry: defaulted(
        'boolean',
        false,
        'A pattern was on screen when the wait began in text older than what counts as new; that is not a match.',
      ),
      matched_index: optional(
        'integer',
        'Index of the pattern (outcome matched) or stop pattern (outcome stopped) that ended the wait; null otherwise.',
      ),
      matched_lines: { description: 'The lines that matched (at most 20 lines / 2000 bytes).', items: { type: 'string' }, type: 'array' },
      outcome: {
        description: 'How the wait ended.',
        enum: ['matched', 'any_output', 'stopped', 'alternate_screen', 'timeout'],
        type: 'string',
      },
      pane_id: field('string', 'The pane watched.'),
      saw_new_output: defaulted(
        'boolean',
        false,
        'Whether the pane printed anything that counts as new (see the tool description), matched or not.',
      ),
      tail: {
        description: 'The last lines of new output (at most 20 lines / 2000 bytes), oldest first.',
        items: { type: 'string' },
        type: 'array',
      },
    },
    ['found', 'outcome', 'pane_id', 'elapsed_seconds', 'effective_timeout'],
  ),
  async handler(args, { engine, signal, progress }) {
    checkTarget(args);
    const timeout = positiveTimeout(args.timeout ?? 8);
    if ((args.interval ?? 0.05) < 0.01) throw invalidArgument(`interval must be at least 0.01 s (received ${args.interval})`);
    if (args.patterns && args.patterns.length === 0)
      throw invalidArgument('patterns must be a non-empty list, or null to wait for any new output');
    const regex = args.regex ?? false;
    const matchCase = args.match_case ?? false;
    const patterns = matchers(args.patterns ?? [], regex, matchCase, 'patterns');
    const stops = matchers(args.stop ?? [], regex, matchCase, 'stop');
    const timeoutMs = engine.capWait(timeout * 1000);
    const pane = await getPane(engine, await targetedPaneId(engine, args));
    const result = await withProgress(
      progress,
      timeoutMs,
      (elapsed) => `Waiting on pane ${pane.id}: ${elapsed}s elapsed`,
      () => waitForText(engine, { pane, patterns, stops, timeoutMs, maxLines: REPORT_LINES, signal }),
    );
    switch (result.outcome) {
      case 'cancelled':
        throw new Failure('cancelled', `the wait on pane ${pane.id} was cancelled`);
      case 'paneDead':
        throw new Failure('server_gone', `pane ${pane.id} died; its program exited`, 'Restart it with respawn_pane.');
      case 'paneClosed':
        throw new Failure('not_found', `pane ${pane.id} went away during the wait`, 'Call list_panes to discover valid pane ids.');
      case 'watchLost':
        throw new Failure(
          'observation_lost',
          `the observation of pane ${pane.id} was lost: the connection carrying its output broke (the pane still exists)`,
          'Call wait_for_text again; it watches afresh.',
        );
    }
    const tail = tailBudget(result.tail, REPORT_LINES, REPORT_BYTES).lines;
    const ended = result.matchedIndex !== null ? (result.outcome === 'stopped' ? stops : patterns)[result.matchedIndex] : undefined;
    const matchedLines = ended ? tail.filter((line) => ended.find(line) !== -1) : result.outcome === 'matched' ? tail.slice(-1) : [];
    let outcome: 'matched' | 'any_output' | 'stopped' | 'alternate_screen' | 'timeout';
    let alternate = false;
    if (result.outcome === 'matched') outcome = args.patterns ? 'matched' : 'any_output';
    else if (result.outcome === 'stopped') outcome = 'stopped';
    else {
      alternate = (await readVariables(engine, ['alternate_on'], pane.id).catch(() => ({ alternate_on: '0' }))).alternate_on === '1';
      outcome = alternate ? 'alternate_screen' : 'timeout';
    }
    return modelResult({
      found: outcome === 'matched' || outcome === 'any_output',
      outcome,
      matched_index: result.matchedIndex,
      matched_lines: tailBudget(matchedLines, REPORT_LINES, REPORT_BYTES).lines,
      tail,
      saw_new_output: result.sawNewOutput,
      matched_at_entry: result.matchedAtEntry,
      alternate_screen: alternate,
      pane_id: pane.id,
      elapsed_seconds: result.seconds,
      effective_timeout: timeoutMs / 1000,
    });
  },
});

export const captureSinceTool = pythonTool({
  name: 'capture_since',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id', 'cursor'],
  title: 'Capture Since',
  description:
    'Read only what is new in a pane since your last read, for watching output over several calls without re-reading ' +
    'the same screen. The first call (cursor null) returns the visible screen and a cursor; pass that cursor back to get ' +
    'just the lines written since, and a new cursor. A line rewritten in place (a progress bar) counts as new. ' +
    'lines_missed true means rows scrolled out of history or were cleared in between. A cursor from a pane that died, ' +
    'was respawned or belongs to another pane is refused. Lines are bounded by max_lines (default 500) and max_bytes ' +
    '(default 128000, UTF-8), newest kept, with truncated / truncated_lines / truncated_bytes saying what was dropped. ' +
    `The cursor is not a pagination token. ${TARGETING_NOTE} (With a cursor and no target, the cursor's pane.)`,
  toolset: 'inspect',
  input: params({
    cursor: optional('string', 'The cursor of the previous capture_since on this pane; null (default) for a first read.'),
    ...PANE_TARGET,
    max_lines: optional('integer', 'Most lines returned, newest kept. Default 500; null: no line limit.', DEFAULT_MAX_LINES),
    max_bytes: optional('integer', 'Most UTF-8 bytes of lines returned, newest kept. Default 128000; null: no byte limit.', 128_000),
    socket_name: SOCKET_NAME,
  }),
  async handler(args, { engine }) {
    checkTarget(args);
    const started = performance.now();
    const maxLines = checkMaxLines(args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines);
    const maxBytes = checkMaxLines(args.max_bytes === undefined ? 128_000 : args.max_bytes, 'max_bytes');
    const cursor = args.cursor ?? undefined;
    let cursorPane: string | undefined;
    if (cursor !== undefined) {
      try {
        cursorPane = decodeSinceCursor(cursor).p;
      } catch {
        throw invalidArgument(
          'invalid capture_since cursor: unsupported cursor format',
          'Pass the cursor of an earlier capture_since unchanged, or null to start over.',
        );
      }
    }
    const targeted = args.pane_id != null || args.window_id != null || args.session_id != null || args.session_name != null;
    const paneId = cursorPane && !targeted ? cursorPane : await targetedPaneId(engine, args);
    if (cursorPane && cursorPane !== paneId)
      throw refused(
        `cursor pane ${cursorPane} does not match requested pane ${paneId}`,
        'Pass the cursor only with the pane it came from, or null to start over.',
      );
    const pane = await paneDetail(engine, paneId);
    if (pane.isDead)
      throw refused(
        `pane ${pane.id} died; cursor/baseline anchor is no longer valid`,
        'Respawn it with respawn_pane and start over with cursor null.',
      );
    const since = await captureSince(engine, pane, { ...(cursor !== undefined ? { cursor } : {}), maxLines: maxLines ?? 1_000_000 });
    if (since.restarted)
      throw refused(
        `pane ${pane.id} was respawned or the tmux server restarted; cursor/baseline anchor is no longer valid`,
        'Start over with cursor null.',
      );
    const lines = cursor === undefined ? await captureLines(engine, pane.id) : since.lines;
    const kept = tailBudget(lines, maxLines ?? lines.length, maxBytes ?? Number.MAX_SAFE_INTEGER);
    const droppedLines = kept.droppedLines + (cursor === undefined ? 0 : since.droppedLines);
    const keptBytes = kept.lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
    const allBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
    return modelResult({
      pane_id: pane.id,
      cursor: since.cursor,
      lines: kept.lines,
      elapsed_seconds: Math.round(performance.now() - started) / 1000,
      lines_missed: since.linesMissed,
      truncated: droppedLines > 0,
      truncated_lines: droppedLines,
      truncated_bytes: Math.max(0, allBytes - keptBytes),
    });
  },
});

/** Lines of output kept when max_lines is null: the byte budget of core still bounds them. */
const ALL_LINES = 1_000_000;

export const runCommandTool = pythonTool({
  name: 'run_command',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Run Command',
  description:
    'Run a shell command in a pane and get its real exit status and output in one call: the preferred way to run anything ' +
    "whose result matters (builds, tests, git). What a run is: the command runs in a subshell of the pane's shell, as " +
    "`( command )` in bash, zsh, sh and other POSIX shells and `fish -c 'command'` in fish, so nothing it does " +
    'persists: exit, set -e, set -u, traps, options, cd, export, variables and background jobs end with it and the ' +
    "shell is left as it was. The answer is this command's own, its exit status and only what it printed (not the " +
    'typed command or prompts), tied to the very line typed, never to another line the shell ran first (the note ' +
    'says when it did); it is typed only once the shell sits at its prompt with its hooks finished. The pane shows ' +
    'the prompt, the command in its subshell and its output: nothing else in bash, zsh and fish (shell integration, ' +
    'installed once by the first run in a found shell), also start and end markers in other shells. The ' +
    'call waits up to timeout seconds (default 30, held to the server ceiling LIBTMUX_MCP_WAIT_MAX_SECONDS); past that it ' +
    "answers timed_out true and the command keeps running (the answer's note names the wait that ends with it and says how to learn its exit status). Output is woken " +
    "by tmux's output stream, not polled. max_lines keeps the newest lines (default: all). suppress_history (default " +
    "from LIBTMUX_SUPPRESS_HISTORY, on) keeps the command out of shell history; false lets the shell record it. The pane must be at a POSIX shell prompt (not this server's own pane, not in copy mode). For interactive " +
    `programs use send_keys and wait_for_text. ${TARGETING_NOTE}`,
  toolset: 'execute',
  selfBounded: true,
  input: params(
    {
      command: field('string', 'The shell command (several lines allowed), run as one command line.'),
      ...PANE_TARGET,
      timeout: defaulted(
        'number',
        30,
        'Seconds to wait for it to finish (default 30); the server ceiling may lower it. Past it: timed_out true, the command keeps running.',
      ),
      max_lines: optional(
        'integer',
        'Most output lines returned, newest kept; older ones are counted in output_truncated_lines. Default: all.',
      ),
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
      exit_status: optional('integer', "The command's exit status; null when it did not finish within the timeout."),
      output: {
        description: 'What the command printed, one string per line, oldest first (no prompt, no echo of the command).',
        items: { type: 'string' },
        type: 'array',
      },
      output_truncated: defaulted('boolean', false, 'True when older output lines were left out (max_lines or the size budget).'),
      output_truncated_lines: defaulted('integer', 0, 'How many older output lines were left out.'),
      pane_id: field('string', 'The pane the command ran in.'),
      timed_out: field('boolean', 'True when the command was still running at the timeout (it keeps running).'),
    },
    ['pane_id', 'timed_out', 'elapsed_seconds', 'effective_timeout'],
  ),
  typed: (args) => [typedText(args.command, true)],
  async handler(args, { ctx, engine, signal, progress }) {
    checkTarget(args);
    const command = checkCommand(args.command);
    const timeout = positiveTimeout(args.timeout ?? 30);
    const maxLines = checkMaxLines(args.max_lines ?? null);
    const timeoutMs = engine.capWait(timeout * 1000);
    const pane = await checkPane(engine, await getPane(engine, await targetedPaneId(engine, args)), false, INTERRUPT);
    const result = await withProgress(
      progress,
      timeoutMs,
      (elapsed) => `Running in pane ${pane.id}: ${elapsed}s elapsed`,
      () =>
        runCommand(engine, {
          pane,
          command,
          timeoutMs,
          maxLines: maxLines ?? ALL_LINES,
          signal,
          suppressHistory: args.suppress_history ?? ctx.suppressHistory,
          interruptAdvice: INTERRUPT,
        }),
    );
    if (result.outcome === 'cancelled')
      throw new Failure('cancelled', `run_command in ${pane.id} was cancelled; the command may still be running`);
    if (result.outcome === 'paneDead' || result.outcome === 'paneClosed') {
      throw new Failure(
        'server_gone',
        `pane ${pane.id} ${result.outcome === 'paneDead' ? 'died' : 'went away'} before the command finished`,
        'Restart it with respawn_pane, or pick another pane with list_panes.',
      );
    }
    if (result.outcome === 'notStarted' && !result.typed) {
      throw new Failure(
        'refused',
        `the command was not typed in ${pane.id}: its shell never sat at its prompt within ${timeoutMs / 1000}s (it runs something, or its prompt hooks are still running)`,
        `Look at the pane with capture_pane; wait for what runs, or stop it with ${INTERRUPT}, then run again.`,
      );
    }
    if (result.outcome === 'notStarted') {
      throw new Failure(
        'refused',
        `the command never started in ${pane.id}: its shell is busy${result.othersFirst > 0 ? ` (it runs ${result.othersFirst} other command line${result.othersFirst === 1 ? '' : 's'} first, typed ahead or by someone in the pane)` : ''} or waiting for more input (an unclosed quote, a continuation prompt)`,
        'Look at the pane with capture_pane; finish or cancel what it waits for (send_keys "C-c" with enter false), then run again.',
      );
    }
    if (result.outcome === 'watchLost') {
      throw new Failure(
        'observation_lost',
        `the observation of ${pane.id} was lost before the command finished: the connection carrying its output broke (the pane still exists)`,
        'The command may still be running: check the pane with capture_pane.',
      );
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
  if (result.earlier)
    notes.push(
      `The command an earlier run_command timed out on ended ${result.earlier.secondsAgo} s ago with exit status ${result.earlier.status ?? 'unknown'}.`,
    );
  if (result.outcome === 'timedOut') {
    notes.push(
      result.endMarker
        ? `timed_out: the command keeps running. When it ends the pane prints a line "${result.endMarker} <status>" (this server's end marker; the number is its exit status): wait for it with wait_for_text (pattern "${result.endMarker}"), or stop the command with ${INTERRUPT}. run_command in this pane is refused until it ends.`
        : `timed_out: the command keeps running. Wait for its end with wait_for_channel (channel "${result.endChannel}"; the shell signals it when this very command ends, also if that was before you wait); the next run_command in this pane then reports its exit status in this note, and the pane option @tmux_mcp_end (show_option) holds "<shell>.<line> <status> ...". Or stop it with ${INTERRUPT}. run_command in this pane is refused until it ends.`,
    );
  }
  if (result.othersFirst > 0)
    notes.push(
      `The shell ran ${result.othersFirst} other command line${result.othersFirst === 1 ? '' : 's'} before this one (typed ahead, or by someone in the pane); their output is not in this answer.`,
    );
  if (!result.integration)
    notes.push('Framed: this shell has no shell integration here, so the pane shows the markers around the command.');
  if (result.integration?.installed)
    notes.push(
      `Shell integration installed in this ${result.integration.shell} (once, out of history): from now on the pane shows only the commands typed and their output.`,
    );
  return notes;
}
