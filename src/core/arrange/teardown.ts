/**
 * Deleting tmux objects and pane history. Kills refuse to touch the pane this server runs in (or
 * the window or session holding it) unless forced. Killing the session our control client is
 * attached to detaches it; TmuxServer resends whatever tmux had not begun, so nothing more is owed.
 */
import type { Engine } from '../engine.js';
import { guardCaller, guardCallerWithin } from '../targets/caller-guard.js';

export async function killPane(engine: Engine, paneId: string, force: boolean | undefined): Promise<void> {
  await guardCaller(engine, [paneId], `kill pane ${paneId}`, force);
  await engine.run(['kill-pane', '-t', paneId]);
}

/** Kills the window everywhere it is linked. */
export async function killWindow(engine: Engine, windowId: string, force: boolean | undefined): Promise<void> {
  await guardCallerWithin(engine, { windowId }, `kill window ${windowId}`, force);
  await engine.run(['kill-window', '-t', windowId]);
}

/** Kills the session; with the last session gone the tmux server exits too. */
export async function killSession(engine: Engine, sessionId: string, force: boolean | undefined): Promise<void> {
  await guardCallerWithin(engine, { sessionId }, `kill session ${sessionId}`, force);
  await engine.run(['kill-session', '-t', sessionId]);
}

/** Drops the pane's scrollback (the lines above the screen); the visible screen stays. */
export async function clearScrollback(engine: Engine, paneId: string): Promise<void> {
  await engine.run(['clear-history', '-t', paneId]);
}

/** Resets the pane's terminal (screen cleared, modes reset) and drops its scrollback. */
export async function clearPane(engine: Engine, paneId: string): Promise<void> {
  await engine.runInOrder([
    ['send-keys', '-R', '-t', paneId],
    ['clear-history', '-t', paneId],
  ]);
}
