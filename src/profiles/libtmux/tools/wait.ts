/** The wait tools: block until a pane prints something, read what it printed since a cursor, or run a command in a shell and wait for its end. */
import {
  captureSince,
  checkCommand,
  checkPane,
  compileMatchers,
  CURSOR_MAX_CHARS,
  decodeCursor,
  decodeSinceCursor,
  encodeRef,
  Failure,
  fingerprint,
  isSinceCursor,
  refused,
  resolvePane,
  runCommand,
  type RunResult,
  typedText,
  type WaitCursor,
  waitForText,
  type WaitResult,
} from '../../../core/index.js';
import { array, boolean, integer, nullable, number, object, string } from '../../../mcp/tools/schema.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { READS_CONTENT, libtmuxTool } from '../declare.js';

/** Both waits give up after this long unless told otherwise (the server ceiling may lower it). */
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_TAIL_LINES = 20;
const PATTERN = string({ 'x-libtmux-max-utf8-bytes': 4096 });

export const waitForTextTool = libtmuxTool({
  name: 'wait_for_text',
  targets: ['paneId'],
  title: 'Wait for text',
  description:
    'Block until a pane prints one of `patterns`, instead of sleeping and re-reading the screen. Wakes the moment the ' +
    'pane writes (no polling). What counts as new output: after send_keys, paste_text or run_shell_command into the ' +
    'pane (from this server or any other tmux-mcp process, `tmux-mcp call` included: the point is kept in tmux), ' +
    'everything the pane printed since that input, even output that came before this call ' +
    '(so send_keys ["print(6*7)", "Enter"] then a wait for "42" matches however fast the answer came); after an ' +
    'earlier wait on the pane, everything since where that wait stopped (a second wait never re-matches what the ' +
    'first reported); otherwise only output after the call starts. Text older than that is never a match, it only ' +
    'sets `matchedAtEntry: true`. Output counts whoever caused it, also a person typing in the pane. Pass a ' +
    '`cursor` (from an earlier wait_for_text, or from capture_since) to choose the starting point yourself. The echo ' +
    'of typed input is output too, so wait for text the command prints but your typed line does not contain (type ' +
    '`echo DO\'\'NE`, wait for "DONE"). Patterns are literal text unless `regex: true` (JavaScript syntax; a leading ' +
    '(?i) makes one case-insensitive), matched within one line of output with escape sequences removed (lines the ' +
    'terminal wraps count as one). `patterns: []` waits for any new output. `stop` patterns (e.g. "error", "FAILED") ' +
    'end the wait early with outcome "stopped". Every ending is an answer, not an error: `outcome` is matched, ' +
    'stopped, timedOut, paneDead, paneClosed, watchLost or cancelled, and `tail` holds the last lines of new output ' +
    '(default 20, `maxLines` up to 2000). Timeout: `timeoutMs` (default 30000), capped by the server ceiling; ' +
    "`effectiveTimeout` reports what applied, in seconds. Keep it under your client's request timeout (often 60 s) " +
    'unless your client sends progress tokens (progress is reported every second); to wait longer, call again: nothing ' +
    'printed in between is missed. For a command you start yourself, run_shell_command waits for it and returns ' +
    'its output and exit status in one call.',
  ...READS_CONTENT,
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref to watch.' }),
      patterns: array(PATTERN, {
        maxItems: 32,
        description:
          'Text to wait for (up to 32, each up to 4096 UTF-8 bytes); the first to appear ends the wait with outcome "matched". Empty list: any new output.',
      }),
      stop: array(PATTERN, {
        maxItems: 32,
        description:
          'Failure markers (up to 32): the first to appear ends the wait with outcome "stopped". Checked before `patterns` on the same line.',
      }),
      regex: boolean({
        description:
          'Treat patterns and stop as JavaScript regular expressions. Default false (literal text). An invalid one is an error before waiting. ' +
          'A pattern with backreferences, lookaround or (?i) may spend at most 250 ms on one line; one that needs longer ends the wait with an error.',
      }),
      cursor: string({
        maxLength: 16384,
        description:
          'The `cursor` of an earlier wait_for_text on this pane: match output from where that call stopped, including what arrived in between. ' +
          'A capture_since cursor works too: the rows new since it are matched first. Omit it to use the rule above (since the last input, or the last wait, or now).',
      }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most lines of `tail` returned, newest kept. Default 20.' }),
      timeoutMs: integer({
        minimum: 100,
        maximum: 600000,
        description:
          'Milliseconds to wait before answering with outcome "timedOut". Default 30000; the server ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS) may lower it.',
      }),
    },
    ['paneId', 'patterns'],
  ),
  output: object(
    {
      paneRef: string({ description: 'Ref of the pane watched.' }),
      outcome: string({
        description:
          'How the wait ended: matched, stopped, timedOut, paneDead (its program exited), paneClosed (the pane is gone), watchLost (the output connection broke; call again) or cancelled.',
      }),
      matched: nullable('string', {
        description: 'The pattern (or stop pattern) that ended the wait, as given; null otherwise, and for any-output waits.',
      }),
      matchedIndex: nullable('integer', {
        description: 'Index of that pattern in `patterns` (outcome matched) or in `stop` (outcome stopped); null otherwise.',
      }),
      sawNewOutput: boolean({
        description:
          'Whether the pane printed anything new (see the description for where new output starts). False after a timeout means it stayed quiet: the command probably never ran.',
      }),
      matchedAtEntry: boolean({
        description:
          'A pattern or stop pattern was on screen when the wait began, in text older than where new output starts. That text does not count as a match; if it was what you wanted, read it with capture_pane.',
      }),
      tail: array(string(), { description: 'The last lines of new output (escape sequences removed), oldest first.' }),
      seconds: number({ description: 'How long the wait took, in seconds.' }),
      cursor: nullable('string', {
        description:
          'Pass to the next wait_for_text on this pane to resume right after this one (after the match, or after everything seen). Null when the pane is gone.',
      }),
      effectiveTimeout: number({ description: 'The timeout that applied, in seconds, after the server ceiling.' }),
    },
    ['cursor', 'effectiveTimeout', 'matched', 'matchedAtEntry', 'matchedIndex', 'outcome', 'paneRef', 'sawNewOutput', 'seconds', 'tail'],
  ),
  async handler(args, { ctx, signal, progress }) {
    const { engine } = ctx;
    // Bad patterns and garbled cursors fail before anything touches tmux.
    const patterns = compileMatchers(args.patterns, args.regex ?? false, 'patterns');
    const stops = compileMatchers(args.stop ?? [], args.regex ?? false, 'stop');
    // Our own cursor, or a capture_since cursor (the rows new since it are matched first).
    let cursor: WaitCursor | undefined;
    let since: string | undefined;
    if (args.cursor !== undefined && isSinceCursor(args.cursor)) {
      decodeSinceCursor(args.cursor);
      since = args.cursor;
    } else if (args.cursor !== undefined) cursor = decodeCursor(args.cursor);
    const timeoutMs = engine.capWait(args.timeoutMs ?? DEFAULT_TIMEOUT_MS);

    const pane = await resolvePane(engine, args.paneId);
    if (cursor) {
      if (cursor.paneId !== pane.id)
        throw refused(
          `the cursor is for pane ${cursor.paneId}, not ${pane.id}`,
          'Pass the cursor only to waits on the pane it came from, or omit it.',
        );
      if (cursor.fingerprint !== fingerprint(pane.incarnation)) {
        throw refused(
          'the cursor is stale: it belongs to an earlier tmux server on this socket',
          'Omit the cursor to wait for output from now on.',
        );
      }
    }
    const result: WaitResult = await withProgress(
      progress,
      timeoutMs,
      () => `waiting for output in ${pane.id}`,
      () => waitForText(engine, { pane, patterns, stops, cursor, since, timeoutMs, maxLines: args.maxLines ?? DEFAULT_TAIL_LINES, signal }),
    );
    const structured = {
      paneRef: encodeRef('pane', pane.id, pane.incarnation),
      outcome: result.outcome,
      matched: result.matched,
      matchedIndex: result.matchedIndex,
      sawNewOutput: result.sawNewOutput,
      matchedAtEntry: result.matchedAtEntry,
      tail: result.tail,
      seconds: result.seconds,
      cursor: result.cursor,
      effectiveTimeout: timeoutMs / 1000,
    };
    return { structured, text: waitSummary(pane.id, result, timeoutMs) };
  },
});

/** Where new output began for this wait, in words. */
const STARTED_FROM: Record<WaitResult['startedFrom'], string> = {
  cursor: 'since the cursor',
  since: 'since the capture_since cursor',
  input: 'since the last input tmux-mcp sent into the pane',
  wait: 'since the previous wait on this pane stopped',
  now: 'since this wait began (tmux-mcp had not typed into or waited on the pane lately)',
};

/** What a reader of the text alone needs: how it ended, what to do next, the cursor, and the tail. */
function waitSummary(paneId: string, r: WaitResult, timeoutMs: number): string {
  const head: string[] = [];
  const when = r.matchedBeforeCall ? `, already printed before this call (${STARTED_FROM[r.startedFrom]})` : '';
  switch (r.outcome) {
    case 'matched':
      head.push(
        r.matched === null
          ? `${paneId} printed new output after ${r.seconds} s${when}.`
          : `Matched ${JSON.stringify(r.matched)} (patterns[${r.matchedIndex}]) in ${paneId} after ${r.seconds} s${when}.`,
      );
      break;
    case 'stopped':
      head.push(`Stopped: ${JSON.stringify(r.matched)} (stop[${r.matchedIndex}]) appeared in ${paneId} after ${r.seconds} s${when}.`);
      break;
    case 'timedOut':
      head.push(`No match in ${paneId} within ${timeoutMs / 1000} s.`);
      if (r.matchedAtEntry)
        head.push('A pattern was already on screen before this wait began; it does not count as new output. Read it with capture_pane.');
      else if (!r.sawNewOutput) head.push('The pane printed nothing at all: check that the command was really started (capture_pane).');
      else head.push('The pane printed other text (see the tail); check the pattern.');
      head.push('To keep waiting, call again (this cursor is optional): nothing printed in between is missed.');
      break;
    case 'paneDead':
      head.push(`The program in ${paneId} exited during the wait; waiting again cannot help. Restart it with respawn_pane.`);
      break;
    case 'paneClosed':
      head.push(`Pane ${paneId} went away during the wait (killed, or its session ended).`);
      break;
    case 'watchLost':
      head.push(
        `The observation of ${paneId} was lost: the connection carrying its output broke (the pane still exists). Call again: the next wait watches afresh.`,
      );
      break;
    case 'cancelled':
      head.push('The wait was cancelled.');
      break;
  }
  if (r.outcome !== 'matched' && r.outcome !== 'stopped') head.push(`New output counted ${STARTED_FROM[r.startedFrom]}.`);
  if (r.note) head.push(r.note);
  if (r.cursor) head.push(`cursor: ${r.cursor}`);
  const tail = r.tail.length
    ? `\n--- last ${r.tail.length} line(s) of new output${r.droppedLines ? ` (${r.droppedLines} older left out)` : ''} ---\n${r.tail.join('\n')}`
    : '';
  return head.join('\n') + tail;
}

export const captureSinceTool = libtmuxTool({
  name: 'capture_since',
  targets: ['paneId'],
  title: 'Capture since',
  description:
    "Follow a pane's output without re-reading what you have seen: returns only the rows that appeared or changed " +
    'since the `cursor` of your previous call, plus a new cursor to pass next time. The first call (no cursor) ' +
    'returns no rows, just a cursor marking "now"; use capture_pane for what is already on screen. `waitMs` (default ' +
    '0, at most 10000) waits for new output when there is none yet, returning as soon as some arrives. ' +
    '`restarted: true` means the cursor was for another pane, a respawned pane or a restarted tmux server, so ' +
    'reading starts afresh (no rows, new cursor). `linesMissed: true` means rows may have been lost in between ' +
    '(history trimmed or cleared, a full-screen program switched screens): call capture_pane to resynchronise. ' +
    'Keeps the newest `maxLines` rows (default 200) within about 128 KB; `droppedLines` counts older new rows left ' +
    'out. To wait for specific text use wait_for_text.',
  ...READS_CONTENT,
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref.' }),
      cursor: string({
        maxLength: CURSOR_MAX_CHARS,
        description: 'The cursor a previous capture_since returned for this pane. Omit on the first call.',
      }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most rows returned, newest kept. Default 200.' }),
      waitMs: integer({
        minimum: 0,
        maximum: 10000,
        description: 'Milliseconds to wait for new output when there is none yet. Default 0 (answer at once).',
      }),
    },
    ['paneId'],
  ),
  output: object(
    {
      pane: string({ description: 'Pane id read.' }),
      paneRef: string({ description: 'Pane ref, valid until the tmux server restarts.' }),
      lines: array(string(), { description: 'Rows new or changed since the cursor, oldest first, trailing blank rows removed.' }),
      cursor: string({ description: 'Opaque cursor for the next call.' }),
      linesMissed: boolean({ description: 'True when rows may have been missed since the cursor.' }),
      restarted: boolean({ description: 'True when the cursor did not belong to this pane incarnation; reading restarted from now.' }),
      droppedLines: integer({ description: 'New rows left out (oldest first) to stay within maxLines and the byte budget.' }),
    },
    ['cursor', 'droppedLines', 'lines', 'linesMissed', 'pane', 'paneRef', 'restarted'],
  ),
  async handler(args, { ctx, signal }) {
    if (args.cursor !== undefined) decodeSinceCursor(args.cursor); // a garbled cursor fails before any tmux call
    const pane = await resolvePane(ctx.engine, args.paneId);
    const result = await captureSince(ctx.engine, pane, { ...args, signal });
    return {
      structured: {
        pane: pane.id,
        paneRef: encodeRef('pane', pane.id, pane.incarnation),
        lines: result.lines,
        cursor: result.cursor,
        linesMissed: result.linesMissed,
        restarted: result.restarted,
        droppedLines: result.droppedLines,
      },
    };
  },
});

const DEFAULT_MAX_LINES = 200;

export const runShellCommandTool = libtmuxTool({
  name: 'run_shell_command',
  targets: ['paneId'],
  title: 'Run shell command',
  description:
    "Run a shell command in a pane with your user's permissions and get back its output and exit status in one call: " +
    "the command is typed at the pane's shell prompt (visible to anyone watching), and the call returns the moment it finishes. History: kept out of bash's, zsh's and fish's " +
    '(framed zsh, without the integration, saves it unless HIST_IGNORE_SPACE is set). ' +
    '`output` holds only what the command printed (no prompt, no echo ' +
    'of the command), escape sequences removed, long lines whole however the terminal wrapped them; the newest ' +
    '`maxLines` lines are kept (default 200, at most 2000) and `droppedLines` counts older ones left out. In bash, ' +
    'zsh and fish the shell integration (OSC 133 marks; installed once, out of history, by the first run in a pane ' +
    'found at its prompt, and present from the start in panes this server creates) keeps the pane clean. What a run ' +
    "is: the command runs in a subshell of the pane's shell, `( command )` in bash, zsh, sh and other POSIX shells, " +
    "`fish -c 'command'` in fish, so nothing it does persists: `exit`, `set -e`, `set -u`, traps, options, `cd`, " +
    '`export`, variables and background jobs end with it and the shell is left as it was. The answer is this ' +
    "command's own (its exit status and what it printed), tied to the very line typed, never to another line the " +
    'shell ran first (the answer says when it did). It is typed only once the shell sits at its prompt with its ' +
    'hooks finished. The pane shows the prompt, the command in its subshell and its output; in bash, zsh and fish ' +
    'nothing else, in other shells also the markers around it. When the pane prints faster than its output reaches this server (a flood), the end is read off ' +
    'the screen as soon as tmux has it, and `output` is the rows the screen shows. Multi-line commands and here-documents ' +
    'work; anything half-typed at the prompt is cleared first; stdin is the terminal, so add `</dev/null` to a ' +
    'command that might read it. The pane must show a shell prompt (sh, bash, dash, zsh, ksh, mksh, ash, ' +
    'busybox, fish); csh, tcsh, nu, pwsh, xonsh and elvish are refused, as are dead panes, panes in copy mode or ' +
    "with synchronize-panes on, panes running another program, and panes where an earlier call's command is still " +
    'running or never started (pass `force: true` only if a POSIX shell will read the input). ' +
    'Timeout: `timeoutMs` (default 30000, capped by the server ceiling; `effectiveTimeout` is in seconds). Keep it ' +
    "under your client's request timeout (often 60 s) unless it sends progress tokens; for longer jobs use a short " +
    'timeout and follow up with wait_for_text. When the deadline passes the answer has `timedOut: true`, ' +
    '`exitStatus: null` and the output so far, and its text says which case it is: RUNNING (the command keeps ' +
    'running; the text names the wait that ends with it: wait_for_channel in bash, zsh and fish, wait_for_text for ' +
    'the end marker elsewhere; or stop it with send_keys ["C-c"]) or NOT STARTED (the ' +
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
      command: string({
        description: 'Shell command line(s), as you would type them at the prompt. No tabs or control characters; lines up to 4000 bytes.',
      }),
      force: boolean({
        description:
          'Type the command even though the pane runs another program than a shell, still runs (or never started) a command an earlier call timed out on (the new one queues behind it), or is the pane this server runs in. Default false. Never overrides the refusal of non-POSIX shells, dead panes or modes.',
      }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most output lines returned, newest kept. Default 200.' }),
      timeoutMs: integer({
        minimum: 100,
        maximum: 600000,
        description:
          'Milliseconds to wait for the command to finish. Default 30000; the server ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS) may lower it.',
      }),
    },
    ['command', 'paneId'],
  ),
  output: object(
    {
      paneRef: string({ description: 'Ref of the pane the command ran in.' }),
      pane: string({ description: 'Pane id the command ran in.' }),
      exitStatus: nullable('integer', {
        description: "The command's exit status (0 = success); null when it had not finished (timedOut) or the pane went away.",
      }),
      timedOut: boolean({
        description: 'True when the deadline passed first: the command is still running, or never started (the text says which).',
      }),
      output: array(string(), { description: 'Lines the command printed, oldest first, without prompt or echo.' }),
      linesMissed: boolean({
        description: 'True when part of the output could not be observed at all, so more may be missing than droppedLines says.',
      }),
      droppedLines: integer({ description: 'Older output lines left out to stay within maxLines and the byte budget.' }),
      seconds: number({ description: 'How long the call took, in seconds.' }),
      effectiveTimeout: number({ description: 'The timeout that applied, in seconds, after the server ceiling.' }),
    },
    ['droppedLines', 'effectiveTimeout', 'exitStatus', 'linesMissed', 'output', 'pane', 'paneRef', 'seconds', 'timedOut'],
  ),
  typed: (args) => [typedText(args.command, true)],
  async handler(args, { ctx, signal, progress }) {
    const { engine } = ctx;
    const command = checkCommand(args.command); // before any tmux call
    const timeoutMs = engine.capWait(args.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const pane = await checkPane(engine, await resolvePane(engine, args.paneId), args.force ?? false);
    const result: RunResult = await withProgress(
      progress,
      timeoutMs,
      () => `command running in ${pane.id}`,
      () =>
        runCommand(engine, { pane, command, force: args.force ?? false, timeoutMs, maxLines: args.maxLines ?? DEFAULT_MAX_LINES, signal }),
    );
    // The command never finished: a failure, not a result whose exitStatus null reads like success.
    if (result.outcome === 'paneDead' || result.outcome === 'paneClosed') {
      throw new Failure(
        'not_found',
        runSummary(pane.id, result, timeoutMs),
        'list_panes shows what is there now; respawn_pane restarts a dead pane.',
      );
    }
    if (result.outcome === 'watchLost') throw new Failure('observation_lost', runSummary(pane.id, result, timeoutMs), WATCH_LOST_HINT);
    const structured = {
      paneRef: encodeRef('pane', pane.id, pane.incarnation),
      pane: pane.id,
      exitStatus: result.exitStatus,
      timedOut: result.outcome === 'timedOut' || result.outcome === 'notStarted',
      output: result.output,
      linesMissed: result.linesMissed,
      droppedLines: result.droppedLines,
      seconds: result.seconds,
      effectiveTimeout: timeoutMs / 1000,
    };
    return { structured, text: runSummary(pane.id, result, timeoutMs) };
  },
});

const WATCH_LOST_HINT =
  'Wait for the end marker with wait_for_text (output since the command was typed counts), or look with capture_pane.';

function runSummary(paneId: string, r: RunResult, timeoutMs: number): string {
  let head: string;
  switch (r.outcome) {
    case 'exited':
      head = `Exit status ${r.exitStatus} after ${r.seconds} s in ${paneId}.`;
      break;
    case 'timedOut':
      head = r.endMarker
        ? `RUNNING: still running in ${paneId} after ${timeoutMs / 1000} s (timedOut; exitStatus null). The command keeps running: wait for its end with wait_for_text (it prints "${r.endMarker} <status>" when done; output since the command was typed counts, no cursor needed), or stop it with send_keys ["C-c"]. New run_shell_command calls on this pane are refused until it ends.`
        : `RUNNING: still running in ${paneId} after ${timeoutMs / 1000} s (timedOut; exitStatus null). The command keeps running: wait for its end with wait_for_channel {"channel": "${r.endChannel}"} (the shell signals it when this very command ends, also if that was before you wait); its exit status is then the first line of the next run_shell_command's answer in this pane, and the pane option @tmux_mcp_end (show_option, pane scope) holds "<shell>.<line> <status> ...". Or stop it with send_keys ["C-c"]. New run_shell_command calls on this pane are refused until it ends.`;
      break;
    case 'notStarted':
      if (!r.typed) {
        head =
          `NOT STARTED: the shell in ${paneId} never sat at its prompt within ${timeoutMs / 1000} s (it runs something, or its prompt hooks are still running), so nothing was typed (timedOut; exitStatus null). ` +
          'Look with capture_pane; wait for what runs (wait_for_text) or stop it with send_keys ["C-c"], then run again; force: true types the command to queue behind it.';
        break;
      }
      head =
        `NOT STARTED: the shell in ${paneId} never ran the command within ${timeoutMs / 1000} s (timedOut; exitStatus null). ` +
        (r.othersFirst > 0
          ? `The shell is running ${r.othersFirst} other command line${r.othersFirst === 1 ? '' : 's'} first (typed ahead, or by someone in the pane); this one waits behind. `
          : '') +
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
      head = !r.typed
        ? `Cancelled before anything was typed into ${paneId} (its shell was not yet at its prompt).`
        : r.interrupted
          ? `Cancelled: the command in ${paneId} was interrupted with C-c.`
          : `Cancelled; the command may still be running in ${paneId} (sending C-c failed${r.endMarker ? `; it prints "${r.endMarker} <status>" when done` : ''}).`;
      break;
  }
  const notes = [
    r.earlier
      ? `[the command an earlier call timed out on ended ${r.earlier.secondsAgo} s ago with exit status ${r.earlier.status ?? 'unknown'}]`
      : '',
    r.othersFirst > 0 && r.outcome !== 'notStarted'
      ? `[the shell ran ${r.othersFirst} other command line${r.othersFirst === 1 ? '' : 's'} before this one (typed ahead, or by someone in the pane); their output is not in this answer]`
      : '',
    r.integration?.installed
      ? `[shell integration installed in this ${r.integration.shell} (once, out of history): from now on the pane shows only the commands typed and their output]`
      : '',
    r.integration ? '' : '[framed: this shell has no shell integration here, so the pane shows the markers around the command]',
    r.endFromScreen
      ? '[the end was read off the screen: the output stream lagged behind the pane (a flood), so the output is the rows the screen shows]'
      : '',
    r.droppedLines ? `[${r.droppedLines} older output lines left out]` : '',
    r.linesMissed ? '[some output could not be observed]' : '',
  ].filter(Boolean);
  return [head, ...notes, ...r.output].join('\n');
}
