import { object, string } from '../../../mcp/tools/schema.js';
import { checkStartDirectory, createWindow as create } from '../../../core/arrange/lifecycle.js';
import { checkWindowName } from '../../../core/arrange/naming.js';
import { libtmuxTool } from '../declare.js';
import { windowOccurrenceSchema, windowOccurrenceWire } from '../records.js';

export const createWindow = libtmuxTool({
  name: 'create_window',
  title: 'Create window',
  description:
    'Add a window to an existing session, at its next free index, with one pane running your default shell (no ' +
    'command is accepted). The window is created in the background: the session\'s current window does not ' +
    'change. Returns the window as placed in that session (id, refs, index, size); get its pane with list_panes ' +
    '(window: the returned id). To add a pane beside an existing one instead, use split_window; for a new ' +
    'session, create_session.',
  toolset: 'execute',
  processReach: 'configured-process',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { name: 'double-hash-once', startDirectory: 'double-hash-once' },
  input: object(
    {
      session: string({ description: 'Session to add the window to: id ($0), exact name, or session ref.' }),
      name: string({ description: 'Window name, taken literally. Default: tmux names it after the running program.' }),
      startDirectory: string({ description: 'Working directory of the pane: an existing absolute path (~/ allowed). Default: tmux\'s default for the session.' }),
    },
    ['session'],
  ),
  output: windowOccurrenceSchema,
  async handler(args: { session: string; name?: string; startDirectory?: string }, { ctx }) {
    const { engine } = ctx;
    if (args.name !== undefined) checkWindowName(args.name);
    const startDirectory = args.startDirectory === undefined ? undefined : await checkStartDirectory(args.startDirectory);
    const session = await engine.resolveSession(args.session);
    const window = await create(engine, session.id, { name: args.name, startDirectory });
    return { structured: windowOccurrenceWire(engine, window) };
  },
});
