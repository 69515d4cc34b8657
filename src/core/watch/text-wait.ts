/**
 * Waiting for one literal text in a pane, woken by its `%output`: either in output the pane printed
 * since this server last typed into it or waited on it (the rule every profile's waits share, see
 * unreadStart), or, when the server did neither, already on screen when the wait begins (the
 * baseline), or in output printed after the watch began. Every ending other than a match is a
 * typed failure, so a caller never mistakes "not seen" for "seen".
 */
import { captureLines } from '../read/capture.js';
import type { Engine } from '../engine.js';
import { Failure } from '../failure.js';
import { unreadStart, type StreamPosition } from './pane-stream.js';
import { openPaneStream } from './pane-streams.js';
import { watchStream } from './watch-stream.js';
import { isShuttingDown } from '../servers/shutdown.js';

export interface LiteralWait {
  readonly pane: { readonly id: string; readonly sessionId: string };
  readonly text: string;
  /**
   * Output since this server's last input into the pane, or since the end of the last wait on it,
   * whichever is later, counts even when printed before the call; when there is neither, the
   * screen is looked at first (after the watch began), refusing one over `maxBytes` UTF-8 bytes.
   * Without it only output printed after the watch began counts.
   */
  readonly baseline?: { readonly maxBytes: number };
  /** Runs once the watch is live and before it is scanned: input whose echo may be what is waited for. */
  readonly before?: () => Promise<void>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export type LiteralSource = 'baseline' | 'output';

export async function waitForLiteral(engine: Engine, request: LiteralWait): Promise<LiteralSource> {
  const lease = await openPaneStream(engine, request.pane);
  try {
    const { stream } = lease;
    let from: StreamPosition = stream.end;
    const unread = request.baseline ? unreadStart(stream, from) : undefined;
    if (unread) from = unread.from;
    else if (request.baseline) {
      const screen = (await captureLines(engine, request.pane.id, { keepTrailingBlank: true })).join('\n');
      const bytes = Buffer.byteLength(screen, 'utf8');
      if (bytes > request.baseline.maxBytes) {
        throw new Failure(
          'too_large',
          `stdout exceeded ${request.baseline.maxBytes} bytes`,
          'The screen is too large to compare; make the pane smaller.',
        );
      }
      if (screen.includes(request.text)) {
        // The next wait starts after what this one was answered from.
        stream.consumed(stream.end);
        return 'baseline';
      }
    }
    await request.before?.();
    // Lines are scanned whole each time they grow: a match may span the chunks tmux split them into.
    let line = from.line;
    let col = from.col;
    const ending = await watchStream(engine, request.pane.id, stream, {
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      scan: () => {
        for (let n = Math.max(line, stream.firstLine); n <= stream.end.line; n++) {
          const start = n === line ? col : 0;
          const at = (stream.line(n) ?? '').indexOf(request.text, start);
          if (at !== -1) return { line: n, col: at + request.text.length };
          if (n < stream.end.line) {
            line = n + 1;
            col = 0;
          }
        }
        return undefined;
      },
    });
    // The next wait without a cursor starts where this one stopped (a cancelled one was never read).
    if (ending !== 'cancelled') stream.consumed(typeof ending === 'object' ? ending : stream.end);
    if (typeof ending === 'object') return 'output';
    switch (ending) {
      case 'timedOut':
        // A literal wait has nothing partial to give: ended by shutdown, it says so.
        if (isShuttingDown()) throw new Failure('cancelled', 'the wait ended early: the server is shutting down');
        throw new Failure('timeout', `the text did not appear within ${request.timeoutMs} ms`);
      case 'cancelled':
        throw new Failure('cancelled', 'the wait was cancelled');
      case 'watchLost':
        throw new Failure(
          'observation_lost',
          "the observation was lost: the connection carrying the pane's output broke (the pane still exists)",
          'Call again; the wait watches afresh.',
        );
      default:
        throw new Failure(
          'observation_lost',
          `the pane's output could no longer be followed (${ending === 'paneDead' ? 'its program exited' : 'the pane closed'})`,
          'List the panes again; the pane may be gone.',
        );
    }
  } finally {
    lease.release();
  }
}
