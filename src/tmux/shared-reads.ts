/**
 * Identical listings asked at once share one reply. A read that finds an identical one in flight
 * waits for it to end and then shares the next, which every read arriving meanwhile shares too:
 * each is answered by a reply tmux made after it was asked (never one kept from before), and many
 * agents listing the same thing at once cost tmux two round trips, not one each.
 */

/** What a read is asked with (server.ts RunOptions): a read fed stdin or one that may be aborted is not shared. */
interface ReadOptions {
  readonly timeoutMs?: number;
  readonly stdin?: Buffer;
  readonly signal?: AbortSignal;
}

/** A read in flight, and the one that follows it when another identical read is asked for meanwhile. */
interface Flight {
  readonly done: Promise<void>;
  next?: Promise<string[]>;
}

const noop = () => {};

/** Listings: they change nothing in tmux, and every agent asks for them. */
const SHARED = new Set(['list-sessions', 'list-windows', 'list-panes', 'list-clients']);

export function isSharedRead(command: readonly string[], options: ReadOptions): boolean {
  return options.stdin === undefined && options.signal === undefined && SHARED.has(command[0] ?? '');
}

export class SharedReads {
  /** Reads in flight, by command and timeout. */
  readonly #flights = new Map<string, Flight>();

  /**
   * The lines of `command`, read by `execute` or shared with an identical read; each caller gets its own
   * copy. A shared read keeps the deadline of the first of its callers to ask, so none waits past its own
   * timeout for the read before it to end.
   */
  async read(command: readonly string[], options: ReadOptions, execute: (askedAt: number) => Promise<string[]>): Promise<string[]> {
    const key = `${options.timeoutMs ?? ''}\0${command.join('\0')}`;
    const askedAt = performance.now();
    const flying = this.#flights.get(key);
    const reply = flying ? (flying.next ??= flying.done.then(() => this.#fly(key, execute, askedAt))) : this.#fly(key, execute, askedAt);
    return (await reply).slice();
  }

  #fly(key: string, execute: (askedAt: number) => Promise<string[]>, askedAt: number): Promise<string[]> {
    const reply = execute(askedAt);
    const flight: Flight = { done: reply.then(noop, noop) };
    this.#flights.set(key, flight);
    void flight.done.then(() => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    });
    return reply;
  }
}
