import { array, object, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';
import { windowOccurrenceSchema, windowOccurrenceWire } from '../records.js';

export const listWindows = libtmuxTool({
  name: 'list_windows',
  title: 'List windows',
  description:
    'List windows with their ids, refs, names, pane counts and sizes, one row per placement: a window linked into ' +
    'two sessions appears twice, with a shared `windowRef` and a distinct `linkRef`, `sessionID`, `index` and ' +
    '`target` (session:index). Without `session` it lists every session\'s windows. Use `windowRef`/`id` with ' +
    'window tools and list_panes; get_window_info describes one window.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({ session: string({ description: 'Session id ($0), exact session name, or session ref. Optional: default is every session.' }) }),
  output: object({ windows: array(windowOccurrenceSchema, { description: 'Window placements, by session and index.' }) }, ['windows']),
  async handler(args: { session?: string }, { ctx }) {
    const { engine } = ctx;
    const sessionId = args.session === undefined ? undefined : (await engine.resolveSession(args.session)).id;
    const windows = await engine.listWindows(sessionId);
    return { structured: { windows: windows.map((w) => windowOccurrenceWire(engine, w)) } };
  },
});
