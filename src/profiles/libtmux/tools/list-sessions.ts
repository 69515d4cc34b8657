import { array, object } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';
import { sessionSchema, sessionWire } from '../records.js';

export const listSessions = libtmuxTool({
  name: 'list_sessions',
  title: 'List sessions',
  description:
    'List every tmux session on this server with its id, name, window count, creation time and whether a person ' +
    '(a terminal client other than this server) is attached. Start here to find where to work; then list_windows or ' +
    'list_panes for a session. An empty list means no tmux server is running yet: create_session starts one.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({}),
  output: object({ sessions: array(sessionSchema, { description: 'Sessions, in tmux order.' }) }, ['sessions']),
  async handler(_args: Record<string, never>, { ctx }) {
    const { sessions, foreignClients } = await ctx.engine.sessionList();
    return { structured: { sessions: sessions.map((s) => sessionWire(ctx.engine, s, foreignClients)) } };
  },
});
