import { array, boolean, integer, object, string } from '../../../mcp/tools/schema.js';
import { captureSince, CURSOR_MAX_CHARS, decodeCursor } from '../../../core/read/capture-since.js';
import { libtmuxTool } from '../declare.js';

export const captureSinceTool = libtmuxTool({
  name: 'capture_since',
  title: 'Capture since',
  description:
    'Follow a pane\'s output without re-reading what you have seen: returns only the rows that appeared or changed ' +
    'since the `cursor` of your previous call, plus a new cursor to pass next time. The first call (no cursor) ' +
    'returns no rows, just a cursor marking "now"; use capture_pane for what is already on screen. `waitMs` (default ' +
    '0, at most 10000) waits for new output when there is none yet, returning as soon as some arrives. ' +
    '`restarted: true` means the cursor was for another pane, a respawned pane or a restarted tmux server, so ' +
    'reading starts afresh (no rows, new cursor). `linesMissed: true` means rows may have been lost in between ' +
    '(history trimmed or cleared, a full-screen program switched screens): call capture_pane to resynchronise. ' +
    'Keeps the newest `maxLines` rows (default 200) within about 128 KB; `droppedLines` counts older new rows left ' +
    'out. To wait for specific text use wait_for_text.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref.' }),
      cursor: string({ maxLength: CURSOR_MAX_CHARS, description: 'The cursor a previous capture_since returned for this pane. Omit on the first call.' }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most rows returned, newest kept. Default 200.' }),
      waitMs: integer({ minimum: 0, maximum: 10000, description: 'Milliseconds to wait for new output when there is none yet. Default 0 (answer at once).' }),
    },
    ['paneId'],
  ),
  output: object(
    {
      pane: string({ description: 'Pane id read.' }),
      paneRef: string({ description: 'Pane ref, valid until the tmux server restarts.' }),
      lines: array(string(), { description: 'Rows new or changed since the cursor, oldest first, trailing blank rows removed.' }),
      cursor: string({ description: 'Opaque cursor for the next call.' }),
      linesMissed: boolean({ description: 'True when rows may have been missed since the cursor.' }),
      restarted: boolean({ description: 'True when the cursor did not belong to this pane incarnation; reading restarted from now.' }),
      droppedLines: integer({ description: 'New rows left out (oldest first) to stay within maxLines and the byte budget.' }),
    },
    ['cursor', 'droppedLines', 'lines', 'linesMissed', 'pane', 'paneRef', 'restarted'],
  ),
  async handler(args: { paneId: string; cursor?: string; maxLines?: number; waitMs?: number }, { ctx, signal }) {
    if (args.cursor !== undefined) decodeCursor(args.cursor); // a garbled cursor fails before any tmux call
    const pane = await ctx.engine.resolvePane(args.paneId);
    const result = await captureSince(ctx.engine, pane, { ...args, signal });
    return {
      structured: {
        pane: pane.id,
        paneRef: ctx.engine.ref('pane', pane.id, pane.incarnation),
        lines: result.lines,
        cursor: result.cursor,
        linesMissed: result.linesMissed,
        restarted: result.restarted,
        droppedLines: result.droppedLines,
      },
    };
  },
});
