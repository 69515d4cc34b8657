import { object, string } from '../../../mcp/tools/schema.js';
import { checkSessionName, renameSession as rename } from '../../../core/arrange/naming.js';
import { libtmuxTool } from '../declare.js';

export const renameSession = libtmuxTool({
  name: 'rename_session',
  title: 'Rename session',
  description:
    'Give a session a new name. The name is stored exactly as given (no tmux format expansion: "#" stays "#"). ' +
    'It must be non-empty and unique on the server, and must not contain ":" or "." (tmux reserves them for ' +
    'targets), control characters, backslashes, or "$" before a letter, "_" or "{" (tmux would store those ' +
    'escaped). The session id ($N) does not change, so ids and refs from list_sessions stay valid. To rename a ' +
    'window use rename_window.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { name: 'double-hash-once' },
  input: object(
    {
      session: string({ description: 'Session to rename: id ($0), exact current name, or session ref.' }),
      name: string({ description: 'New session name, taken literally. Not empty; no ":", ".", "\\", "$VAR" or control characters.' }),
    },
    ['name', 'session'],
  ),
  output: object(
    {
      sessionId: string({ description: 'Id of the renamed session ($N); unchanged by the rename.' }),
      name: string({ description: 'The name tmux now holds for the session.' }),
    },
    ['name', 'sessionId'],
  ),
  async handler(args: { session: string; name: string }, { ctx }) {
    checkSessionName(args.name);
    const session = await ctx.engine.resolveSession(args.session);
    const now = await rename(ctx.engine, session, args.name);
    return { structured: { sessionId: now.id, name: now.name } };
  },
});
