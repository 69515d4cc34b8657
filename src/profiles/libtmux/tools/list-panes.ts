import { array, object, string } from '../../../mcp/schema.js';
import { libtmuxTool } from '../declare.js';
import { paneSchema, paneWire } from '../records.js';

export const listPanes = libtmuxTool({
  name: 'list_panes',
  title: 'List panes',
  description:
    'List panes with their ids, refs, size, position flags, foreground command, working directory and state ' +
    '(dead, in a mode, synchronized). Without arguments it lists every pane on the server; give `window` to list one ' +
    'window, or `session` for all panes of one session (`window` wins when both are given). Use a pane `id` or `ref` ' +
    'with capture_pane, send_keys, run_shell_command and wait_for_text.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({
    session: string({ description: 'Session id ($0), exact session name, or session ref. Optional.' }),
    window: string({ description: 'Window id (@1) or window ref. Optional.' }),
  }),
  output: object({ panes: array(paneSchema, { description: 'Panes, by session, window and pane index.' }) }, ['panes']),
  async handler(args: { session?: string; window?: string }, { ctx }) {
    const { engine } = ctx;
    const scope =
      args.window !== undefined
        ? { windowId: (await engine.resolveWindow(args.window, 'window')).id }
        : args.session !== undefined
          ? { sessionId: (await engine.resolveSession(args.session)).id }
          : {};
    const panes = await engine.listPanes(scope);
    return { structured: { panes: panes.map((p) => paneWire(engine, p)) } };
  },
});
