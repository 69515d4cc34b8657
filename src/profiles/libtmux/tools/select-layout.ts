import { object, string } from '../../../mcp/tools/schema.js';
import { NAMED_LAYOUTS, selectLayout as apply } from '../../../core/arrange/layout.js';
import { libtmuxTool } from '../declare.js';

export const selectLayout = libtmuxTool({
  name: 'select_layout',
  title: 'Select layout',
  description:
    'Arrange the panes of a window. `layout` is a tmux preset: even-horizontal (side by side, equal widths), ' +
    'even-vertical (stacked, equal heights), main-horizontal (one large pane on top, the rest below), ' +
    'main-vertical (one large pane on the left, the rest beside it) or tiled (a grid). Or it is a layout string ' +
    'exactly as tmux prints it in #{window_layout}, such as "7922,120x40,0,0{60x40,0,0,1,59x40,61,0,2}", to restore ' +
    'an arrangement saved earlier: it is checked first (checksum, syntax, sizes that add up, and one cell per pane ' +
    'of this window) and panes fill its cells in pane-index order; its overall size becomes the window\'s size. ' +
    'Returns the layout string now in force, which can be passed back later to restore it. Programs in the panes ' +
    'keep running.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      windowId: string({ description: 'Window to arrange: window id (@1), window ref, or window-link ref.' }),
      layout: string({ description: `A preset (${NAMED_LAYOUTS.join(', ')}) or a tmux layout string (checksum,WxH,X,Y...).` }),
    },
    ['layout', 'windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the window (@N).' }),
      layout: string({ description: 'The layout now in force, as tmux prints it in #{window_layout}.' }),
    },
    ['layout', 'windowId'],
  ),
  async handler(args: { windowId: string; layout: string }, { ctx }) {
    const window = await ctx.engine.resolveWindow(args.windowId);
    const now = await apply(ctx.engine, window, args.layout);
    return { structured: { windowId: now.id, layout: now.layout } };
  },
});
