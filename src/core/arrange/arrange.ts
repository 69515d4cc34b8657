/** Focus and order of panes inside windows: selecting the active pane, swapping two panes. */
import { refused } from '../failure.js';
import type { Engine } from '../engine.js';
import type { PaneLayout, WindowRecord } from '../read/records.js';
import { listPanes, listWindows } from '../read/listings.js';
import { getPane, getWindow } from '../targets/resolve.js';

/** Makes `pane` the active pane of its window (its window is not brought to the front); returns it as it is now. */
export async function selectPane(engine: Engine, pane: { readonly id: string }): Promise<PaneLayout> {
  await engine.run(['select-pane', '-t', pane.id]);
  const now = await getPane(engine, pane.id);
  if (!now.isActive) throw refused(`tmux did not make ${pane.id} the active pane of window ${now.windowId}`);
  return now;
}

/**
 * Swaps the places of two panes (in one window or across windows). Focus stays with the pane that
 * had it: tmux's `-d` keeps the active position, so the previously active pane is selected again
 * when it is still in its window.
 */
export async function swapPanes(engine: Engine, pane: PaneLayout, other: PaneLayout): Promise<void> {
  if (pane.id === other.id) return;
  const windows = [...new Set([pane.windowId, other.windowId])];
  const activeBefore = await Promise.all(windows.map(async (id) => (await getWindow(engine, id)).activePaneId));
  await engine.run(['swap-pane', '-d', '-s', pane.id, '-t', other.id]);
  for (const [i, windowId] of windows.entries()) {
    const active = activeBefore[i]!;
    const now = await getPane(engine, active);
    if (now.windowId === windowId && !now.isActive) await engine.run(['select-pane', '-t', active]);
  }
}

export type WindowStep = 'next' | 'previous' | 'last';
const WINDOW_STEP_FLAG: Record<WindowStep, string> = { next: '-n', previous: '-p', last: '-l' };

/** Moves a session's current window to the next, previous or last-used one; returns the window now current. */
export async function stepWindow(engine: Engine, sessionId: string, step: WindowStep): Promise<WindowRecord> {
  await engine.run(['select-window', WINDOW_STEP_FLAG[step], '-t', sessionId]);
  const current = (await listWindows(engine, sessionId)).find((w) => w.isActive);
  if (!current) throw refused(`session ${sessionId} has no current window after select-window`);
  return current;
}

export type PaneStep = 'up' | 'down' | 'left' | 'right' | 'last' | 'next' | 'previous';
const PANE_STEP_FLAG: Record<'up' | 'down' | 'left' | 'right', string> = { up: '-U', down: '-D', left: '-L', right: '-R' };

/**
 * Moves a window's active pane: to a neighbour (up/down/left/right), the last-used pane, or the
 * next/previous pane in index order (by absolute id, so no client's notion of "current" matters).
 * Returns the pane now active.
 */
export async function stepPane(engine: Engine, windowId: string, step: PaneStep): Promise<string> {
  const panes = await listPanes(engine, { windowId });
  const active = panes.find((p) => p.isActive) ?? panes[0];
  if (!active) throw refused(`window ${windowId} has no panes`);
  if (step === 'next' || step === 'previous') {
    const at = panes.indexOf(active);
    const target = panes[(at + (step === 'next' ? 1 : panes.length - 1)) % panes.length]!;
    await engine.run(['select-pane', '-t', target.id]);
  } else if (step === 'last') {
    await engine.run(['select-pane', '-l', '-t', windowId]);
  } else {
    await engine.run(['select-pane', PANE_STEP_FLAG[step], '-t', active.id]);
  }
  const now = (await listPanes(engine, { windowId })).find((p) => p.isActive);
  if (!now) throw refused(`window ${windowId} has no active pane after select-pane`);
  return now.id;
}
