import { object, string } from '../../../mcp/tools/schema.js';
import { checkDisplayText, setPaneTitle as setTitle } from '../../../core/arrange/naming.js';
import { libtmuxTool } from '../declare.js';

export const setPaneTitle = libtmuxTool({
  name: 'set_pane_title',
  title: 'Set pane title',
  description:
    'Set a pane\'s title (tmux #{pane_title}, shown in pane borders when pane-border-status is on) to label what ' +
    'runs there. The title is stored exactly as given (no tmux format expansion: "#" stays "#"); an empty string ' +
    'clears it; control characters are refused. A program in the pane may later replace it with its own ' +
    'title escape sequence. To name the window instead use rename_window.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { title: 'double-hash-once' },
  input: object(
    {
      paneId: string({ description: 'Pane to title: pane id (%3) or pane ref.' }),
      title: string({ description: 'New title, taken literally; empty clears it. No control characters.' }),
    },
    ['paneId', 'title'],
  ),
  output: object(
    {
      paneId: string({ description: 'Id of the pane (%N).' }),
      title: string({ description: 'The title tmux now holds for the pane.' }),
    },
    ['paneId', 'title'],
  ),
  async handler(args: { paneId: string; title: string }, { ctx }) {
    checkDisplayText(args.title, 'title', 'pane title');
    const pane = await ctx.engine.resolvePane(args.paneId);
    const now = await setTitle(ctx.engine, pane, args.title);
    return { structured: { paneId: now.id, title: now.title } };
  },
});
