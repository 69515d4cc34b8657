import { enumOf, object, string } from '../../../mcp/tools/schema.js';
import { notFound } from '../../../core/failure.js';
import { CORNERS, paneAtCorner, type Corner } from '../../../core/read/corners.js';
import { libtmuxTool } from '../declare.js';
import { paneSchema, paneWire } from '../records.js';

export const findPaneByPosition = libtmuxTool({
  name: 'find_pane_by_position',
  title: 'Find pane by position',
  description:
    'Find the pane in a corner of a window (top-left, top-right, bottom-left or bottom-right), e.g. "the pane on ' +
    'the bottom right" after a split. Returns the first pane, in pane-index order, touching both edges of that ' +
    'corner (in a zoomed window the zoomed pane touches every corner too, and the pane first in index order still ' +
    'wins). To see every pane with its edges use list_panes with `window`.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      windowId: string({ description: 'Window id (@1), window ref, or window-link ref.' }),
      corner: enumOf(CORNERS, { description: 'Which corner of the window.' }),
    },
    ['corner', 'windowId'],
  ),
  output: object({ pane: paneSchema }, ['pane']),
  async handler(args: { windowId: string; corner: Corner }, { ctx }) {
    const window = await ctx.engine.resolveWindow(args.windowId);
    const panes = await ctx.engine.listPanes({ windowId: window.id });
    const pane = paneAtCorner(panes, args.corner);
    if (!pane) {
      throw notFound(`no pane of window ${window.id} occupies its ${args.corner} corner`, 'Call list_panes with this window to see each pane\'s edges.');
    }
    return { structured: { pane: paneWire(ctx.engine, pane) } };
  },
});
