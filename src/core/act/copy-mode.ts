/**
 * tmux copy mode on a pane: entering it (optionally scrolled back into history) and leaving it.
 * While a pane is in copy mode its screen is frozen for readers and typed keys go to the mode, so
 * input tools refuse such a pane until it leaves.
 */
import type { Engine } from '../engine.js';
import { invalidArgument } from '../failure.js';
import type { PaneRecord } from '../read/records.js';
import { getPane, onPane } from '../targets/resolve.js';

/** Most lines one call scrolls back (tmux stops at the top of the history anyway). */
const MAX_SCROLL_LINES = 1_000_000;

/** Puts the pane in copy mode (staying there if it already is) and scrolls `scrollUp` lines back. */
export async function enterCopyMode(engine: Engine, paneId: string, options: { scrollUp?: number | null } = {}): Promise<PaneRecord> {
  const scrollUp = options.scrollUp ?? 0;
  if (!Number.isInteger(scrollUp) || scrollUp < 0 || scrollUp > MAX_SCROLL_LINES) {
    throw invalidArgument(`scroll_up must be a whole number of lines from 0 to ${MAX_SCROLL_LINES}, got ${scrollUp}`);
  }
  const commands = [['copy-mode', '-t', paneId]];
  if (scrollUp > 0) commands.push(['send-keys', '-X', '-N', String(scrollUp), '-t', paneId, 'scroll-up']);
  await onPane(engine, paneId, () => engine.runInOrder(commands));
  return getPane(engine, paneId);
}

/** Leaves copy mode (or whichever mode the pane shows); a pane in no mode is left as it is. */
export async function exitCopyMode(engine: Engine, paneId: string): Promise<PaneRecord> {
  const pane = await getPane(engine, paneId);
  if (pane.modeCount === 0) return pane;
  await onPane(engine, paneId, () => engine.run(['send-keys', '-X', '-t', paneId, 'cancel']));
  return getPane(engine, paneId);
}
