/**
 * What a recording needs to know of a pane's screen beside its output: the escape sequences that
 * paint a captured screen onto a fresh terminal (so a replay starts from what the pane showed), and
 * a pane's size as a `%layout-change` layout states it (so a resize is noticed with no tmux command).
 */
import { rowFormat } from '../../tmux/formats.js';

/** The fields read, in the same tmux command round as the captures, to paint a pane. */
export const PAINT_FORMAT = rowFormat({
  paneId: 'pane_id',
  serverPid: 'pid',
  sessionId: 'session_id',
  sessionName: 'session_name',
  windowId: 'window_id',
  width: 'pane_width',
  height: 'pane_height',
  cursorX: 'cursor_x',
  cursorY: 'cursor_y',
  cursorVisible: 'cursor_flag',
  alternate: 'alternate_on',
  savedX: 'alternate_saved_x',
  savedY: 'alternate_saved_y',
});

/** A pane's fields as PAINT_FORMAT reads them. */
export type PaintRow = ReturnType<typeof PAINT_FORMAT.parse>[number];

/** The tmux commands whose answers paint the pane: its fields, the normal screen kept while a program uses the alternate one (empty otherwise), the visible screen. */
export function paintCommands(paneId: string): string[][] {
  return [
    ['display-message', '-p', '-t', paneId, PAINT_FORMAT.format],
    ['capture-pane', '-p', '-e', '-a', '-q', '-t', paneId],
    ['capture-pane', '-p', '-e', '-t', paneId],
  ];
}

/**
 * Escape sequences that turn any terminal of the pane's size into what the pane shows: the normal
 * screen, then (for a program on the alternate screen) the switch to it and its content, the cursor.
 * capture-pane -e writes a row's attributes only where they change from the cell before, across
 * rows too (tmux 3.3 carries a colour into the next row without restating it; 3.4 and newer close
 * and reopen it at each row), so the rows are painted as one run and reset only at its end.
 */
export function paintScreen(row: PaintRow, normal: readonly string[], visible: readonly string[]): string {
  const height = Number(row.height);
  const rows = (lines: readonly string[]) => lines.slice(0, height).join('\r\n') + '\x1b[0m';
  let paint = '\x1b[?1049l\x1b[0m\x1b[H\x1b[2J';
  // The switch saves the cursor where the program left the normal screen; leaving the alternate screen goes back there.
  if (row.alternate === '1') paint += rows(normal) + cursorTo(row.savedX, row.savedY) + '\x1b[?1049h\x1b[H\x1b[2J';
  paint += rows(visible);
  paint += cursorTo(row.cursorX, row.cursorY);
  paint += row.cursorVisible === '0' ? '\x1b[?25l' : '\x1b[?25h';
  return paint;
}

/** CUP to a 0-based cell as tmux numbers them. */
function cursorTo(x: string, y: string): string {
  return `\x1b[${(Number(y) || 0) + 1};${(Number(x) || 0) + 1}H`;
}

/**
 * The size of pane `paneId` in a tmux layout (`%layout-change`'s visible layout, e.g.
 * `b25f,80x24,0,0,2` or `cafd,160x50,0,0{80x50,0,0,1,79x50,81,0,3}`), or undefined when the
 * layout does not hold it. A leaf is `WxH,X,Y,ID`; a split's own `WxH,X,Y` is followed by `{` or `[`.
 */
export function paneSizeInLayout(layout: string, paneId: string): { width: number; height: number } | undefined {
  const id = paneId.slice(1);
  for (const match of layout.matchAll(/(\d+)x(\d+),\d+,\d+,(\d+)/g)) {
    if (match[3] === id) return { width: Number(match[1]), height: Number(match[2]) };
  }
  return undefined;
}
