import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { clearScrollback } from '../../../core/arrange/teardown.js';
import { libtmuxTool } from '../declare.js';

export const clearPaneScrollback = libtmuxTool({
  name: 'clear_pane_scrollback',
  title: 'Clear pane scrollback',
  description:
    'Delete a pane\'s scrollback history: the lines that scrolled off above the screen. The visible screen and ' +
    'the running program are untouched. Useful before a command whose output you will search or capture, so old ' +
    'output cannot match; the history cannot be recovered.',
  toolset: 'teardown',
  tmuxEffects: ['delete'],
  outputClasses: ['tmux-metadata'],
  input: object({ paneId: string({ description: 'Pane whose history to clear: id (%3) or pane ref.' }) }, ['paneId']),
  output: object(
    {
      paneId: string({ description: 'The pane cleared.' }),
      deleted: boolean({ description: 'Always true: its scrollback is gone.' }),
    },
    ['deleted', 'paneId'],
  ),
  async handler(args: { paneId: string }, { ctx }) {
    // clear-history itself refuses a pane that does not exist: no separate lookup.
    const paneId = await ctx.engine.paneIdFrom(args.paneId);
    await ctx.engine.onPane(paneId, () => clearScrollback(ctx.engine, paneId));
    return { structured: { paneId, deleted: true } };
  },
});
