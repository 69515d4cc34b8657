/**
 * Where a wait's new output begins (`WaitStart`): a cursor's position, or else the later of "just
 * before the last input into the pane" and "where the last wait on it stopped" (this process's, or
 * another tmux-mcp process's as kept in tmux), or else the moment the wait began; with a
 * capture_since cursor, or another process's mark, the rows changed since it come first.
 */
import type { Engine } from '../engine.js';
import { captureSince, rowsSincePoint } from '../read/capture-since.js';
import { markToCountFrom, type InputMark } from './input-mark.js';
import { before, unreadStart, type PaneStream, type StreamPosition } from './pane-stream.js';
import type { WaitRequest, WaitStart } from './wait-request.js';

export interface StartPoint {
  readonly from: StreamPosition;
  readonly startedFrom: WaitStart;
  /** Something the caller should know about how the wait began (a cursor that could not be honoured). */
  readonly note: string | undefined;
  /** capture_since rows to match before any live output (empty without `since`). */
  readonly backlog: string[];
}

/**
 * The start of a wait on `stream`, whose end was `entryEnd` when the wait subscribed; `mark`: the
 * input mark found in the pane (input-mark.ts), which counts when another process set it later.
 */
export async function waitStart(
  engine: Engine,
  request: WaitRequest,
  stream: PaneStream,
  entryEnd: StreamPosition,
  mark?: InputMark,
): Promise<StartPoint> {
  let from = entryEnd;
  let note: string | undefined;
  let startedFrom: WaitStart = request.since !== undefined ? 'since' : 'now';
  const cursor = request.cursor;
  const plain = !cursor && request.since === undefined;
  const elsewhere = plain ? markToCountFrom(mark, stream.unread) : undefined;
  if (elsewhere) {
    // Read after subscribing, so nothing falls between these rows and the stream's output from here on.
    const since = await rowsSincePoint(engine, request.pane, elsewhere, 2000).catch(() => undefined);
    if (since) {
      if (since.linesMissed) note = 'Rows may have been missed since the last input (history trimmed or cleared).';
      return { from, startedFrom: elsewhere.reason, note, backlog: since.lines };
    }
  }
  const unread = plain ? unreadStart(stream, entryEnd) : undefined;
  if (unread) {
    // Our last input (or the last wait) marked where new output begins: what the pane printed since counts.
    startedFrom = unread.reason;
    from = unread.from;
    if (unread.dropped > 0)
      note = `Output older than the buffer (${unread.dropped} lines) was dropped since the last input; matching starts from the oldest line kept.`;
  }
  if (cursor) {
    startedFrom = 'cursor';
    if (cursor.streamKey !== stream.key) {
      note =
        'The cursor belongs to a watch that has ended (idle for a long time, or the server restarted); waiting from now on, so output printed between the two calls may be missed.';
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
    const since = await captureSince(engine, request.pane, { cursor: request.since, maxLines: 2000 });
    backlog = since.lines;
    if (since.restarted) note = 'The capture_since cursor was for another pane incarnation; waiting from now on.';
    else if (since.linesMissed) note = 'Rows may have been missed since the capture_since cursor (history trimmed or cleared).';
  }
  return { from, startedFrom, note, backlog };
}
