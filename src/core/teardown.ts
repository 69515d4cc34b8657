/**
 * Deleting tmux objects and pane history. Kills refuse to touch the pane this server runs in (or
 * the window or session holding it) unless forced, and leave the control connection in a known
 * state afterwards, since killing the session it is attached to detaches it.
 */
import type { Engine } from './engine.js';

export async function killPane(engine: Engine, paneId: string, force: boolean | undefined): Promise<void> {
  await engine.guardCaller([paneId], `kill pane ${paneId}`, force);
  await engine.tmux.run(['kill-pane', '-t', paneId]);
  await settle(engine);
}

/** Kills the window everywhere it is linked. */
export async function killWindow(engine: Engine, windowId: string, force: boolean | undefined): Promise<void> {
  const panes = await engine.listPanes({ windowId });
  await engine.guardCaller(panes.map((p) => p.id), `kill window ${windowId}`, force);
  await engine.tmux.run(['kill-window', '-t', windowId]);
  await settle(engine);
}

/** Kills the session; with the last session gone the tmux server exits too. */
export async function killSession(engine: Engine, sessionId: string, force: boolean | undefined): Promise<void> {
  const panes = await engine.listPanes({ sessionId });
  await engine.guardCaller(panes.map((p) => p.id), `kill session ${sessionId}`, force);
  await engine.tmux.run(['kill-session', '-t', sessionId]);
  await settle(engine);
}

/** Drops the pane's scrollback (the lines above the screen); the visible screen stays. */
export async function clearScrollback(engine: Engine, paneId: string): Promise<void> {
  await engine.tmux.run(['clear-history', '-t', paneId]);
}

/**
 * tmux answers a kill and only then detaches a control client whose session died, so the next
 * command could be written to a connection that is going away. A harmless round trip after the
 * kill absorbs that: it either gets its answer or sees the connection close, and the command
 * after it goes to a fresh connection (or the spawn path when the server is gone).
 */
async function settle(engine: Engine): Promise<void> {
  // The kill itself succeeded; whatever this round trip meets (a closed connection, no server left)
  // must not turn that into a failure.
  await engine.tmux.runIfServer(['display-message', '-p', '']).catch(() => undefined);
}
