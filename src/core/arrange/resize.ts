/**
 * Resizing panes and windows, and zooming. Each operation reads the result back from tmux and
 * fails when nothing happened, so a caller is never told a pane moved when tmux left it alone.
 * Windows are resized with `resize-window`, which pins the window's size (tmux sets its
 * `window-size` option to `manual`); this server's own control clients attach with
 * `ignore-size`, so they never resize anything themselves.
 */
import { invalidArgument, refused } from '../failure.js';
import type { Engine } from '../engine.js';
import { MAX_WINDOW_CELLS } from './layout.js';
import type { PaneLayout, WindowRecord } from '../read/records.js';
import { getPane, getWindow } from '../targets/resolve.js';

export type Direction = 'up' | 'down' | 'left' | 'right';

export type PaneResize =
  | { readonly kind: 'step'; readonly direction: Direction; readonly amount: number }
  | { readonly kind: 'size'; readonly width?: number; readonly height?: number }
  | { readonly kind: 'zoom'; readonly zoom: boolean };

export interface PaneResizeResult {
  readonly pane: PaneLayout;
  /** One sentence on what changed, for the text beside the structured result. */
  readonly summary: string;
}

const FLAG: Record<Direction, string> = { up: '-U', down: '-D', left: '-L', right: '-R' };

/** Checks sizes against tmux's window bounds before anything runs. */
export function checkCells(value: number | undefined, field: string): void {
  if (value !== undefined && (value < 1 || value > MAX_WINDOW_CELLS)) {
    throw invalidArgument(`${field} must be 1 to ${MAX_WINDOW_CELLS} cells, got ${value}`);
  }
}

/** Asks tmux for a pane size and leaves the rest to it: tmux clamps to what the window's layout allows (a lone pane keeps the window's size). */
export async function requestPaneSize(
  engine: Engine,
  paneId: string,
  size: { readonly width?: number; readonly height?: number },
): Promise<void> {
  checkCells(size.width, 'width');
  checkCells(size.height, 'height');
  if (size.width === undefined && size.height === undefined) throw invalidArgument('supply width or height');
  const command = ['resize-pane', '-t', paneId];
  if (size.width !== undefined) command.push('-x', String(size.width));
  if (size.height !== undefined) command.push('-y', String(size.height));
  await engine.run(command);
}

export async function resizePane(engine: Engine, pane: PaneLayout, request: PaneResize): Promise<PaneResizeResult> {
  const window = await getWindow(engine, pane.windowId);
  if (request.kind === 'zoom') return zoomPane(engine, pane, window, request.zoom);
  const command = ['resize-pane', '-t', pane.id];
  if (request.kind === 'step') command.push(FLAG[request.direction], String(request.amount));
  else {
    if (request.width !== undefined) command.push('-x', String(request.width));
    if (request.height !== undefined) command.push('-y', String(request.height));
  }
  await engine.run(command);
  const after = await getPane(engine, pane.id);
  const size = `${after.width}x${after.height}`;
  const moved = after.width !== pane.width || after.height !== pane.height || window.zoomed;
  if (request.kind === 'step') {
    if (!moved) {
      throw refused(
        `nothing moved: ${pane.id} (${size}) has no border tmux can move ${request.direction}`,
        request.direction === 'up' || request.direction === 'down'
          ? 'The pane spans the window from top to bottom; resize the window with resize_window instead'
          : 'The pane spans the window from left to right; resize the window with resize_window instead',
      );
    }
    return { pane: after, summary: `Pane ${pane.id} is now ${size} (was ${pane.width}x${pane.height}).` };
  }
  const reached = (request.width ?? after.width) === after.width && (request.height ?? after.height) === after.height;
  if (!moved && !reached) {
    throw refused(
      `nothing changed: ${pane.id} stays ${size}, since its window (${window.width}x${window.height}) leaves no room for ${wanted(request)}`,
      'A pane alone in its row or column always spans the window that way; resize the window with resize_window instead',
    );
  }
  const note = reached
    ? ''
    : ` tmux kept it within its window (${window.width}x${window.height}), so it is not exactly ${wanted(request)}.`;
  return { pane: after, summary: `Pane ${pane.id} is now ${size}.${note}` };
}

function wanted(request: { width?: number; height?: number }): string {
  if (request.width !== undefined && request.height !== undefined) return `${request.width}x${request.height}`;
  return request.width !== undefined ? `width ${request.width}` : `height ${request.height}`;
}

/** Brings the window's zoom to the asked state, with `pane` as the zoomed one when zooming. */
async function zoomPane(engine: Engine, pane: PaneLayout, window: WindowRecord, zoom: boolean): Promise<PaneResizeResult> {
  const zoomedHere = window.zoomed && window.activePaneId === pane.id;
  if (zoom && !zoomedHere) {
    if (window.paneCount < 2) throw refused(`cannot zoom ${pane.id}: it is the only pane of window ${window.id}, so it already fills it`);
    // Zoom toggles, and on a window zoomed into another pane it only unzooms: unzoom first.
    if (window.zoomed) await engine.run(['resize-pane', '-Z', '-t', window.activePaneId]);
    await engine.run(['resize-pane', '-Z', '-t', pane.id]);
  } else if (!zoom && window.zoomed) {
    await engine.run(['resize-pane', '-Z', '-t', pane.id]);
  }
  const now = await getWindow(engine, window.id);
  const ok = zoom ? now.zoomed && now.activePaneId === pane.id : !now.zoomed;
  if (!ok)
    throw refused(`tmux did not ${zoom ? 'zoom' : 'unzoom'} window ${window.id} (zoomed: ${now.zoomed}, active pane ${now.activePaneId})`);
  const after = await getPane(engine, pane.id);
  const changed = zoom ? !zoomedHere : window.zoomed;
  return {
    pane: after,
    summary: zoom
      ? `${changed ? 'Zoomed' : 'Already zoomed'}: ${pane.id} fills window ${window.id} (${after.width}x${after.height}).`
      : `${changed ? 'Unzoomed' : 'Was not zoomed'}: window ${window.id} shows all ${now.paneCount} panes.`,
  };
}

/**
 * Sets a window's size in cells (validate with checkCells first). tmux pins the size, so attached
 * terminals no longer fit the window to themselves until the window-size option is changed back.
 */
export async function resizeWindow(engine: Engine, window: WindowRecord, size: { width?: number; height?: number }): Promise<WindowRecord> {
  const command = ['resize-window', '-t', window.id];
  if (size.width !== undefined) command.push('-x', String(size.width));
  if (size.height !== undefined) command.push('-y', String(size.height));
  await engine.run(command);
  const after = await getWindow(engine, window.id);
  if ((size.width ?? after.width) !== after.width || (size.height ?? after.height) !== after.height) {
    throw refused(
      `tmux left window ${window.id} at ${after.width}x${after.height} instead of ${size.width ?? after.width}x${size.height ?? after.height}`,
      'Its window-size option may make it follow an attached terminal; check it with show_option (scope window, name window-size)',
    );
  }
  return after;
}
