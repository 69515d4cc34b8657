/**
 * The output-receiving control clients of one tmux server, one per session with watched panes
 * (tmux sends `%output` only for the panes of a client's own session). Each is shared by every
 * watch of its session's panes and closed when the last of them stops.
 */
import type { ControlClient } from './control-client.js';
import { TmuxConnectionLostError } from './errors.js';
import { decodeBody } from './reply-lines.js';

export class Watchers {
  readonly #clients = new Map<string, ControlClient>();
  readonly #opening = new Map<string, Promise<ControlClient>>();
  readonly #attach: (sessionId: string) => Promise<ControlClient>;

  constructor(attach: (sessionId: string) => Promise<ControlClient>) {
    this.#attach = attach;
  }

  /** The output-receiving client attached to `sessionId`, shared by every watch of its panes. */
  async clientFor(sessionId: string): Promise<ControlClient> {
    const existing = this.#clients.get(sessionId);
    if (existing && !existing.closed) return existing;
    let opening = this.#opening.get(sessionId);
    if (!opening) {
      opening = this.#attach(sessionId).finally(() => this.#opening.delete(sessionId));
      this.#opening.set(sessionId, opening);
    }
    const client = await opening;
    if (this.#clients.get(sessionId) !== client) {
      this.#clients.set(sessionId, client);
      client.onClose(() => {
        if (this.#clients.get(sessionId) === client) this.#clients.delete(sessionId);
      });
    }
    return client;
  }

  /** A watch on `client` (of `sessionId`) stopped: the client goes when no watch is left on it. */
  release(sessionId: string, client: ControlClient): void {
    if (client.watchCount === 0 && this.#clients.get(sessionId) === client) {
      this.#clients.delete(sessionId);
      void client.close();
    }
  }

  /** Every client kept, open or not. */
  all(): ControlClient[] {
    return [...this.#clients.values()];
  }

  clear(): void {
    this.#clients.clear();
  }

  /** The open client attached to `sessionId`; a TmuxConnectionLostError when there is none. */
  attached(sessionId: string): ControlClient {
    const client = this.#clients.get(sessionId);
    if (!client || client.closed) throw new TmuxConnectionLostError(`no output client is attached to session ${sessionId}`);
    return client;
  }
}

/** TmuxServer.runInWatch: `commands` on an output client, `atReplies` called with their lines in order with its output. */
export async function runWithOutput(
  client: ControlClient,
  commands: ReadonlyArray<readonly string[]>,
  timeoutMs: number,
  atReplies: (outputs: string[][]) => void,
): Promise<void> {
  const outputs: string[][] = [];
  let failed = false;
  await Promise.all(
    commands.map((command, i) =>
      client.runReply(command, timeoutMs, (reply) => {
        failed ||= !reply.ok;
        outputs[i] = reply.ok ? decodeBody(reply) : [];
        if (i === commands.length - 1 && !failed) atReplies(outputs);
      }),
    ),
  );
}
