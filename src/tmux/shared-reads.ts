/**
 * Identical reads asked at once share one reply. A read that finds an identical one in flight waits
 * for it to end and then shares the next, which every read arriving meanwhile shares too: each is
 * answered by a reply tmux made after it was asked, and many agents reading the same thing cost tmux
 * two round trips, not one each.
 *
 * On a host, a listing's reply is also kept for FRESH_MS after it was asked, and answers an identical
 * listing while it is *recent*: the same connection, no change tmux told of, and no command at all sent
 * to that tmux since (the stamp). A round trip to a host wakes ssh, sshd and the host's tmux, and costs
 * the link's latency; a listing spanning hosts is asked of all of them. So a listing shows every change
 * this server made or read since, and anything else (a pane's running command, its title: tmux reports
 * neither) at most FRESH_MS late.
 */
import type { RunOptions } from './server.js';

/**
 * How long a reply stands for a listing asked after it: far below what a person or an agent's next turn can
 * notice, long enough that a burst of listings (a batch, several clients, a poll) shares one round trip.
 */
export const FRESH_MS = 50;

/** A read in flight, and the one that follows it when another identical read is asked for meanwhile. */
interface Flight {
  readonly done: Promise<void>;
  next?: Promise<string[]>;
}

/** A reply kept for reads asked within FRESH_MS, while the stamp it was asked under holds. */
interface Recent {
  readonly askedAt: number;
  readonly stamp: string;
  readonly lines: string[];
}

const noop = () => {};
/** Kept replies past this many are pruned of those older than FRESH_MS. */
const PRUNE_AT = 16;

/**
 * Listings, which change nothing in tmux and which every agent asks for, so identical ones asked at once
 * may share one reply. Pane reads are left out: a read batch pipelines them, and one that waited for an
 * identical read to end would break its pipeline.
 */
const SHARED = new Set(['list-sessions', 'list-windows', 'list-panes', 'list-clients']);

export function isSharedRead(command: readonly string[], options: RunOptions): boolean {
  return options.stdin === undefined && options.signal === undefined && SHARED.has(command[0] ?? '');
}

export class SharedReads {
  /** Reads in flight, by command and timeout. */
  readonly #flights = new Map<string, Flight>();
  readonly #recent = new Map<string, Recent>();

  /**
   * @param stamp With it, replies are kept (a host's server): what tmux and this server have done, as one
   *   value that changes with every connection, change notification and command sent; undefined while
   *   there is no connection.
   */
  constructor(private readonly stamp?: () => string | undefined) {}

  /** How many replies are kept now. */
  get kept(): number {
    return this.#recent.size;
  }

  /**
   * The lines of `command`, read by `execute` or shared with an identical read; each caller gets its own
   * copy. A shared read keeps the deadline of the first of its callers to ask, so none waits past its own
   * timeout for the read before it to end.
   */
  async read(command: readonly string[], options: RunOptions, execute: (askedAt: number) => Promise<string[]>): Promise<string[]> {
    const key = `${options.timeoutMs ?? ''}\0${command.join('\0')}`;
    const askedAt = performance.now();
    const recent = this.#recent.get(key);
    if (recent && askedAt - recent.askedAt <= FRESH_MS && recent.stamp === this.stamp?.()) return recent.lines.slice();
    const flying = this.#flights.get(key);
    const reply = flying ? (flying.next ??= flying.done.then(() => this.#fly(key, execute, askedAt))) : this.#fly(key, execute, askedAt);
    return (await reply).slice();
  }

  #fly(key: string, execute: (askedAt: number) => Promise<string[]>, askedAt: number): Promise<string[]> {
    const reply = execute(askedAt);
    // Taken as the read goes out (execute counts it at once): anything sent or told after it makes the reply old.
    const stamp = this.stamp?.();
    this.#recent.delete(key);
    if (stamp !== undefined) {
      reply.then((lines) => {
        if (stamp !== this.stamp?.()) return;
        // Listings of many targets (one per session, say) leave many replies: the old ones go.
        if (this.#recent.size >= PRUNE_AT) for (const [other, recent] of this.#recent) if (askedAt - recent.askedAt > FRESH_MS) this.#recent.delete(other);
        this.#recent.set(key, { askedAt, stamp, lines });
      }, noop);
    }
    const flight: Flight = { done: reply.then(noop, noop) };
    this.#flights.set(key, flight);
    void flight.done.then(() => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    });
    return reply;
  }
}
