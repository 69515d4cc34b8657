/**
 * The heartbeat of a connection to a host, every third of the silence limit. While a command or
 * a watch waits on it, a connection quiet for a third of the limit is asked for a word (an empty
 * display-message, answered at once by any live tmux); quiet for the whole limit, it is ended:
 * the link or the host is down, and ssh alone would notice only after its keepalives. A busy
 * tmux or a large reply keeps bytes coming, so only true silence counts.
 */

/** What the heartbeat asks of its connection. */
export interface Heard {
  /** Whether the connection is open and a command or a watch waits on it. */
  waitedOn(): boolean;
  /** Whether the connection is still open. */
  open(): boolean;
  /** Sends the heartbeat command, answered within `timeoutMs`. */
  probe(timeoutMs: number): void;
  /** Ends the connection: nothing came for `limitMs`. */
  drop(limitMs: number): void;
}

export class SilenceWatch {
  readonly #limitMs: number;
  readonly #connection: Heard;
  #beat: NodeJS.Timeout | undefined;
  /** Since when the connection has been quiet: its last byte, or the moment something began waiting on it. */
  #quietSince = performance.now();
  /** When the last heartbeat command went out. */
  #probedAt: number | undefined;

  constructor(limitMs: number, connection: Heard) {
    this.#limitMs = limitMs;
    this.#connection = connection;
  }

  /** A byte came, or something began waiting on an idle connection: silence is counted from now. */
  heard(): void {
    this.#quietSince = performance.now();
  }

  /** Starts the beat (once the connection is attached). */
  start(): void {
    this.#beat = setInterval(() => this.#check(), Math.max(1, Math.floor(this.#limitMs / 3)));
    this.#beat.unref();
  }

  stop(): void {
    clearInterval(this.#beat);
  }

  #check(): void {
    const limit = this.#limitMs;
    if (!this.#connection.waitedOn()) return;
    const quiet = performance.now() - this.#quietSince;
    if (quiet < limit / 3) return;
    if (this.#probedAt === undefined || this.#probedAt < this.#quietSince) {
      this.#probedAt = performance.now();
      this.#connection.probe(limit * 10);
      return;
    }
    // Read what already arrived before judging: a pause of this process is not the link's silence.
    if (quiet >= limit)
      setImmediate(() => this.#connection.open() && performance.now() - this.#quietSince >= limit && this.#connection.drop(limit));
  }
}
