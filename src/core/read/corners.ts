/** The pane in a corner of a window, for callers that know a layout by shape rather than by id. */
import type { PaneLayout } from './records.js';

export const CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type Corner = (typeof CORNERS)[number];

const AT: Record<Corner, (pane: PaneLayout) => boolean> = {
  'top-left': (p) => p.isAtTop && p.isAtLeft,
  'top-right': (p) => p.isAtTop && p.isAtRight,
  'bottom-left': (p) => p.isAtBottom && p.isAtLeft,
  'bottom-right': (p) => p.isAtBottom && p.isAtRight,
};

/**
 * The first of `panes` (one window's, in tmux's order) touching both edges of `corner`. Panes tile
 * a window, so one pane does; only in a zoomed window can a second (the zoomed one) also touch them.
 */
export function paneAtCorner<P extends PaneLayout>(panes: readonly P[], corner: Corner): P | undefined {
  return panes.find(AT[corner]);
}
