/**
 * The remote tmux clients of connections dropped for silence or a timeout can outlive them: when the frozen
 * far side wakes and hands tmux the commands still in transit, tmux 3.3 keeps a control client
 * whose replies it cannot write (detach-client does not end it, and on SIGTERM the client waits for
 * that server's leave). On the next connection, any of them tmux still lists as its client is
 * killed: `kill -KILL PID`, PID a number tmux itself reported.
 */
import type { ControlClient } from './control-client.js';
import { decodeBody } from './reply-lines.js';

export class OrphanClients {
  readonly #pids = new Set<number>();
  #reaping: Promise<void> | undefined;

  /** A dropped connection's remote tmux client, to end on the next connection. */
  add(pid: number): void {
    this.#pids.add(pid);
  }

  /** The reaping begun on the last connection, if any (waited for before closing). */
  get reaping(): Promise<void> | undefined {
    return this.#reaping;
  }

  /** Kills, over the new connection `client`, those of the orphans tmux still lists as its clients. */
  reap(client: ControlClient, timeoutMs: number): void {
    if (this.#pids.size === 0) return;
    const orphans = [...this.#pids];
    this.#pids.clear();
    this.#reaping = client
      .runReply(['list-clients', '-F', '#{client_pid}'], timeoutMs)
      .then(async (reply) => {
        const listed = new Set(decodeBody(reply).map(Number));
        const stuck = orphans.filter((pid) => listed.has(pid) && Number.isSafeInteger(pid) && pid > 1);
        if (stuck.length > 0) await client.runReply(['run-shell', '-b', `kill -KILL ${stuck.join(' ')}`], timeoutMs);
      })
      .catch(() => {});
  }
}
