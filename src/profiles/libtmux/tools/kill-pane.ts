import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { killPane as kill } from '../../../core/arrange/teardown.js';
import { libtmuxTool } from '../declare.js';

export const killPane = libtmuxTool({
  name: 'kill_pane',
  title: 'Kill pane',
  description:
    'Close a pane and end the program in it (SIGHUP to its process group); what it showed is lost. The other panes ' +
    'of the window take its space; killing a window\'s last pane closes the window, and a session\'s last window ' +
    'the session. Refuses the pane this MCP server runs in unless force is true. To restart the program but keep ' +
    'the pane, use respawn_pane.',
  toolset: 'teardown',
  tmuxEffects: ['delete', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane to kill: id (%3) or pane ref.' }),
      force: boolean({ description: 'Allow killing the pane this MCP server runs in. Default false.' }),
    },
    ['paneId'],
  ),
  output: object(
    {
      paneId: string({ description: 'The pane killed.' }),
      deleted: boolean({ description: 'Always true: the pane is gone.' }),
    },
    ['deleted', 'paneId'],
  ),
  async handler(args: { paneId: string; force?: boolean }, { ctx }) {
    // kill-pane itself refuses a pane that does not exist: no separate lookup.
    const paneId = await ctx.engine.paneIdFrom(args.paneId);
    await ctx.engine.onPane(paneId, () => kill(ctx.engine, paneId, args.force));
    return { structured: { paneId, deleted: true } };
  },
});
