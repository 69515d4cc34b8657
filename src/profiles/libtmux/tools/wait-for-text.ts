import { array, boolean, integer, nullable, number, object, string } from '../../../mcp/tools/schema.js';
import { compileMatchers, decodeCursor, waitForText, type WaitCursor, type WaitResult } from '../../../core/watch/wait.js';
import { decodeCursor as decodeSinceCursor, isSinceCursor } from '../../../core/read/capture-since.js';
import { refused } from '../../../core/failure.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { fingerprint } from '../../../core/targets/refs.js';
import { libtmuxTool } from '../declare.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_TAIL_LINES = 20;
const PATTERN = string({ 'x-libtmux-max-utf8-bytes': 4096 });

interface Args {
  paneId: string;
  patterns: string[];
  stop?: string[];
  regex?: boolean;
  cursor?: string;
  maxLines?: number;
  timeoutMs?: number;
}

export const waitForTextTool = libtmuxTool({
  name: 'wait_for_text',
  title: 'Wait for text',
  description:
    'Block until a pane prints one of `patterns`, instead of sleeping and re-reading the screen. Wakes the moment the ' +
    'pane writes (no polling). What counts as new output: after send_keys, paste_text or run_shell_command from this ' +
    'server into the pane, everything the pane printed since that input, even output that came before this call ' +
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
    '`effectiveTimeout` reports what applied, in seconds. Keep it under your client\'s request timeout (often 60 s) ' +
    'unless your client sends progress tokens (progress is reported every second); to wait longer, call again: nothing ' +
    'printed in between is missed. For a command you start yourself, run_shell_command waits for it and returns ' +
    'its output and exit status in one call.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref to watch.' }),
      patterns: array(PATTERN, {
        maxItems: 32,
        description: 'Text to wait for (up to 32, each up to 4096 UTF-8 bytes); the first to appear ends the wait with outcome "matched". Empty list: any new output.',
      }),
      stop: array(PATTERN, {
        maxItems: 32,
        description: 'Failure markers (up to 32): the first to appear ends the wait with outcome "stopped". Checked before `patterns` on the same line.',
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
          'A capture_since cursor works too: the rows new since it are matched first. Omit it to use the rule above (since this server\'s last input, or the last wait, or now).',
      }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most lines of `tail` returned, newest kept. Default 20.' }),
      timeoutMs: integer({ minimum: 100, maximum: 600000, description: 'Milliseconds to wait before answering with outcome "timedOut". Default 30000; the server ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS) may lower it.' }),
    },
    ['paneId', 'patterns'],
  ),
  output: object(
    {
      paneRef: string({ description: 'Ref of the pane watched.' }),
      outcome: string({ description: 'How the wait ended: matched, stopped, timedOut, paneDead (its program exited), paneClosed (the pane is gone), watchLost (the output connection broke; call again) or cancelled.' }),
      matched: nullable('string', { description: 'The pattern (or stop pattern) that ended the wait, as given; null otherwise, and for any-output waits.' }),
      matchedIndex: nullable('integer', { description: 'Index of that pattern in `patterns` (outcome matched) or in `stop` (outcome stopped); null otherwise.' }),
      sawNewOutput: boolean({ description: 'Whether the pane printed anything new (see the description for where new output starts). False after a timeout means it stayed quiet: the command probably never ran.' }),
      matchedAtEntry: boolean({ description: 'A pattern or stop pattern was on screen when the wait began, in text older than where new output starts. That text does not count as a match; if it was what you wanted, read it with capture_pane.' }),
      tail: array(string(), { description: 'The last lines of new output (escape sequences removed), oldest first.' }),
      seconds: number({ description: 'How long the wait took, in seconds.' }),
      cursor: nullable('string', { description: 'Pass to the next wait_for_text on this pane to resume right after this one (after the match, or after everything seen). Null when the pane is gone.' }),
      effectiveTimeout: number({ description: 'The timeout that applied, in seconds, after the server ceiling.' }),
    },
    ['cursor', 'effectiveTimeout', 'matched', 'matchedAtEntry', 'matchedIndex', 'outcome', 'paneRef', 'sawNewOutput', 'seconds', 'tail'],
  ),
  async handler(args: Args, { ctx, signal, progress }) {
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

    const pane = await engine.resolvePane(args.paneId);
    if (cursor) {
      if (cursor.paneId !== pane.id) throw refused(`the cursor is for pane ${cursor.paneId}, not ${pane.id}`, 'Pass the cursor only to waits on the pane it came from, or omit it.');
      if (cursor.fingerprint !== fingerprint(pane.incarnation)) {
        throw refused('the cursor is stale: it belongs to an earlier tmux server on this socket', 'Omit the cursor to wait for output from now on.');
      }
    }
    const result: WaitResult = await withProgress(progress, timeoutMs, () => `waiting for output in ${pane.id}`, () =>
      waitForText(engine, { pane, patterns, stops, cursor, since, timeoutMs, maxLines: args.maxLines ?? DEFAULT_TAIL_LINES, signal }),
    );
    const structured = {
      paneRef: engine.ref('pane', pane.id, pane.incarnation),
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
    return { structured, text: summary(pane.id, result, timeoutMs) };
  },
});

/** Where new output began for this wait, in words. */
const STARTED_FROM: Record<WaitResult['startedFrom'], string> = {
  cursor: 'since the cursor',
  since: 'since the capture_since cursor',
  input: "since this server's last input into the pane",
  wait: 'since the previous wait on this pane stopped',
  now: 'since this wait began (this server had not typed into or waited on the pane lately)',
};

/** What a reader of the text alone needs: how it ended, what to do next, the cursor, and the tail. */
function summary(paneId: string, r: WaitResult, timeoutMs: number): string {
  const head: string[] = [];
  const when = r.matchedBeforeCall ? `, already printed before this call (${STARTED_FROM[r.startedFrom]})` : '';
  switch (r.outcome) {
    case 'matched':
      head.push(r.matched === null ? `${paneId} printed new output after ${r.seconds} s${when}.` : `Matched ${JSON.stringify(r.matched)} (patterns[${r.matchedIndex}]) in ${paneId} after ${r.seconds} s${when}.`);
      break;
    case 'stopped':
      head.push(`Stopped: ${JSON.stringify(r.matched)} (stop[${r.matchedIndex}]) appeared in ${paneId} after ${r.seconds} s${when}.`);
      break;
    case 'timedOut':
      head.push(`No match in ${paneId} within ${timeoutMs / 1000} s.`);
      if (r.matchedAtEntry) head.push('A pattern was already on screen before this wait began; it does not count as new output. Read it with capture_pane.');
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
      head.push(`The observation of ${paneId} was lost: the connection carrying its output broke (the pane still exists). Call again: the next wait watches afresh.`);
      break;
    case 'cancelled':
      head.push('The wait was cancelled.');
      break;
  }
  if (r.outcome !== 'matched' && r.outcome !== 'stopped') head.push(`New output counted ${STARTED_FROM[r.startedFrom]}.`);
  if (r.note) head.push(r.note);
  if (r.cursor) head.push(`cursor: ${r.cursor}`);
  const tail = r.tail.length ? `\n--- last ${r.tail.length} line(s) of new output${r.droppedLines ? ` (${r.droppedLines} older left out)` : ''} ---\n${r.tail.join('\n')}` : '';
  return head.join('\n') + tail;
}
