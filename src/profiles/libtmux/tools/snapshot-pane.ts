import { integer, object, string } from '../../../mcp/tools/schema.js';
import { captureLines, tailBudget } from '../../../core/read/capture.js';
import { libtmuxTool } from '../declare.js';
import { captureSchema, paneSchema, paneWire } from '../records.js';

export const snapshotPane = libtmuxTool({
  name: 'snapshot_pane',
  title: 'Snapshot pane',
  description:
    'Get a pane\'s description (as get_pane_info) and the text of its visible screen (as capture_pane) in one call: ' +
    'the quickest way to see what a pane is running and showing. The two are read one after the other, not ' +
    'atomically. The screen keeps the newest `maxLines` rows (default 200) within about 128 KB. For scrollback use ' +
    'capture_pane with `start`; to follow new output use capture_since.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref.' }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most screen rows returned, newest kept. Default 200.' }),
    },
    ['paneId'],
  ),
  output: object({ pane: paneSchema, capture: captureSchema }, ['capture', 'pane']),
  async handler(args: { paneId: string; maxLines?: number }, { ctx }) {
    const pane = await ctx.engine.resolvePane(args.paneId);
    const kept = tailBudget(await captureLines(ctx.engine, pane.id), args.maxLines ?? 200, undefined, { clipRow: true });
    return {
      structured: {
        pane: paneWire(ctx.engine, pane),
        capture: { paneId: pane.id, lines: kept.lines, droppedLines: kept.droppedLines },
      },
    };
  },
});
