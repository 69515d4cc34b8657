import { object, string } from '../../../mcp/tools/schema.js';
import { checkWindowName, renameWindow as rename } from '../../../core/arrange/naming.js';
import { libtmuxTool } from '../declare.js';

export const renameWindow = libtmuxTool({
  name: 'rename_window',
  title: 'Rename window',
  description:
    'Give a window a new name, shown in the status line and in list_windows. The name is stored exactly as given ' +
    '(no tmux format expansion: "#" stays "#"). It must be non-empty and must not contain control characters, ' +
    'backslashes, or "$" before a letter, "_" or "{" (tmux would store those escaped). tmux turns off automatic ' +
    'renaming for the window, so the name stays when its program changes. A window linked into several sessions ' +
    'has one name everywhere. To rename a session use rename_session; to label a pane use set_pane_title.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { name: 'double-hash-once' },
  input: object(
    {
      windowId: string({ description: 'Window to rename: window id (@1), window ref, or window-link ref.' }),
      name: string({ description: 'New window name, taken literally. Not empty; no "\\", "$VAR" or control characters.' }),
    },
    ['name', 'windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the renamed window (@N).' }),
      name: string({ description: 'The name tmux now holds for the window.' }),
    },
    ['name', 'windowId'],
  ),
  async handler(args: { windowId: string; name: string }, { ctx }) {
    checkWindowName(args.name);
    const window = await ctx.engine.resolveWindow(args.windowId);
    const now = await rename(ctx.engine, window, args.name);
    return { structured: { windowId: now.id, name: now.name } };
  },
});
