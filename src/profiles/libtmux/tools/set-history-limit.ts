import { integer, object } from '../../../mcp/tools/schema.js';
import { MAX_HISTORY_LIMIT, setHistoryLimit as setLimit } from '../../../core/settings/settings.js';
import { libtmuxTool } from '../declare.js';

export const setHistoryLimit = libtmuxTool({
  name: 'set_history_limit',
  title: 'Set history limit',
  description:
    'Set how many lines of scrollback tmux keeps per pane (the global history-limit option; tmux\'s own default ' +
    'is 2000). It applies to panes created from now on (new sessions, windows and splits); existing panes keep ' +
    'the limit they were created with, and a session that sets its own history-limit keeps that. Raise it before ' +
    'starting a command whose long output you want to read back with capture_pane. Costs memory per pane.',
  toolset: 'manage',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  input: object(
    { lines: integer({ minimum: 0, maximum: MAX_HISTORY_LIMIT, description: 'Lines of scrollback per new pane, 0 (none) to 2,000,000.' }) },
    ['lines'],
  ),
  output: object({ lines: integer({ description: 'The global history-limit tmux now holds.' }) }, ['lines']),
  async handler(args: { lines: number }, { ctx }) {
    return { structured: { lines: await setLimit(ctx.engine, args.lines) } };
  },
});
