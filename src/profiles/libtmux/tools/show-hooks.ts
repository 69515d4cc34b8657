import { array, integer, object, string } from '../../../mcp/tools/schema.js';
import { showHooks } from '../../../core/settings/hooks.js';
import { libtmuxTool } from '../declare.js';

export const showHooksTool = libtmuxTool({
  name: 'show_hooks',
  title: 'Show hooks',
  description:
    'List the tmux hooks that are set: commands tmux runs on events such as after-new-window, pane-died or ' +
    'session-created. Without `session`, the global hooks (session and window/pane events); with it, the hooks ' +
    'set on that session only. Each row is one command of a hook (a hook can hold several, by index). Hooks with ' +
    'nothing set are left out, so an empty list means none are set.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['configured-command'],
  input: object({ session: string({ description: 'Session id ($0), exact session name, or session ref. Optional: default is the global hooks.' }) }),
  output: object(
    {
      hooks: array(
        object(
          {
            name: string({ description: 'Hook name, e.g. after-new-window.' }),
            index: integer({ description: 'Position of this command in the hook (0 first).' }),
            command: string({ description: 'The tmux command run, as tmux prints it.' }),
          },
          ['command', 'index', 'name'],
        ),
        { description: 'Set hooks, in tmux order.' },
      ),
    },
    ['hooks'],
  ),
  async handler(args: { session?: string }, { ctx }) {
    const sessionId = args.session === undefined ? undefined : (await ctx.engine.resolveSession(args.session)).id;
    return { structured: { hooks: await showHooks(ctx.engine, sessionId) } };
  },
});
