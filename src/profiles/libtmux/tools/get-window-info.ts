import { array, object, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';
import { windowLinkSchema, windowLinkWire, windowSchema, windowWire } from '../records.js';

export const getWindowInfo = libtmuxTool({
  name: 'get_window_info',
  title: 'Get window info',
  description:
    'Describe one window: id, ref, name, pane count and size in cells, plus every placement of it, since one window ' +
    'can be linked into several sessions (each placement gives the session, index, whether it is that session\'s ' +
    'current window, and a session:index target). Accepts a window id (@1), window ref or window-link ref. To list ' +
    'windows use list_windows; for the panes inside use list_panes with `window`.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({ windowId: string({ description: 'Window id (@1), window ref, or window-link ref.' }) }, ['windowId']),
  output: object(
    {
      window: windowSchema,
      placements: array(windowLinkSchema, { description: 'Every session link of the window, in tmux order.' }),
    },
    ['placements', 'window'],
  ),
  async handler(args: { windowId: string }, { ctx }) {
    const { engine } = ctx;
    const window = await engine.resolveWindow(args.windowId);
    const links = (await engine.listWindows()).filter((w) => w.id === window.id);
    return { structured: { window: windowWire(engine, window), placements: links.map((link) => windowLinkWire(engine, link)) } };
  },
});
