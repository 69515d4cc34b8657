/**
 * The change count behind the kept session list (core/read/session-list.ts): a command that is not a
 * read counts when it is sent and again when it comes back, so a list read while it was on its way is
 * never kept past it; reads and quiet notifications count nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeCount } from '../../src/tmux/change-count.js';

test('a command that is not a read counts when sent and again when it comes back, failed or not', async () => {
  const changes = new ChangeCount();
  let finish!: () => void;
  const running = changes.during([['new-window', '-d']], () => new Promise<void>((resolve) => (finish = resolve)));
  assert.equal(changes.value, 1, 'counted as it is sent');
  finish();
  await running;
  assert.equal(changes.value, 2, 'and again once it came back');
  await assert.rejects(changes.during([['kill-session', '-t', '$9']], () => Promise.reject(new Error('no such session'))), /no such session/);
  assert.equal(changes.value, 4, 'a failed one too: tmux may have done part of it');
  await changes.during([['send-keys', 'x'], ['list-panes'], ['send-keys', 'Enter']], async () => {});
  assert.equal(changes.value, 8, 'each command of a sequence that is not a read');
  assert.equal(changes.commands, 5, 'every command sent, reads too, counted once (a host\'s kept listing goes old with any)');
});

test('reads and quiet notifications count nothing; every other notification counts', async () => {
  const changes = new ChangeCount();
  for (const read of ['list-sessions', 'list-clients', 'display-message', 'capture-pane']) await changes.during([[read]], async () => {});
  changes.notified('pane-mode-changed');
  changes.notified('paste-buffer-changed');
  assert.equal(changes.value, 0);
  for (const name of ['sessions-changed', 'session-renamed', 'window-add', 'unlinked-window-close', 'client-session-changed', 'client-detached']) changes.notified(name);
  assert.equal(changes.value, 6);
});
