import { integer, object, string } from '../../../mcp/tools/schema.js';
import { invalidArgument } from '../../../core/failure.js';
import { checkCells, resizeWindow as resize } from '../../../core/arrange/resize.js';
import { libtmuxTool } from '../declare.js';

export const resizeWindow = libtmuxTool({
  name: 'resize_window',
  title: 'Resize window',
  description:
    'Set a window\'s size in cells (columns x rows, 1 to 10000 each); give `width`, `height` or both, an omitted ' +
    'one stays as it is. Panes are scaled to fit. The size is pinned: tmux sets the window\'s window-size option to ' +
    '"manual", so terminals attached later do not fit the window to themselves (a larger window is cropped on a ' +
    'smaller screen). Programs in the panes see the new size. The text result reports the size now in force; a ' +
    'size tmux did not apply is an error. For one pane inside a window use resize_pane.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      windowId: string({ description: 'Window to resize: window id (@1), window ref, or window-link ref.' }),
      width: integer({ minimum: 1, description: 'New width in columns (1 to 10000). Omitted: unchanged.' }),
      height: integer({ minimum: 1, description: 'New height in rows (1 to 10000). Omitted: unchanged.' }),
    },
    ['windowId'],
  ),
  output: object({ windowId: string({ description: 'Id of the resized window (@N).' }) }, ['windowId']),
  async handler(args: { windowId: string; width?: number; height?: number }, { ctx }) {
    if (args.width === undefined && args.height === undefined) throw invalidArgument('give width, height, or both');
    checkCells(args.width, 'width');
    checkCells(args.height, 'height');
    const window = await ctx.engine.resolveWindow(args.windowId);
    const now = await resize(ctx.engine, window, { width: args.width, height: args.height });
    const structured = { windowId: now.id };
    return { structured, text: `${JSON.stringify(structured)}\nWindow ${now.id} is now ${now.width}x${now.height}.` };
  },
});
