/**
 * A wait's answer: how it ended, what matched and where, the newest lines printed meanwhile within
 * the line and byte budgets (capture_since rows first, without the lines both hold), and the cursor
 * the next wait can resume from.
 */
import { tailBudget } from '../read/capture.js';
import { fingerprint } from '../targets/refs.js';
import type { PaneStream, StreamPosition } from './pane-stream.js';
import type { Matcher, WaitOutcome, WaitRequest, WaitResult, WaitStart } from './wait-request.js';
import { encodeCursor } from './wait-cursor.js';
import { linesBetween } from './watch-stream.js';

export interface Ending {
  readonly matched?: Matcher;
  readonly matchedIndex?: number;
  readonly at?: StreamPosition;
  readonly sawNewOutput: boolean;
  readonly matchedAtEntry: boolean;
  readonly alternateScreen: boolean;
  readonly note?: string;
  readonly startedFrom?: WaitStart;
  readonly matchedBeforeCall?: boolean;
}

/** The result of a wait begun at `started` (performance.now()) that read `stream` from `from` and ended with `outcome`. */
export function waitResult(
  request: WaitRequest,
  started: number,
  stream: PaneStream | undefined,
  from: StreamPosition,
  outcome: WaitOutcome,
  extra: Ending,
): WaitResult {
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
    cursor: resumable
      ? encodeCursor({ fingerprint: fingerprint(request.pane.incarnation), paneId: request.pane.id, streamKey: stream.key, position: end })
      : null,
    ...(extra.note ? { note: extra.note } : {}),
  };
}

/** `result` with capture_since rows (`backlog`) before its tail, the lines both hold once, within `maxLines`. */
export function withBacklog(result: WaitResult, backlog: readonly string[], from: StreamPosition, maxLines: number): WaitResult {
  if (backlog.length === 0) return result;
  // The backlog was read after the stream began, so its last rows may be the stream's first lines again.
  const joined = result.droppedLines === 0 ? joinBacklog(backlog, result.tail, from.col > 0) : [...backlog, ...result.tail];
  const tail = tailBudget(joined, maxLines);
  return { ...result, tail: tail.lines, droppedLines: result.droppedLines + tail.droppedLines };
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

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
