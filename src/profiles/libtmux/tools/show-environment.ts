import { nullable, object, record, string } from '../../../mcp/tools/schema.js';
import { showEnvironment } from '../../../core/settings/environment.js';
import { libtmuxTool } from '../declare.js';

export const showEnvironmentTool = libtmuxTool({
  name: 'show_environment',
  title: 'Show environment',
  description:
    'Read tmux\'s environment table: the global one (what new panes start with) or, given `session`, that session\'s ' +
    'own entries, which override the global ones for panes created in it. A null value means the variable is ' +
    'marked to be removed from new panes\' environment. This is not the environment of processes already running ' +
    'in a pane (run `env` there for that). Values may hold secrets; read only what you need.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['process-environment'],
  input: object({ session: string({ description: 'Session id ($0), exact session name, or session ref. Optional: default is the global table.' }) }),
  output: object(
    { environment: record(nullable('string'), { description: 'Variable name -> value, or null when marked for removal; sorted by name.' }) },
    ['environment'],
  ),
  async handler(args: { session?: string }, { ctx }) {
    const sessionId = args.session === undefined ? undefined : (await ctx.engine.resolveSession(args.session)).id;
    return { structured: { environment: await showEnvironment(ctx.engine, sessionId) } };
  },
});
