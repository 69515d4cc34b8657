/**
 * Pane recordings (`--record DIR`): every pane the server acts on gets an asciicast v2 file that
 * `asciinema play` replays. A recording listens to the pane's `%output` on the session's shared
 * output client (the one waits and runs read; no tmux client of its own, and no copy of the text
 * kept in memory beyond what waits for the file), starts with a paint of the pane's screen, and paints
 * again wherever the output alone would not tell what the pane shows (a resize, output tmux
 * dropped, the pane moving to another session).
 *
 * Acted on means: typed or pasted into, a command run in, waited on (all of which open the pane's
 * stream), captured, created (new session, window or split) or respawned. Listings and searches
 * over many panes do not start recordings.
 *
 * Exactness: the screen is read over the same control client that carries the pane's output, and
 * tmux answers a control client in order with the output it queued for it, so the paint is the
 * screen exactly as it was before the first output event that follows it (output that arrived
 * before the answer is in the capture and is not written twice).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { PANE_ID } from '../../tmux/ids.js';
import { rowFormat } from '../../tmux/formats.js';
import { CastFile } from './cast-file.js';
import { type Engine, type PaneObserver, perServer } from '../engine.js';
import { PAINT_FORMAT, paintCommands, paintScreen, paneSizeInLayout, type PaintRow } from './screen-paint.js';

/** The recording of each recorded pane. */
const recordings = perServer(() => new Map<string, Recording>());

export interface RecorderOptions {
  /** An existing, writable directory (cli checks it at start-up). */
  readonly dir: string;
  /** Largest file, in bytes; the file then ends with a note. */
  readonly maxBytes: number;
  /** Hears of a recording that could not be written (once per file). */
  readonly onError?: (message: string) => void;
}

/** How long shutdown waits for the files to be written before it gives up on them. */
const CLOSE_WAIT_MS = 3000;
/** Paints tmux did not answer in a row before a recording gives up. */
const MAX_PAINT_FAILURES = 3;

const WHERE_FORMAT = rowFormat({ paneId: 'pane_id', sessionId: 'session_id', windowId: 'window_id', serverPid: 'pid' });

export class PaneRecorder implements PaneObserver {
  readonly options: RecorderOptions;
  readonly #open = new Set<Recording>();
  readonly #closing = new Set<Promise<void>>();
  /** Lookups of the pane a session or window target means, not yet answered. */
  readonly #finding = new Set<Promise<void>>();
  #closed = false;

  constructor(options: RecorderOptions) {
    this.options = options;
  }

  /** Starts recording the pane (`target`: a pane id, or a session or window id for its active pane) unless it is recorded already. */
  actedOn(engine: Engine, target: string, sessionId?: string): void {
    if (this.#closed) return;
    if (!PANE_ID.test(target)) {
      // A new session or window: its pane is found first (one tmux command, not waited for by the call).
      const finding = engine
        .run(['display-message', '-p', '-t', target, WHERE_FORMAT.format])
        .then((lines) => {
          const row = WHERE_FORMAT.parse(lines)[0];
          if (row && PANE_ID.test(row.paneId)) this.actedOn(engine, row.paneId, row.sessionId);
        })
        .catch(() => {});
      this.#finding.add(finding);
      void finding.finally(() => this.#finding.delete(finding));
      return;
    }
    const panes = recordings(engine);
    const existing = panes.get(target);
    if (existing) {
      existing.seen(sessionId);
      return;
    }
    const recording = new Recording(this, engine, target, panes);
    panes.set(target, recording);
    this.#open.add(recording);
    recording.follow(sessionId);
  }

  /**
   * Ends every recording and waits (a bounded time) for their files to be written. A recording
   * begun before has its first paint first, so a process that acted on a pane only briefly (one
   * `tmux-mcp call`) still leaves the pane's screen as it was then.
   */
  async close(): Promise<void> {
    await bounded(
      (async () => {
        await Promise.all(this.#finding);
        await Promise.all([...this.#open].map((recording) => recording.painted));
      })(),
    );
    this.#closed = true;
    for (const recording of [...this.#open]) recording.end('shutdown');
    await bounded(Promise.all(this.#closing));
  }

  /** Whether close() was called. */
  get closing(): boolean {
    return this.#closed;
  }

  /** @internal A recording ended: its file is being closed. */
  ended(recording: Recording, closing: Promise<void> | undefined): void {
    this.#open.delete(recording);
    if (!closing) return;
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
  }
}

/** Waits for `work`, at most CLOSE_WAIT_MS. */
async function bounded(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
}

type State = 'opening' | 'painting' | 'live' | 'ended';

/** One pane's recording: its file, the stream it follows, and where the pane is. */
export class Recording {
  readonly #recorder: PaneRecorder;
  readonly #engine: Engine;
  readonly #paneId: string;
  readonly #panes: Map<string, Recording>;
  #state: State = 'opening';
  #file: CastFile | undefined;
  /** Ends the watch on the pane's output. */
  #stop: (() => void) | undefined;
  #sessionId: string | undefined;
  #windowId: string | undefined;
  #serverPid: string | undefined;
  #width = 0;
  #height = 0;
  #checking = false;
  #repaint = false;
  /** Paints in a row that tmux did not answer; a few, and the recording ends rather than try forever. */
  #paintFailures = 0;
  /** Changes whenever the recording starts following a stream afresh: work begun before then is stale. */
  #epoch = 0;
  #paintedOnce!: () => void;
  /** Settles once the file has its first paint, or the recording ended without one. */
  readonly painted = new Promise<void>((resolve) => (this.#paintedOnce = resolve));

  constructor(recorder: PaneRecorder, engine: Engine, paneId: string, panes: Map<string, Recording>) {
    this.#recorder = recorder;
    this.#engine = engine;
    this.#paneId = paneId;
    this.#panes = panes;
  }

  /** The server acted on the pane again; seen in `sessionId` when given. */
  seen(sessionId: string | undefined): void {
    if (this.#state === 'live' && sessionId !== undefined && sessionId !== this.#sessionId) this.#check();
  }

  /** Follows the pane's stream (in `sessionId`, looked up when not given) and paints its screen. */
  follow(sessionId: string | undefined): void {
    this.#state = 'opening';
    const epoch = ++this.#epoch;
    void this.#follow(sessionId, epoch).catch(() => epoch === this.#epoch && this.end('lost'));
  }

  async #follow(sessionId: string | undefined, epoch: number): Promise<void> {
    if (sessionId === undefined) {
      const where = await this.#where();
      if (epoch !== this.#epoch) return;
      if (!where) return this.end('gone');
      sessionId = where.sessionId;
    }
    // The session's shared output client (the one waits use): raw output, no text kept in memory.
    let closed: string | undefined;
    let stop: (() => void) | undefined;
    stop = await this.#engine.watchPane(sessionId, this.#paneId, {
      // tmux dropped output this client had not taken: the screen is read again.
      output: (raw, _ageMs, skipped) => (skipped ? this.#paint() : this.#output(raw)),
      notification: (name, args) => this.#notification(name, args),
      // Before the watch is taken up below, a close is kept for it to see.
      close: (reason) => (stop !== undefined && this.#stop === stop ? this.#streamClosed(reason) : (closed ??= reason)),
    });
    if (this.#state === 'ended' || epoch !== this.#epoch) return stop();
    this.#stop = stop;
    this.#sessionId = sessionId;
    if (closed !== undefined) return this.#streamClosed(closed);
    this.#paint();
  }

  #output(raw: string): void {
    // While painting, output is what the capture will show (it came before tmux's answer).
    if (this.#state === 'live' && !this.#file!.event('o', raw)) this.#full();
  }

  #notification(name: string, args: string): void {
    if (this.#state !== 'live') return;
    const [windowId, , visibleLayout] = args.split(' ');
    if (name === 'layout-change' && visibleLayout !== undefined) {
      const size = paneSizeInLayout(visibleLayout, this.#paneId);
      if (size) {
        this.#windowId = windowId;
        // A resize reflows the screen, which the output does not tell: the event, then the screen again.
        if (size.width !== this.#width || size.height !== this.#height) this.#paint();
      } else if (windowId === this.#windowId) this.#check(); // gone from its window: killed, or moved
    } else if ((name === 'window-close' || name === 'unlinked-window-close') && windowId === this.#windowId) this.#check();
  }

  /** Reads the screen over the stream's own client and writes it as the next event (the file's first, with its header). */
  #paint(): void {
    if (this.#state !== 'live' && this.#state !== 'opening') return; // a paint in flight already covers it
    this.#state = 'painting';
    const epoch = this.#epoch;
    this.#engine
      .runInWatch(this.#sessionId!, paintCommands(this.#paneId), ([fields = [], normal = [], visible = []]) => {
        if (this.#state !== 'painting' || epoch !== this.#epoch) return;
        const row = PAINT_FORMAT.parse(fields)[0];
        if (!row || row.paneId !== this.#paneId) return this.end('gone');
        this.#painted(row, normal, visible);
      })
      .then(
        () => (this.#paintFailures = 0),
        () => {
          if (this.#state !== 'painting' || epoch !== this.#epoch) return;
          if (++this.#paintFailures >= MAX_PAINT_FAILURES) return this.end('lost');
          this.#check(true);
        },
      );
  }

  /** Synchronous with tmux's answer: nothing the pane printed after it has been seen yet. */
  #painted(row: PaintRow, normal: readonly string[], visible: readonly string[]): void {
    const width = Number(row.width);
    const height = Number(row.height);
    this.#windowId = row.windowId;
    this.#serverPid ??= row.serverPid;
    if (!this.#file) {
      this.#file = new CastFile(
        this.#fileBase(row.sessionName),
        {
          width,
          height,
          timestamp: Math.floor(Date.now() / 1000),
          title: `tmux pane ${this.#paneId} of session ${row.sessionName}${this.#engine.tmux.host !== undefined ? ` on host ${this.#engine.tmux.host}` : ''}`,
        },
        this.#recorder.options.maxBytes,
        (error) => {
          this.#recorder.options.onError?.(`recording ${this.#file?.path ?? this.#paneId}: ${error.message}`);
          this.end('failed');
        },
      );
    } else if (width !== this.#width || height !== this.#height) {
      if (!this.#file.event('r', `${width}x${height}`)) return this.#full();
    }
    this.#width = width;
    this.#height = height;
    this.#state = 'live';
    if (!this.#file.event('o', paintScreen(row, normal, visible))) this.#full();
    this.#paintedOnce();
  }

  /** `DIR/[HOST-]SESSION-pN-START`, every part made safe for a file name. */
  #fileBase(sessionName: string): string {
    const host = this.#engine.tmux.host;
    const start = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const name = `${host !== undefined ? `${safePart(host)}-` : ''}${safePart(sessionName)}-p${this.#paneId.slice(1)}-${start}`;
    return join(this.#recorder.options.dir, name);
  }

  /** Where the pane is now: undefined when it is gone (or the tmux server answering is another one). */
  async #where(): Promise<{ sessionId: string; windowId: string } | undefined> {
    const lines = await this.#engine.run(['display-message', '-p', '-t', this.#paneId, WHERE_FORMAT.format]).catch(() => undefined);
    const row = lines && WHERE_FORMAT.parse(lines)[0];
    if (!row || row.paneId !== this.#paneId || (this.#serverPid !== undefined && row.serverPid !== this.#serverPid)) return undefined;
    return row;
  }

  /**
   * After a sign the pane may be gone or elsewhere: ends the recording when it is gone, follows it
   * into its new session when it moved (painting it there), otherwise (`repaint`) paints again.
   */
  #check(repaint = false): void {
    this.#repaint ||= repaint;
    if (this.#checking || this.#state === 'ended') return;
    this.#checking = true;
    const epoch = this.#epoch;
    void this.#where().then((where) => {
      this.#checking = false;
      const again = this.#repaint;
      this.#repaint = false;
      // Ended, or already following afresh (the stream closed meanwhile): that path decides.
      if (this.#state === 'ended' || epoch !== this.#epoch) return;
      if (!where) return this.end('gone');
      if (where.sessionId !== this.#sessionId) {
        this.#unfollow();
        return this.follow(where.sessionId);
      }
      this.#windowId = where.windowId;
      if (again) {
        this.#state = 'live';
        this.#paint();
      }
    });
  }

  #streamClosed(_reason: string): void {
    if (this.#state === 'ended') return;
    if (this.#recorder.closing) return this.end('shutdown');
    // The output client went away: the session ended, tmux restarted, the link to a host dropped.
    this.#unfollow();
    this.#state = 'opening';
    const epoch = ++this.#epoch;
    void this.#where().then((where) => {
      if (this.#state === 'ended' || epoch !== this.#epoch) return;
      if (!where) this.end('gone');
      else this.follow(where.sessionId);
    });
  }

  #unfollow(): void {
    const stop = this.#stop;
    this.#stop = undefined;
    stop?.();
  }

  #full(): void {
    // The note is written; the pane is not recorded again for the life of the process.
    this.end('full');
  }

  end(reason: 'shutdown' | 'gone' | 'lost' | 'failed' | 'full'): void {
    if (this.#state === 'ended') return;
    this.#state = 'ended';
    this.#paintedOnce();
    this.#unfollow();
    // A full recording stays in the map, so the pane is not recorded again; any other lets a later call start afresh.
    if (reason !== 'full' && this.#panes.get(this.#paneId) === this) this.#panes.delete(this.#paneId);
    this.#recorder.ended(this, this.#file?.end());
  }
}

/** Letters, digits, `.`, `_`, `+` and `-` kept (not leading `.` or `-`), anything else `_`, at most 64 characters. */
export function safePart(text: string): string {
  const safe = text
    .replace(/[^A-Za-z0-9._+-]/g, '_')
    .replace(/^[.-]/, '_')
    .slice(0, 64);
  return safe === '' ? '_' : safe;
}

/**
 * Why `dir` cannot hold recordings (missing, not a directory, not writable), or undefined when it
 * can: a file is created in it and removed again, which also catches a read-only file system and
 * permissions that a superuser's access() check would pass.
 */
export async function recordDirectoryProblem(dir: string): Promise<string | undefined> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) return info.code === 'ENOENT' ? 'no such directory' : info.message;
  if (!info.isDirectory()) return 'not a directory';
  const probe = join(dir, `.tmux-mcp-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await open(probe, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    await handle.close();
    await unlink(probe);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `not writable (${code ?? (error as Error).message})`;
  }
}
