/**
 * A tmux server that is there but has no session to attach to (one exiting after its last session
 * went lingers so, and one with exit-empty off stays so): its refusal of the control client's
 * attach is told from an attach, so commands go through a spawned tmux instead of a client tmux is
 * ending, and a command detached before it began is sent again rather than failed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ControlClient } from '../../src/tmux/control-client.js';
import { TmuxAttachRefusedError } from '../../src/tmux/errors.js';
import { localLauncher } from '../../src/tmux/launcher.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN } from '../fixture/tmux.js';

test('an attach tmux refuses ("no sessions") fails the connect, and commands reach the server through a spawned tmux', async (t) => {
  const tmux = privateTmux(t);
  // A live server with no sessions, as one is between losing its last session and exiting.
  await tmux.tmux('-f', '/dev/null', 'start-server', ';', 'set-option', '-g', 'exit-empty', 'off');
  await assert.rejects(
    ControlClient.connect({ launcher: localLauncher(TMUX_BIN), globalArgs: ['-u', '-S', tmux.socketPath], env: scrubbedEnv() }),
    (error: unknown) => error instanceof TmuxAttachRefusedError && /no sessions/.test(error.message) && error.notStarted,
  );

  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  const [made] = await server.run(['new-session', '-d', '-P', '-F', '#{session_id}', '-s', 'fresh']);
  assert.match(made ?? '', /^\$\d+$/);
  assert.deepEqual(await server.run(['list-sessions', '-F', '#{session_name}']), ['fresh']);
});
