/** Focus and order of panes inside windows: selecting the active pane, swapping two panes. */
import { refused } from './failure.js';
import type { Engine } from './engine.js';
import type { PaneRecord } from './records.js';

/** Makes `pane` the active pane of its window (its window is not brought to the front). */
export async function selectPane(engine: Engine, pane: PaneRecord): Promise<PaneRecord> {
  await engine.tmux.run(['select-pane', '-t', pane.id]);
  const now = await engine.getPane(pane.id);
  if (!now.isActive) throw refused(`tmux did not make ${pane.id} the active pane of window ${now.windowId}`);
  return now;
}

/**
 * Swaps the places of two panes (in one window or across windows). Focus stays with the pane that
 * had it: tmux's `-d` keeps the active position, so the previously active pane is selected again
 * when it is still in its window.
 */
export async function swapPanes(engine: Engine, pane: PaneRecord, other: PaneRecord): Promise<void> {
  if (pane.id === other.id) return;
  const windows = [...new Set([pane.windowId, other.windowId])];
  const activeBefore = await Promise.all(windows.map(async (id) => (await engine.getWindow(id)).activePaneId));
  await engine.tmux.run(['swap-pane', '-d', '-s', pane.id, '-t', other.id]);
  for (const [i, windowId] of windows.entries()) {
    const active = activeBefore[i]!;
    const now = await engine.getPane(active);
    if (now.windowId === windowId && !now.isActive) await engine.tmux.run(['select-pane', '-t', active]);
  }
}
