import { object, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';
import { sessionSchema, sessionWire } from '../records.js';

export const getSessionInfo = libtmuxTool({
  name: 'get_session_info',
  title: 'Get session info',
  description:
    'Describe one session: id, ref, name, window count, creation time and whether a person (a terminal client ' +
    'other than this server) is attached. Accepts a session id ($0), an exact name or a session ref. To see all ' +
    'sessions use list_sessions; for its windows use list_windows.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({ session: string({ description: 'Session id ($0), exact session name, or session ref.' }) }, ['session']),
  output: object({ session: sessionSchema }, ['session']),
  async handler(args: { session: string }, { ctx }) {
    const [session, foreign] = await Promise.all([ctx.engine.resolveSession(args.session), ctx.engine.foreignClientsBySession()]);
    return { structured: { session: sessionWire(ctx.engine, session, foreign) } };
  },
});
