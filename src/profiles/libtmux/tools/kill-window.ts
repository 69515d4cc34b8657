import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { killWindow as kill } from '../../../core/arrange/teardown.js';
import { libtmuxTool } from '../declare.js';

export const killWindow = libtmuxTool({
  name: 'kill_window',
  title: 'Kill window',
  description:
    'Close a window with all its panes, ending their programs; it disappears from every session it is linked ' +
    'into, and a session left without windows closes. Refuses a window holding the pane this MCP server runs in ' +
    'unless force is true. To close one pane, use kill_pane.',
  toolset: 'teardown',
  tmuxEffects: ['delete', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      windowId: string({ description: 'Window to kill: id (@1), window ref, or window-link ref.' }),
      force: boolean({ description: 'Allow killing the window that holds the pane this MCP server runs in. Default false.' }),
    },
    ['windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'The window killed.' }),
      deleted: boolean({ description: 'Always true: the window is gone.' }),
    },
    ['deleted', 'windowId'],
  ),
  async handler(args: { windowId: string; force?: boolean }, { ctx }) {
    const window = await ctx.engine.resolveWindow(args.windowId);
    await kill(ctx.engine, window.id, args.force);
    return { structured: { windowId: window.id, deleted: true } };
  },
});
