import { integer, object, string } from '../../../mcp/tools/schema.js';
import { movePlacement, placementTarget, resolvePlacement } from '../../../core/targets/placement.js';
import { libtmuxTool } from '../declare.js';

export const moveWindow = libtmuxTool({
  name: 'move_window',
  title: 'Move window',
  description:
    'Move a window to another index in its session, or into another session. `session` is the destination ' +
    '(default: the session it is in now) and `index` the destination index (default: the first free index there). ' +
    'A taken index is refused rather than overwritten, and so is moving the last window out of a session (tmux ' +
    'would end that session). The move does not change which window is current in either session (use ' +
    'select_window for that). Its panes and their programs are untouched; the window id stays, and the result ' +
    'gives the new session:index. A window linked into several sessions (or twice into one) must be narrowed to ' +
    'the placement to move with `sourceSession` and/or `sourceIndex`.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      windowId: string({ description: 'Window to move: window id (@1), window ref, or window-link ref (linkRef from list_windows).' }),
      index: integer({ minimum: 0, description: 'Destination window index; must be free. Default: the first free index in the destination session.' }),
      session: string({ description: 'Destination session: id ($0), exact name, or session ref. Default: the session the window is in.' }),
      sourceIndex: integer({ minimum: 0, description: 'Move the placement at this index; needed when the window sits twice in one session.' }),
      sourceSession: string({ description: 'Move the placement in this session (id, exact name, or session ref); needed when the window is linked into several sessions.' }),
    },
    ['windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the moved window (@N); unchanged by the move.' }),
      target: string({ description: 'Where the window is now, as session id and window index, like $1:3.' }),
    },
    ['target', 'windowId'],
  ),
  async handler(args: { windowId: string; index?: number; session?: string; sourceIndex?: number; sourceSession?: string }, { ctx }) {
    const { engine } = ctx;
    const link = await resolvePlacement(engine, args.windowId, args);
    const destination = await engine.resolveSession(args.session ?? link.sessionId);
    const moved = await movePlacement(engine, link, destination, args.index);
    return { structured: { windowId: moved.id, target: placementTarget(moved) } };
  },
});
