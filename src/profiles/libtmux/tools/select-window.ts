import { integer, object, string } from '../../../mcp/tools/schema.js';
import { placementTarget, resolvePlacement, selectPlacement } from '../../../core/targets/placement.js';
import { libtmuxTool } from '../declare.js';

export const selectWindow = libtmuxTool({
  name: 'select_window',
  title: 'Select window',
  description:
    'Make a window the current window of its session: the one an attached terminal shows and the one tmux commands ' +
    'without a target act on. A window linked into several sessions (or twice into one) must be narrowed to one ' +
    'placement with `sourceSession` and/or `sourceIndex`; a window-link ref from list_windows already names its ' +
    'session. Returns the placement as session:index. To change the active pane inside a window use select_pane.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      windowId: string({ description: 'Window to select: window id (@1), window ref, or window-link ref (linkRef from list_windows).' }),
      sourceIndex: integer({ minimum: 0, description: 'Only the placement at this window index; needed when the window sits twice in one session.' }),
      sourceSession: string({ description: 'Only the placement in this session (id $0, exact name, or session ref); needed when the window is linked into several sessions.' }),
    },
    ['windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the selected window (@N).' }),
      target: string({ description: 'The selected placement as session id and window index, like $0:2.' }),
    },
    ['target', 'windowId'],
  ),
  async handler(args: { windowId: string; sourceIndex?: number; sourceSession?: string }, { ctx }) {
    const link = await resolvePlacement(ctx.engine, args.windowId, args);
    const now = await selectPlacement(ctx.engine, link);
    return { structured: { windowId: now.id, target: placementTarget(now) } };
  },
});
