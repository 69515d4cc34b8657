/**
 * One asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then
 * one `[seconds, type, data]` line per event. Writes are gathered in memory and handed to the file
 * a few times a second (or once enough is gathered), so an event costs the caller a JSON.stringify
 * and an array push. The file is created new (never over an existing one) with mode 0600, and is
 * bounded: the event that would pass the limit is replaced by a closing note, and nothing follows.
 */
import { constants, createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';

export interface CastHeader {
  readonly width: number;
  readonly height: number;
  /** When the recording began, in Unix seconds. */
  readonly timestamp: number;
  readonly title?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** `o`: output; `r`: the terminal was resized to "COLSxROWS"; `m`: a marker, here the note that ends a capped file. */
export type CastEventType = 'o' | 'r' | 'm';

/** How long gathered events wait before they go to the file. */
const FLUSH_MS = 200;
/** Gathered this much, they go at once. */
const FLUSH_BYTES = 256 * 1024;
/** Room kept for the closing note, so a capped file still ends with it within the limit. */
const NOTE_ROOM = 256;

/** Most names tried (NAME.cast, NAME-2.cast, ...) before giving up on a recording. */
const MAX_NAME_TRIES = 100;

export class CastFile {
  #path: string;
  readonly #maxBytes: number;
  readonly #start = performance.now();
  readonly #onError: (error: Error) => void;
  #pending: string[] = [];
  #pendingBytes = 0;
  #bytes = 0;
  #timer: NodeJS.Timeout | undefined;
  #out: WriteStream | undefined;
  #opening: Promise<void>;
  #full = false;
  #ended: Promise<void> | undefined;
  #failed = false;

  /**
   * Creates a new file at `base + '.cast'` (or `base-2.cast`, ... when that exists: never over an
   * existing file) and writes `header` first. Events may be added at once; they are written once
   * the file is open. `onError` hears of a file that cannot be written (created or later), after
   * which the recording is dropped.
   */
  constructor(base: string, header: CastHeader, maxBytes: number, onError: (error: Error) => void) {
    this.#path = `${base}.cast`;
    this.#maxBytes = maxBytes;
    this.#onError = onError;
    this.#add(JSON.stringify({ version: 2, ...header }) + '\n');
    this.#opening = this.#create(base).then(
      (handle) => {
        this.#out = createWriteStream('', { fd: handle, autoClose: true });
        this.#out.on('error', (error) => this.#fail(error));
        if (this.#ended === undefined) this.#flush();
      },
      (error: Error) => this.#fail(error),
    );
  }

  /** The file's path (final once it is created). */
  get path(): string {
    return this.#path;
  }

  async #create(base: string) {
    for (let n = 1; ; n++) {
      this.#path = n === 1 ? `${base}.cast` : `${base}-${n}.cast`;
      try {
        // O_EXCL: never an existing file; O_NOFOLLOW: never through a link planted under the name.
        return await open(this.#path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= MAX_NAME_TRIES) throw error;
      }
    }
  }

  /** Seconds since the file began: the time of an event added now. */
  get elapsed(): number {
    return (performance.now() - this.#start) / 1000;
  }

  /** Whether the size limit was reached (the note is written; nothing more is). */
  get full(): boolean {
    return this.#full;
  }

  /** Adds an event stamped now; false once the file is full or ended. */
  event(type: CastEventType, data: string): boolean {
    if (this.#full || this.#ended !== undefined || this.#failed) return false;
    const line = JSON.stringify([Math.round(this.elapsed * 1e6) / 1e6, type, data]) + '\n';
    const size = Buffer.byteLength(line, 'utf8');
    if (this.#bytes + size + NOTE_ROOM > this.#maxBytes) {
      this.#full = true;
      const mb = this.#maxBytes / 1024 / 1024;
      this.#add(
        JSON.stringify([
          Math.round(this.elapsed * 1e6) / 1e6,
          'm',
          `recording stopped: the file reached its size limit of ${+mb.toFixed(3)} MB (--record-max-mb)`,
        ]) + '\n',
      );
      return false;
    }
    this.#add(line, size);
    return true;
  }

  /** Writes what is gathered and closes the file; resolves once it is closed (or could not be written). */
  end(): Promise<void> {
    this.#ended ??= this.#opening.then(
      () =>
        new Promise<void>((resolve) => {
          clearTimeout(this.#timer);
          const out = this.#out;
          if (!out || this.#failed) return resolve();
          const data = this.#take();
          out.once('close', () => resolve());
          out.once('error', () => resolve());
          out.end(data);
        }),
    );
    return this.#ended;
  }

  #add(line: string, size = Buffer.byteLength(line, 'utf8')): void {
    this.#pending.push(line);
    this.#pendingBytes += size;
    this.#bytes += size;
    if (this.#pendingBytes >= FLUSH_BYTES && this.#out) this.#flush();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#flush(), FLUSH_MS);
      this.#timer.unref();
    }
  }

  #take(): string {
    const data = this.#pending.join('');
    this.#pending = [];
    this.#pendingBytes = 0;
    return data;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // Not open yet: the open's completion or the next event flushes; end() writes the rest.
    if (!this.#out || this.#failed || this.#ended !== undefined) return;
    if (this.#pending.length > 0) this.#out.write(this.#take());
  }

  #fail(error: Error): void {
    if (this.#failed) return;
    this.#failed = true;
    clearTimeout(this.#timer);
    this.#pending = [];
    this.#onError(error);
  }
}
