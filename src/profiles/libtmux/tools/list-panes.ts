import { array, object, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';
import { invalidArgument } from '../../../core/failure.js';
import { quoted } from '../../../core/quote.js';
import { paneSchema, paneWire } from '../records.js';

export const listPanes = libtmuxTool({
  name: 'list_panes',
  title: 'List panes',
  description:
    'List panes with their ids, refs, size, position flags, foreground command, working directory and state ' +
    '(dead, in a mode, synchronized). Without arguments it lists every pane on the server; give `window` to list one ' +
    'window, or `session` for all panes of one session (given both, the window must be one of that session\'s). Use a pane `id` or `ref` ' +
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
    // Every target given is checked: a window outside the given session is an error, not a silent pick.
    const session = args.session !== undefined ? await engine.resolveSession(args.session) : undefined;
    const window = args.window !== undefined ? await engine.resolveWindow(args.window, 'window') : undefined;
    if (session && window && !(await engine.listWindows(session.id)).some((w) => w.id === window.id)) {
      throw invalidArgument(`window ${window.id} is not in session ${session.id} (${quoted(session.name)})`, 'Give one of them, or a window of that session (list_windows).');
    }
    const scope = window ? { windowId: window.id } : session ? { sessionId: session.id } : {};
    const panes = await engine.listPanes(scope);
    return { structured: { panes: panes.map((p) => paneWire(engine, p)) } };
  },
});
