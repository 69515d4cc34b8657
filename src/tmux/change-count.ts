/**
 * A count that grows whenever a server's sessions, their windows or its clients may have changed, as
 * far as this process can tell: tmux notified the command connection of a change (tmux tells a control
 * client of every session made, closed or renamed, window linked or unlinked, client attached, switched
 * or detached: control-notify.c), or a command other than a read was sent or came back.
 */

/** Commands that only read: sending one changes no session, window or client. */
const READS = new Set([
  'list-sessions', 'list-windows', 'list-panes', 'list-clients', 'list-buffers', 'list-keys', 'list-commands', 'has-session',
  'display-message', 'capture-pane', 'show-options', 'show-window-options', 'show-environment', 'show-hooks', 'show-buffer', 'show-messages',
]);
/** Notifications that say nothing about sessions, windows or clients (pane modes, paste buffers, pausing output). */
const QUIET_NOTIFICATIONS = new Set(['pane-mode-changed', 'paste-buffer-changed', 'paste-buffer-deleted', 'subscription-changed', 'message', 'pause', 'continue']);

export class ChangeCount {
  #count = 0;
  #commands = 0;

  get value(): number {
    return this.#count;
  }

  /** Every command sent, reads too: a read sent since a listing may have seen more than it did. */
  get commands(): number {
    return this.#commands;
  }

  /**
   * Counts `commands` as sent now and again once `work` (which sends them) settles: a spawned tmux or a
   * watch client is not ordered with the command connection, so a read that went out meanwhile may
   * predate the change, and a list read then must not be kept past it.
   */
  during<T>(commands: ReadonlyArray<readonly string[]>, work: () => Promise<T>): Promise<T> {
    this.#commands += commands.length;
    let writes = 0;
    for (const command of commands) if (!READS.has(command[0] ?? '')) writes++;
    if (writes === 0) return work();
    this.#count += writes;
    return work().finally(() => void (this.#count += writes));
  }

  notified(name: string): void {
    if (!QUIET_NOTIFICATIONS.has(name)) this.#count++;
  }
}
