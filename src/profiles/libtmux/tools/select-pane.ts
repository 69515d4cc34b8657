import { object, string } from '../../../mcp/tools/schema.js';
import { selectPane as select } from '../../../core/arrange/arrange.js';
import { libtmuxTool } from '../declare.js';

export const selectPane = libtmuxTool({
  name: 'select_pane',
  title: 'Select pane',
  description:
    'Make a pane the active pane of its window: the one that gets the keys a person types, and the one tmux ' +
    'commands aimed at the window act on. It does not bring the window to the front of its session (use ' +
    'select_window for that), and it unzooms the window if another pane was zoomed. Tools such as send_keys ' +
    'address panes by id and do not need this.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object({ paneId: string({ description: 'Pane to make active: pane id (%3) or pane ref.' }) }, ['paneId']),
  output: object({ paneId: string({ description: 'Id of the now active pane (%N).' }) }, ['paneId']),
  async handler(args: { paneId: string }, { ctx }) {
    const pane = await ctx.engine.resolvePane(args.paneId);
    const now = await select(ctx.engine, pane);
    return { structured: { paneId: now.id } };
  },
});
