/**
 * A count that grows whenever a server's sessions, their windows or its clients may have changed, as
 * far as this process can tell: tmux notified the command connection of a change (tmux tells a control
 * client of every session made, closed or renamed, window linked or unlinked, client attached, switched
 * or detached: control-notify.c), or a command other than a read was sent.
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

  get value(): number {
    return this.#count;
  }

  sent(command: readonly string[]): void {
    if (!READS.has(command[0] ?? '')) this.#count++;
  }

  notified(name: string): void {
    if (!QUIET_NOTIFICATIONS.has(name)) this.#count++;
  }
}
