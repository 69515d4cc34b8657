import { array, nullable, object, record, string } from '../../../mcp/tools/schema.js';
import { MAX_VARIABLES, readVariables, validateVariableNames } from '../../../core/read/variables.js';
import { libtmuxTool } from '../declare.js';

export const getTmuxVariables = libtmuxTool({
  name: 'get_tmux_variables',
  title: 'Get tmux variables',
  description:
    'Read named tmux format variables, such as version, pid, socket_path, session_name, window_index, ' +
    'pane_current_command, pane_pid, pane_tty, pane_in_mode, cursor_x, history_size (see FORMATS in man tmux). Each ' +
    'name is read on its own as #{name}; arbitrary format strings are not accepted. Give `paneId` to read pane, ' +
    'window and session variables for that pane; without it they describe whatever tmux considers current, so ' +
    'only server-wide variables are meaningful. A value is null when tmux has no such variable there, "" when it ' +
    'is defined and empty. Up to 32 names per call.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['configured-command', 'tmux-metadata'],
  inputLiteralization: { names: 'validated-variable-name' },
  input: object(
    {
      names: array(string({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', description: 'A tmux variable name, e.g. pane_current_command.' }), {
        maxItems: MAX_VARIABLES,
        description: 'Variable names to read: a letter, then letters, digits or "_" (1 to 32 names).',
      }),
      paneId: string({ description: 'Pane id (%3) or pane ref to read the variables for. Optional.' }),
    },
    ['names'],
  ),
  output: object(
    {
      values: record(nullable('string'), { description: 'Each requested name -> its value, or null when tmux does not define it.' }),
    },
    ['values'],
  ),
  async handler(args: { names: string[]; paneId?: string }, { ctx }) {
    validateVariableNames(args.names);
    const paneId = args.paneId === undefined ? undefined : await ctx.engine.resolvePaneId(args.paneId);
    return { structured: { values: await readVariables(ctx.engine, args.names, paneId) } };
  },
});
