/**
 * Following a pane's stream until what a caller waits for shows, the deadline passes, the caller
 * cancels, or the pane dies, goes away or stops being watched; and reading a stream's lines.
 */
import type { Engine } from '../engine.js';
import { failedAs, isHostUnreachable } from '../failure.js';
import { renderLine } from '../read/terminal-text.js';
import { onShutdown } from '../servers/shutdown.js';
import type { PaneStream, StreamPosition } from './pane-stream.js';

/** How often a quiet wait checks that its pane still exists. Output wakes a wait at once; this only notices death. */
const LIVENESS_MS = 1000;

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
              .catch((error: unknown) =>
                failedAs(error, 'connection_lost', 'attach_refused', 'link_silent') ? paneState(engine, paneId) : Promise.reject(error),
              )
              .then(gone, (error) =>
                engine.tmux.host !== undefined && isHostUnreachable(error) ? settle(() => reject(error)) : end('watchLost'),
              );
          }
        }
      }),
    );
    const deadline = setTimeout(() => end('timedOut'), options.timeoutMs);
    const heartbeat = setInterval(checkLiveness, LIVENESS_MS);
    cleanups.push(
      () => clearTimeout(deadline),
      () => clearInterval(heartbeat),
    );
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
