/**
 * Waiting for text in a pane: woken by the pane's `%output`, never by a polling timer. What counts
 * as new output starts at a point (`WaitStart`): a cursor's, or else the later of "just before this
 * server's last input into the pane" and "where the last wait on it stopped", or else the moment the
 * wait begins. Output after that point can match even when it was printed before the call; text
 * older than it is never a match, only `matchedAtEntry`. Every ending is an answer with what was
 * printed meanwhile.
 */
import { boundedRegex, MATCH_LIMIT_MS, MatchTimeoutError, type BoundedRegex } from '../read/bounded-regex.js';
import { captureLines, tailBudget } from '../read/capture.js';
import { captureSince } from '../read/capture-since.js';
import type { Engine } from '../engine.js';
import { before, openPaneStream, unreadStart, type PaneStream, type StreamPosition } from './pane-stream.js';
import type { PaneRecord } from '../read/records.js';
import { fingerprint } from '../targets/refs.js';
import { decodeToken, encodeToken } from '../read/tokens.js';
import { renderLine } from '../read/terminal-text.js';
import { failedAs, invalidArgument, isHostUnreachable } from '../failure.js';
import { onShutdown } from '../servers/shutdown.js';
import { PANE_ID } from '../../tmux/ids.js';

/** `watchLost`: the control connection carrying the pane's output broke while the pane lives on (rare). */
export type WaitOutcome = 'matched' | 'stopped' | 'timedOut' | 'paneDead' | 'paneClosed' | 'watchLost' | 'cancelled';

/** A compiled pattern: finds the end of its first match in `text`, or -1. */
export interface Matcher {
  readonly source: string;
  find(text: string): number;
}

export interface WaitRequest {
  readonly pane: PaneRecord;
  readonly patterns: readonly Matcher[];
  readonly stops: readonly Matcher[];
  /** Decoded cursor of an earlier wait on this pane, or undefined to start from now. */
  readonly cursor?: WaitCursor;
  /** Instead of `cursor`: a capture_since cursor; the rows new since it are matched first. */
  readonly since?: string;
  readonly timeoutMs: number;
  readonly maxLines: number;
  readonly signal: AbortSignal;
  /** Ignore output drawn while the pane shows the alternate screen (a full-screen program paints a picture, it does not print lines). */
  readonly skipAlternateScreen?: boolean;
}

/**
 * Where new output began for a wait: `cursor` / `since` (the caller's cursor), `input` (just before
 * this server's last input into the pane), `wait` (where the previous wait on the pane stopped),
 * `now` (the moment the wait began: the server had not typed into or waited on the pane lately).
 */
export type WaitStart = 'cursor' | 'since' | 'input' | 'wait' | 'now';

export interface WaitResult {
  readonly outcome: WaitOutcome;
  readonly startedFrom: WaitStart;
  /** The match is in output printed before this call began (after its starting point). */
  readonly matchedBeforeCall: boolean;
  readonly matched: string | null;
  readonly matchedIndex: number | null;
  readonly sawNewOutput: boolean;
  readonly matchedAtEntry: boolean;
  /** The pane showed the alternate screen (vim, less, top...) at some time during the wait. */
  readonly alternateScreen: boolean;
  readonly tail: string[];
  /** Older lines of the tail left out to stay within maxLines and the byte budget. */
  readonly droppedLines: number;
  readonly seconds: number;
  readonly cursor: string | null;
  /** Something the caller should know about how the wait began (a cursor that could not be honoured). */
  readonly note?: string;
}

/** How often a quiet wait checks that its pane still exists. Output wakes a wait at once; this only notices death. */
const LIVENESS_MS = 1000;

// ---- patterns -------------------------------------------------------------------------------

/** Compiles patterns (literal unless `regex`); a bad one is an invalid argument, before anything waits. */
export function compileMatchers(patterns: readonly string[], regex: boolean, field: string): Matcher[] {
  return patterns.map((source, index) => {
    if (source.length === 0) throw invalidArgument(`${field}[${index}] is empty; an empty pattern would match anything`);
    if (!regex) {
      return {
        source,
        find: (text) => {
          const at = text.indexOf(source);
          return at === -1 ? -1 : at + source.length;
        },
      };
    }
    let re: BoundedRegex;
    try {
      // A leading (?i), common in other regex dialects, means case-insensitive (JavaScript has no inline flags).
      re = source.startsWith('(?i)') ? boundedRegex(source.slice(4), 'i') : boundedRegex(source);
    } catch (error) {
      throw invalidArgument(`${field}[${index}] is not a valid regular expression: ${(error as Error).message}`, 'Escape special characters, or pass regex: false to match the text literally.');
    }
    return {
      source,
      find: (text) => {
        let m;
        try {
          m = re.exec(text);
        } catch (error) {
          if (!(error instanceof MatchTimeoutError)) throw error;
          throw invalidArgument(
            `${field}[${index}] ran for over ${MATCH_LIMIT_MS} ms on one line of output without finishing (a pattern with backreferences, lookaround or (?i) can backtrack without bound); the wait was ended`,
            'Simplify the pattern (no nested repetition), or pass regex: false to match literal text.',
          );
        }
        return m ? m.index + Math.max(m[0].length, 1) : -1;
      },
    };
  });
}

// ---- cursors --------------------------------------------------------------------------------

export interface WaitCursor {
  readonly fingerprint: string;
  readonly paneId: string;
  readonly streamKey: string;
  readonly position: StreamPosition;
}

const CURSOR_PREFIX = 'tmuxw1_';

export function encodeCursor(cursor: WaitCursor): string {
  return encodeToken(CURSOR_PREFIX, [cursor.fingerprint, cursor.paneId, cursor.streamKey, cursor.position.line, cursor.position.col]);
}

/** Parses a cursor; anything malformed is an invalid argument. */
export function decodeCursor(text: string): WaitCursor {
  const bad = () => invalidArgument('cursor is not one a previous wait_for_text returned', 'Pass the `cursor` field of an earlier wait_for_text result unchanged, or omit it to wait for output from now on.');
  const parts = decodeToken(CURSOR_PREFIX, text);
  if (!Array.isArray(parts) || parts.length !== 5) throw bad();
  const [fp, paneId, streamKey, line, col] = parts as unknown[];
  if (typeof fp !== 'string' || typeof paneId !== 'string' || !PANE_ID.test(paneId) || typeof streamKey !== 'string') throw bad();
  if (!Number.isSafeInteger(line) || !Number.isSafeInteger(col) || (line as number) < 0 || (col as number) < 0) throw bad();
  return { fingerprint: fp, paneId, streamKey, position: { line: line as number, col: col as number } };
}

// ---- the wait -------------------------------------------------------------------------------

export async function waitForText(engine: Engine, request: WaitRequest): Promise<WaitResult> {
  const started = performance.now();
  const { pane } = request;
  const fp = fingerprint(pane.incarnation);
  const finish = (
    stream: PaneStream | undefined,
    from: StreamPosition,
    outcome: WaitOutcome,
    extra: {
      matched?: Matcher;
      matchedIndex?: number;
      at?: StreamPosition;
      sawNewOutput: boolean;
      matchedAtEntry: boolean;
      alternateScreen: boolean;
      note?: string;
      startedFrom?: WaitStart;
      matchedBeforeCall?: boolean;
    },
  ): WaitResult => {
    const end = extra.at ?? stream?.end ?? from;
    // Only the newest lines are rendered: a long wait on a chatty pane may span thousands.
    const first = stream ? Math.max(from.line, stream.end.line - request.maxLines) : 0;
    const tail = stream
      ? tailBudget(linesBetween(stream, first > from.line ? { line: first, col: 0 } : from, stream.end), request.maxLines)
      : { lines: [], droppedLines: 0 };
    if (stream) tail.droppedLines += Math.max(0, first - Math.max(from.line, stream.firstLine));
    const resumable = stream && outcome !== 'paneClosed' && outcome !== 'watchLost';
    return {
      outcome,
      startedFrom: extra.startedFrom ?? 'now',
      matchedBeforeCall: extra.matchedBeforeCall ?? false,
      matched: extra.matched?.source ?? null,
      matchedIndex: extra.matchedIndex ?? null,
      sawNewOutput: extra.sawNewOutput,
      matchedAtEntry: extra.matchedAtEntry,
      alternateScreen: extra.alternateScreen,
      tail: tail.lines,
      droppedLines: tail.droppedLines,
      seconds: round3((performance.now() - started) / 1000),
      cursor: resumable ? encodeCursor({ fingerprint: fp, paneId: pane.id, streamKey: stream.key, position: end }) : null,
      ...(extra.note ? { note: extra.note } : {}),
    };
  };

  const entryCheck = (lines: string[]) => {
    const screen = lines.join('\n');
    return [...request.patterns, ...request.stops].some((m) => lines.some((line) => m.find(line) !== -1) || m.find(screen) !== -1);
  };

  if (pane.isDead) {
    const screen = await captureLines(engine, pane.id).catch(() => []);
    return finish(undefined, { line: 0, col: 0 }, 'paneDead', { sawNewOutput: false, matchedAtEntry: entryCheck(screen), alternateScreen: false });
  }

  const lease = await openPaneStream(engine, pane);
  const stream = lease.stream;
  try {
    // Subscribed first, then looked: whatever the screen showed is "at entry"; the stream has the rest.
    const entry = captureLines(engine, pane.id).then(entryCheck, () => false);
    entry.catch(() => {}); // a pattern that times out on the screen fails the call where `entry` is awaited, not the process
    // The stream knows the alternate screen from the switches it sees; before any, the state at entry holds.
    const alternateAtEntry = engine.run(['display-message', '-p', '-t', pane.id, '#{alternate_on}']).then(([flag]) => flag === '1', () => false);
    const entryEnd = stream.end;
    const skipAlternate = request.skipAlternateScreen ? await alternateAtEntry : undefined;
    let from = entryEnd;
    let note: string | undefined;
    let startedFrom: WaitStart = request.since !== undefined ? 'since' : 'now';
    const cursor = request.cursor;
    const unread = !cursor && request.since === undefined ? unreadStart(stream, entryEnd) : undefined;
    if (unread) {
      // Our last input (or the last wait) marked where new output begins: what the pane printed since counts.
      startedFrom = unread.reason;
      from = unread.from;
      if (unread.dropped > 0) note = `Output older than the buffer (${unread.dropped} lines) was dropped since the last input; matching starts from the oldest line kept.`;
    }
    if (cursor) {
      startedFrom = 'cursor';
      if (cursor.streamKey !== stream.key) {
        note = 'The cursor belongs to a watch that has ended (idle for a long time, or the server restarted); waiting from now on, so output printed between the two calls may be missed.';
      } else {
        const end = stream.end;
        from = before(cursor.position, end) ? cursor.position : end;
        if (from.line < stream.firstLine) {
          note = `Output older than the buffer (${stream.firstLine - from.line} lines) was dropped since the cursor; matching resumes from the oldest line kept.`;
          from = { line: stream.firstLine, col: 0 };
        }
      }
    }

    // A capture_since cursor: the rows that changed since it (read after subscribing, so nothing
    // falls between them and the stream) are matched before any live output.
    let backlog: string[] = [];
    if (request.since !== undefined) {
      const since = await captureSince(engine, pane, { cursor: request.since, maxLines: 2000 });
      backlog = since.lines;
      if (since.restarted) note = 'The capture_since cursor was for another pane incarnation; waiting from now on.';
      else if (since.linesMissed) note = 'Rows may have been missed since the capture_since cursor (history trimmed or cleared).';
    }
    const early = matchBacklog(backlog, request);

    // Scans what arrived since the last scan; complete lines are scanned once, the unfinished last line again as it grows.
    let scanned = from;
    const scan = (): { outcome: WaitOutcome; matched?: Matcher; matchedIndex?: number; at?: StreamPosition } | undefined => {
      const last = stream.end;
      if (skipAlternate !== undefined && (stream.alternate ?? skipAlternate)) {
        scanned = last;
        return undefined;
      }
      for (let n = Math.max(scanned.line, stream.firstLine); n <= last.line; n++) {
        const col = n === scanned.line ? scanned.col : 0;
        const text = stream.line(n) ?? '';
        const segment = col > 0 ? text.slice(col) : text;
        const hit = segment.length > 0 ? firstMatch(segment, request) : undefined;
        // Any output at all (no patterns) ends the wait at the end of what arrived.
        if (hit) return { ...hit, at: hit.at === undefined ? stream.end : { line: n, col: col + hit.at } };
        if (n < last.line) scanned = { line: n + 1, col: 0 };
      }
      return undefined;
    };
    const watched = early ?? (await watchStream(engine, pane.id, stream, { timeoutMs: request.timeoutMs, signal: request.signal, scan }));
    const outcome = typeof watched === 'string' ? { outcome: watched } : watched;
    const at = 'at' in outcome ? (outcome.at as StreamPosition | undefined) : undefined;
    // A match in the backlog (capture_since rows) or in stream text received before the call began.
    const matchedBeforeCall = (outcome.outcome === 'matched' || outcome.outcome === 'stopped') && (early !== undefined || (at !== undefined && !before(entryEnd, at)));
    // The next wait without a cursor starts where this one stopped (a cancelled one was never read).
    if (outcome.outcome !== 'cancelled') stream.consumed(at ?? stream.end);

    const result = finish(stream, from, outcome.outcome, {
      ...outcome,
      startedFrom,
      matchedBeforeCall,
      sawNewOutput: backlog.length > 0 || before(from, stream.end),
      // Pattern text on screen counts "at entry" only when it was not itself the (new) match.
      matchedAtEntry: (await entry) && !matchedBeforeCall,
      alternateScreen: (await alternateAtEntry) || stream.alternate === true || (stream.lastAlternateEntry !== undefined && !before(stream.lastAlternateEntry, from)),
      ...(note ? { note } : {}),
    });
    if (backlog.length === 0) return result;
    // The backlog was read after the stream began, so its last rows may be the stream's first lines again.
    const joined = result.droppedLines === 0 ? joinBacklog(backlog, result.tail, from.col > 0) : [...backlog, ...result.tail];
    const tail = tailBudget(joined, request.maxLines);
    return { ...result, tail: tail.lines, droppedLines: result.droppedLines + tail.droppedLines };
  } finally {
    lease.release();
  }
}

/**
 * Screen rows read after the stream began (`rows`) followed by the stream's lines (`lines`),
 * without the lines both hold. Either may run further than the other (the two come over different
 * tmux connections), so the stream's first line is looked for in the rows, earliest first, and
 * taken as the seam when everything after it agrees. The stream's first line may be the end of a
 * row (`firstPartial`), and the last line compared may still have been printing when read.
 */
export function joinBacklog(rows: readonly string[], lines: readonly string[], firstPartial: boolean): string[] {
  if (lines.length === 0) return [...rows];
  for (let j = 0; j < rows.length; j++) {
    const n = Math.min(rows.length - j, lines.length);
    let same = true;
    for (let i = 0; same && i < n; i++) {
      const row = rows[j + i]!.trimEnd();
      const line = lines[i]!.trimEnd();
      same =
        row === line ||
        (i === 0 && firstPartial && line.length > 0 && row.endsWith(line)) ||
        (i === n - 1 && ((line.length > 0 && row.startsWith(line)) || (row.length > 0 && line.startsWith(row))));
    }
    if (same) return rows.length - j > lines.length ? [...rows] : [...rows.slice(0, j), ...lines];
  }
  return [...rows, ...lines];
}

/** The first stop or pattern in rows read from the screen (a capture_since backlog). */
function matchBacklog(rows: readonly string[], request: WaitRequest): { outcome: WaitOutcome; matched?: Matcher; matchedIndex?: number } | undefined {
  for (const row of rows) {
    const hit = firstMatch(row, request);
    // Not `at`: a column in one row, not a place in the stream.
    if (hit) return { outcome: hit.outcome, matched: hit.matched, matchedIndex: hit.matchedIndex };
  }
  return undefined;
}

/**
 * What ends a wait in `text`: a stop first, then a pattern (with where its match ends in `at`);
 * with no patterns, any text that is not blank (no `at`).
 */
function firstMatch(text: string, request: WaitRequest): { outcome: WaitOutcome; matched?: Matcher; matchedIndex?: number; at?: number } | undefined {
  for (const [list, outcome] of [[request.stops, 'stopped'], [request.patterns, 'matched']] as const) {
    for (let i = 0; i < list.length; i++) {
      const at = list[i]!.find(text);
      if (at !== -1) return { outcome, matched: list[i], matchedIndex: i, at };
    }
  }
  if (request.patterns.length === 0 && text.trim().length > 0) return { outcome: 'matched' };
  return undefined;
}

/** How a watch ends when what it waited for never came. */
export type WatchEnding = 'timedOut' | 'cancelled' | 'paneDead' | 'paneClosed' | 'watchLost';

/**
 * Follows a pane's stream until `scan` finds what the caller waits for (it runs at once and on
 * every output), the deadline passes, the caller cancels, or the pane dies, goes away or stops
 * being watched; a slow heartbeat notices a death that sends no notification. `scan` runs once
 * more before a death is reported, so output printed just before it still counts. A `scan` that
 * throws (a pattern out of time) ends the watch with its error.
 */
export function watchStream<T>(
  engine: Engine,
  paneId: string,
  stream: PaneStream,
  options: { readonly timeoutMs: number; readonly signal: AbortSignal; readonly scan: () => T | undefined },
): Promise<T | WatchEnding> {
  return new Promise((resolve, reject) => {
    let done = false;
    const cleanups: Array<() => void> = [];
    const settle = (settleWith: () => void) => {
      if (done) return;
      done = true;
      for (const cleanup of cleanups) cleanup();
      settleWith();
    };
    const end = (value: T | WatchEnding) => settle(() => resolve(value));
    /** True once the watch has ended. */
    const scan = (): boolean => {
      if (done) return true;
      try {
        const found = options.scan();
        if (found !== undefined) end(found);
      } catch (error) {
        settle(() => reject(error));
      }
      return done;
    };
    const gone = (state: 'alive' | 'dead' | 'gone') => end(state === 'alive' ? 'watchLost' : state === 'dead' ? 'paneDead' : 'paneClosed');

    let checking = false;
    const checkLiveness = () => {
      if (checking || done) return;
      checking = true;
      paneState(engine, paneId)
        .then((state) => {
          if (state !== 'alive' && !scan()) gone(state);
        })
        // A host that stopped answering (ssh down or hung past the command timeout) ends the wait
        // with that error; a local hiccup is left to the next beat.
        .catch((error: unknown) => {
          if (engine.tmux.host !== undefined && isHostUnreachable(error)) settle(() => reject(error));
        })
        .finally(() => (checking = false));
    };

    if (scan()) return;
    cleanups.push(
      stream.listen((event) => {
        if (event === 'output' || event === 'skipped') scan();
        else if (event === 'structure') checkLiveness();
        // The client left: the session (and the pane) ended, or the connection broke.
        // A host that cannot be reached any more is that error, not a closed pane; one whose link
        // just went silent is said at once, without asking the silent host about the pane.
        // Killed with the command client, the first look may fail too: the second one reconnects.
        // When neither can tell, the watch is what was lost, not the pane.
        else if (!scan()) {
          const lost = engine.linkLost;
          if (lost) settle(() => reject(lost));
          else {
            paneState(engine, paneId)
              .catch((error: unknown) => (failedAs(error, 'connection_lost', 'attach_refused', 'link_silent') ? paneState(engine, paneId) : Promise.reject(error)))
              .then(gone, (error) => (engine.tmux.host !== undefined && isHostUnreachable(error) ? settle(() => reject(error)) : end('watchLost')));
          }
        }
      }),
    );
    const deadline = setTimeout(() => end('timedOut'), options.timeoutMs);
    const heartbeat = setInterval(checkLiveness, LIVENESS_MS);
    cleanups.push(() => clearTimeout(deadline), () => clearInterval(heartbeat));
    // Shutting down: the wait ends now with what it has, as at its deadline.
    cleanups.push(onShutdown(() => end('timedOut')));
    const onAbort = () => end('cancelled');
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => options.signal.removeEventListener('abort', onAbort));
  });
}

/** Whether a pane still exists and runs, in one small round trip. */
export async function paneState(engine: Engine, paneId: string): Promise<'alive' | 'dead' | 'gone'> {
  try {
    const [line] = await engine.run(['display-message', '-p', '-t', paneId, '#{pane_id} #{pane_dead}']);
    if (!line || !line.startsWith(paneId + ' ')) return 'gone';
    return line.endsWith(' 1') ? 'dead' : 'alive';
  } catch (error) {
    if (failedAs(error, 'tmux_failed', 'no_server')) return 'gone';
    throw error;
  }
}

/** The lines of a stream from `from` to `to`, rendered for reading (overwrites applied); the unfinished last line only when it has text. */
export function linesBetween(stream: PaneStream, from: StreamPosition, to: StreamPosition): string[] {
  const lines: string[] = [];
  for (let n = Math.max(from.line, stream.firstLine); n <= to.line; n++) {
    let text = stream.line(n) ?? '';
    if (n === to.line) text = text.slice(0, to.col);
    if (n === from.line) text = text.slice(from.col);
    if (n === to.line && text.length === 0) break;
    lines.push(renderLine(text));
  }
  return lines;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
