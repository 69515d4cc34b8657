import { boolean, integer, object, string } from '../../../mcp/tools/schema.js';
import { captureLines, tailBudget } from '../../../core/read/capture.js';
import { libtmuxTool } from '../declare.js';
import { captureSchema } from '../records.js';

const LINE = { minimum: -2147483648, maximum: 32767 };

export const capturePane = libtmuxTool({
  name: 'capture_pane',
  title: 'Capture pane',
  description:
    'Read the text a pane shows, as rows (no colours or escape sequences). By default the visible screen; use ' +
    '`start` (negative reaches into scrollback, e.g. -500) and `end` to read history. Long captures keep the newest ' +
    '`maxLines` rows (default 200, at most 2000) and about 128 KB, and `droppedLines` says how many older rows were ' +
    'left out. To follow new output use capture_since; to wait for something to appear use wait_for_text.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref.' }),
      start: integer({ ...LINE, description: 'First row: 0 is the top of the screen, negative rows are scrollback (-100 = 100 rows back). Default: top of the screen.' }),
      end: integer({ ...LINE, description: 'Last row, same numbering. Default: bottom of the screen.' }),
      joinWrapped: boolean({ description: 'Join rows the terminal wrapped, so each long line reads as one. Default false.' }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most rows returned, newest kept. Default 200.' }),
    },
    ['paneId'],
  ),
  output: captureSchema,
  async handler(args: { paneId: string; start?: number; end?: number; joinWrapped?: boolean; maxLines?: number }, { ctx }) {
    // capture-pane itself refuses a pane that does not exist: one tmux command, no separate lookup.
    const paneId = await ctx.engine.paneIdFrom(args.paneId);
    const lines = await ctx.engine.onPane(paneId, () => captureLines(ctx.engine, paneId, args));
    const kept = tailBudget(lines, args.maxLines ?? 200, undefined, { clipRow: true });
    return {
      structured: { paneId, lines: kept.lines, droppedLines: kept.droppedLines },
      text:
        (kept.droppedLines ? `[${kept.droppedLines} older rows left out]\n` : '') +
        (kept.clippedRow ? '[the oldest row shown is cut to its end, marked "…"]\n' : '') +
        kept.lines.join('\n'),
    };
  },
});
