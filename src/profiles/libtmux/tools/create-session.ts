import { integer, object, string } from '../../../mcp/tools/schema.js';
import { checkNewSession, createSession as create } from '../../../core/arrange/lifecycle.js';
import { libtmuxTool } from '../declare.js';
import { sessionSchema, sessionWire } from '../records.js';

export const createSession = libtmuxTool({
  name: 'create_session',
  title: 'Create session',
  description:
    'Create a new detached tmux session with one window whose pane runs your default shell (no command is ' +
    'accepted; type one afterwards with send_keys or run_shell_command). Starts the tmux server when none is ' +
    'running. Returns the session record; find its first pane with list_panes (session: the returned id). ' +
    'Fails without changing anything when the name is taken (use create_window to add to an existing session), ' +
    'empty, or contains ":" or "." (tmux reserves them for targets) or "$" or "\\" (tmux would store them escaped). ' +
    'Names and directories are taken literally, "#" included. ' +
    'Size defaults to tmux\'s default-size (usually 80x24).',
  toolset: 'execute',
  processReach: 'configured-process',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { name: 'double-hash-once', startDirectory: 'double-hash-once', windowName: 'double-hash-once' },
  input: object(
    {
      name: string({ description: 'Name of the new session; must be unused and non-empty, without ":", ".", "$", "\\" or control characters.' }),
      windowName: string({ description: 'Name of its first window. Default: tmux names it after the running program.' }),
      startDirectory: string({ description: 'Working directory of the first pane: an existing absolute path (~/ allowed). Default: chosen by tmux (this MCP server\'s directory when the call starts the tmux server, otherwise usually that of an existing session).' }),
      width: integer({ minimum: 1, description: 'Initial width in cells (at most 10000). Default: tmux default-size.' }),
      height: integer({ minimum: 1, description: 'Initial height in cells (at most 10000). Default: tmux default-size.' }),
    },
    ['name'],
  ),
  output: sessionSchema,
  async handler(args: { name: string; windowName?: string; startDirectory?: string; width?: number; height?: number }, { ctx }) {
    const { engine } = ctx;
    const input = await checkNewSession(args);
    const session = await create(engine, input);
    return { structured: sessionWire(engine, session, await engine.foreignClientsBySession()) };
  },
});
