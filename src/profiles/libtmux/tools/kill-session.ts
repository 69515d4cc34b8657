import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { killSession as kill } from '../../../core/arrange/teardown.js';
import { libtmuxTool } from '../declare.js';

export const killSession = libtmuxTool({
  name: 'kill_session',
  title: 'Kill session',
  description:
    'Close a session with all its windows and panes, ending their programs; anyone attached to it is detached. ' +
    'Killing the last session also stops the tmux server (list_sessions then returns an empty list, and ' +
    'create_session starts a new server). Refuses the session holding the pane this MCP server runs in unless ' +
    'force is true.',
  toolset: 'teardown',
  tmuxEffects: ['delete', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      session: string({ description: 'Session to kill: id ($0), exact name, or session ref.' }),
      force: boolean({ description: 'Allow killing the session that holds the pane this MCP server runs in. Default false.' }),
    },
    ['session'],
  ),
  output: object(
    {
      sessionId: string({ description: 'The session killed.' }),
      deleted: boolean({ description: 'Always true: the session is gone.' }),
    },
    ['deleted', 'sessionId'],
  ),
  async handler(args: { session: string; force?: boolean }, { ctx }) {
    const session = await ctx.engine.resolveSession(args.session);
    await kill(ctx.engine, session.id, args.force);
    return { structured: { sessionId: session.id, deleted: true } };
  },
});
