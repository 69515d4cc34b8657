import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';

export const getServerInfo = libtmuxTool({
  name: 'get_server_info',
  title: 'Get server info',
  description:
    'Say whether a tmux server is running on the socket this MCP server is bound to and, if so, its tmux version ' +
    'and socket path. Never fails for a missing server: `running: false` means nothing is there yet (create_session ' +
    'starts one). Use it to check the connection or the tmux version before relying on a newer tmux feature.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({}),
  output: object(
    {
      running: boolean({ description: 'True when a tmux server answers on the socket.' }),
      version: string({ description: 'tmux version, e.g. "3.4" (only when running).' }),
      socketPath: string({ description: 'Absolute path of the server socket (only when running).' }),
    },
    ['running'],
  ),
  async handler(_args: Record<string, never>, { ctx }) {
    const identity = await ctx.engine.identity();
    if (!identity) return { structured: { running: false }, text: `No tmux server is running on ${ctx.engine.tmux.socketLabel}.` };
    return { structured: { running: true, version: identity.version, socketPath: identity.socketPath } };
  },
});
