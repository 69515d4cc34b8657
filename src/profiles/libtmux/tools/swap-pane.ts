import { object, string } from '../../../mcp/tools/schema.js';
import { swapPanes } from '../../../core/arrange/arrange.js';
import { libtmuxTool } from '../declare.js';

export const swapPane = libtmuxTool({
  name: 'swap_pane',
  title: 'Swap panes',
  description:
    'Swap the positions of two panes: each takes the other\'s place and size, in the same window or across ' +
    'windows and sessions. The panes keep their ids, programs and scrollback; only where they sit changes. The ' +
    'pane that was active stays active where it can. Swapping a pane with itself does nothing. A zoomed window is ' +
    'unzoomed.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'First pane: pane id (%3) or pane ref.' }),
      otherPaneId: string({ description: 'Second pane, whose place the first one takes: pane id or pane ref.' }),
    },
    ['otherPaneId', 'paneId'],
  ),
  output: object(
    {
      paneId: string({ description: 'Id of the first pane, now where the second one was.' }),
      otherPaneId: string({ description: 'Id of the second pane, now where the first one was.' }),
    },
    ['otherPaneId', 'paneId'],
  ),
  async handler(args: { paneId: string; otherPaneId: string }, { ctx }) {
    const pane = await ctx.engine.resolvePane(args.paneId);
    const other = await ctx.engine.resolvePane(args.otherPaneId, 'otherPaneId');
    await swapPanes(ctx.engine, pane, other);
    return { structured: { paneId: pane.id, otherPaneId: other.id } };
  },
});
