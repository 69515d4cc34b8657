import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { setSynchronizePanes as setSync } from '../../../core/arrange/lifecycle.js';
import { libtmuxTool } from '../declare.js';

export const setSynchronizePanes = libtmuxTool({
  name: 'set_synchronize_panes',
  title: 'Set synchronize panes',
  description:
    'Turn tmux\'s synchronize-panes on or off for one window. While on, keys sent to any pane of the window ' +
    '(by send_keys, paste_text, run_shell_command or a person typing) go to every pane of that window, so one ' +
    'command runs in all of them; list_panes shows isSynchronized. Turn it off again when done, or later input ' +
    'meant for one pane will reach all.',
  toolset: 'execute',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  amplifiesFutureInput: true,
  input: object(
    {
      windowId: string({ description: 'Window id (@1) or window ref.' }),
      enabled: boolean({ description: 'true to broadcast input to all panes of the window, false to stop.' }),
    },
    ['enabled', 'windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'The window changed.' }),
      enabled: boolean({ description: 'The setting now in force.' }),
    },
    ['enabled', 'windowId'],
  ),
  async handler(args: { windowId: string; enabled: boolean }, { ctx }) {
    const window = await ctx.engine.resolveWindow(args.windowId);
    await setSync(ctx.engine, window.id, args.enabled);
    return { structured: { windowId: window.id, enabled: args.enabled } };
  },
});
