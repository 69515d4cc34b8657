/**
 * Waiting for text in a pane: woken by the pane's `%output`, never by a polling timer. What counts
 * as new output starts at a point (`WaitStart`): a cursor's, or else the later of "just before the
 * last input into the pane" and "where the last wait on it stopped" (this process's, or another
 * tmux-mcp process's as kept in tmux: input-mark.ts), or else the moment the wait begins. Output
 * after that point can match even when it was printed before the call; text older than it is never
 * a match, only `matchedAtEntry`. Every ending is an answer with what was printed meanwhile.
 */
import type { Engine } from '../engine.js';
import { captureLines } from '../read/capture.js';
import { before, type StreamPosition } from './pane-stream.js';
import { openPaneStream } from './pane-streams.js';
import { waitResult, withBacklog } from './wait-result.js';
import type { WaitRequest, WaitResult } from './wait-request.js';
import { matchBacklog, scanner, seenAtEntry } from './wait-scanner.js';
import { waitStart } from './wait-start.js';
import { watchStream } from './watch-stream.js';
import { MARK_OPTION, parseMark } from './input-mark.js';
import { rowFormat } from '../../tmux/formats.js';

/** Read as a wait begins: whether the alternate screen shows, and the input mark left in the pane. */
const ENTRY_FORMAT = rowFormat({ alternate: 'alternate_on', mark: MARK_OPTION });

export { decodeCursor, encodeCursor, type WaitCursor } from './wait-cursor.js';
export { compileMatchers } from './wait-scanner.js';
export type { Matcher, WaitOutcome, WaitRequest, WaitResult, WaitStart } from './wait-request.js';

// ---- the wait -------------------------------------------------------------------------------

export async function waitForText(engine: Engine, request: WaitRequest): Promise<WaitResult> {
  const started = performance.now();
  const { pane } = request;
  if (pane.isDead) {
    const screen = await captureLines(engine, pane.id).catch(() => []);
    return waitResult(request, started, undefined, { line: 0, col: 0 }, 'paneDead', {
      sawNewOutput: false,
      matchedAtEntry: seenAtEntry(screen, request),
      alternateScreen: false,
    });
  }

  const lease = await openPaneStream(engine, pane);
  const stream = lease.stream;
  try {
    // Subscribed first, then looked: whatever the screen showed is "at entry"; the stream has the rest.
    const entry = captureLines(engine, pane.id).then(
      (lines) => seenAtEntry(lines, request),
      () => false,
    );
    entry.catch(() => {}); // a pattern that times out on the screen fails the call where `entry` is awaited, not the process
    // The stream knows the alternate screen from the switches it sees; before any, the state at entry holds.
    // The same read finds the input mark another process may have left (input-mark.ts).
    const atEntry = engine.run(['display-message', '-p', '-t', pane.id, ENTRY_FORMAT.format]).then(
      (lines) => ENTRY_FORMAT.parse(lines)[0],
      () => undefined,
    );
    const alternateAtEntry = atEntry.then((row) => row?.alternate === '1');
    const entryEnd = stream.end;
    const skipAlternate = request.skipAlternateScreen ? await alternateAtEntry : undefined;
    const mark = parseMark((await atEntry)?.mark ?? '');
    const { from, startedFrom, note, backlog } = await waitStart(engine, request, stream, entryEnd, mark);
    const early = matchBacklog(backlog, request);
    const scan = scanner(stream, from, request, skipAlternate);
    const watched = early ?? (await watchStream(engine, pane.id, stream, { timeoutMs: request.timeoutMs, signal: request.signal, scan }));
    const outcome = typeof watched === 'string' ? { outcome: watched } : watched;
    const at = 'at' in outcome ? (outcome.at as StreamPosition | undefined) : undefined;
    // A match in the backlog (capture_since rows) or in stream text received before the call began.
    const matchedBeforeCall =
      (outcome.outcome === 'matched' || outcome.outcome === 'stopped') &&
      (early !== undefined || (at !== undefined && !before(entryEnd, at)));
    // The next wait without a cursor starts where this one stopped (a cancelled one was never read).
    if (outcome.outcome !== 'cancelled') stream.consumed(at ?? stream.end);

    const result = waitResult(request, started, stream, from, outcome.outcome, {
      ...outcome,
      startedFrom,
      matchedBeforeCall,
      sawNewOutput: backlog.length > 0 || before(from, stream.end),
      // Pattern text on screen counts "at entry" only when it was not itself the (new) match.
      matchedAtEntry: (await entry) && !matchedBeforeCall,
      alternateScreen:
        (await alternateAtEntry) ||
        stream.alternate === true ||
        (stream.lastAlternateEntry !== undefined && !before(stream.lastAlternateEntry, from)),
      ...(note ? { note } : {}),
    });
    return withBacklog(result, backlog, from, request.maxLines);
  } finally {
    lease.release();
  }
}
