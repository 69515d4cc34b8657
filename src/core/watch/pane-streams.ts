/**
 * The pane streams of an engine, shared: every wait and run on a pane reads the same one. After
 * its last user lets go a stream lingers for a while (so a cursor handed out stays resumable),
 * then detaches. The number of streams is bounded; idle ones are closed first.
 */
import { type Engine, perServer } from '../engine.js';
import { settleMarks, writeMark } from './input-mark.js';
import { PaneStream } from './pane-stream.js';

/** The shared output stream of each watched pane. */
const paneStreams = perServer(() => new Map<string, StreamEntry>());

/** How long an unused stream stays attached so its cursors remain resumable. */
const LINGER_MS = 10 * 60_000;
/** Most streams open at once; idle ones are closed first when a new one is needed. */
const MAX_STREAMS = 64;

/** A stream in use; `release` when done (the stream lingers, see LINGER_MS). */
export interface StreamLease {
  readonly stream: PaneStream;
  release(): void;
}

export interface StreamEntry {
  readonly opening: Promise<PaneStream>;
  stream?: PaneStream;
  stop?: () => void;
  users: number;
  lastUsed: number;
  linger?: NodeJS.Timeout;
}

/**
 * The shared stream of `paneId` (in session `sessionId`), watching from now on if none is open.
 * Output the pane prints after this resolves is never missed.
 */
export async function openPaneStream(engine: Engine, pane: { readonly id: string; readonly sessionId: string }): Promise<StreamLease> {
  // Every input, run and wait opens the pane's stream: the one place that sees them all.
  engine.options.recorder?.actedOn(engine, pane.id, pane.sessionId);
  const registry = paneStreams(engine);
  let entry = registry.get(pane.id);
  if (entry?.stream && (entry.stream.closed !== undefined || entry.stream.sessionId !== pane.sessionId)) {
    // Ended, or the pane moved to another session whose output this client does not see.
    closeEntry(registry, pane.id, entry, 'replaced');
    entry = undefined;
  }
  if (!entry) {
    entry = createEntry(engine, registry, pane.id, pane.sessionId);
    registry.set(pane.id, entry);
  }
  entry.users++;
  clearTimeout(entry.linger);
  entry.linger = undefined;
  let stream: PaneStream;
  try {
    stream = await entry.opening;
  } catch (error) {
    entry.users--;
    throw error;
  }
  const held = entry;
  let released = false;
  return {
    stream,
    release() {
      if (released) return;
      released = true;
      held.users--;
      held.lastUsed = Date.now();
      if (held.users > 0 || registry.get(pane.id) !== held) return;
      held.linger = setTimeout(() => closeEntry(registry, pane.id, held, 'idle'), LINGER_MS);
      held.linger.unref();
    },
  };
}

function createEntry(engine: Engine, registry: Map<string, StreamEntry>, paneId: string, sessionId: string): StreamEntry {
  evictIdle(registry);
  const stream = new PaneStream(paneId, sessionId);
  // Where new output starts is kept in tmux too, for the waits of other processes (read-only changes nothing there).
  if (!engine.options.readOnly) stream.onUnread = (mark) => writeMark(engine, paneId, mark);
  const entry: StreamEntry = {
    users: 0,
    lastUsed: Date.now(),
    opening: engine
      .watchPane(sessionId, paneId, {
        output: (text, ageMs, skipped) => (skipped ? stream.skip() : stream.push(text, ageMs)),
        notification: (name) => stream.notify(name),
        close: (reason) => {
          stream.close(reason);
          if (registry.get(paneId) === entry) registry.delete(paneId);
          clearTimeout(entry.linger);
        },
      })
      .then(
        (stop) => {
          entry.stop = stop;
          entry.stream = stream;
          if (stream.closed !== undefined) stop();
          return stream;
        },
        (error: unknown) => {
          if (registry.get(paneId) === entry) registry.delete(paneId);
          throw error;
        },
      ),
  };
  return entry;
}

function closeEntry(registry: Map<string, StreamEntry>, paneId: string, entry: StreamEntry, reason: string): void {
  if (registry.get(paneId) === entry) registry.delete(paneId);
  clearTimeout(entry.linger);
  entry.stream?.close(reason);
  entry.stop?.();
}

function evictIdle(registry: Map<string, StreamEntry>): void {
  if (registry.size < MAX_STREAMS) return;
  const idle = [...registry.entries()].filter(([, e]) => e.users === 0 && e.stream).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [paneId, entry] of idle) {
    if (registry.size < MAX_STREAMS) break;
    closeEntry(registry, paneId, entry, 'evicted');
  }
}

/**
 * Marks the point before input this server is about to send into `pane` (opening its stream if
 * none is open, so the output that follows is seen); call the returned function once sent. A
 * stream that cannot be opened only costs the mark: the input itself is not held up.
 */
export async function markInput(
  engine: Engine,
  pane: { readonly id: string; readonly sessionId: string },
  interrupt = false,
): Promise<() => void> {
  try {
    const lease = await openPaneStream(engine, pane);
    lease.stream.noteInput(interrupt);
    return () => lease.release();
  } catch {
    return () => {};
  }
}

/** Closes every stream of `engine` (server shutdown, tests), once the marks they set are in tmux. */
export async function closePaneStreams(engine: Engine): Promise<void> {
  const registry = paneStreams(engine);
  for (const [paneId, entry] of [...registry.entries()]) closeEntry(registry, paneId, entry, 'shutdown');
  await settleMarks(engine);
}
