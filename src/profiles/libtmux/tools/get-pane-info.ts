import { object, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';
import { paneSchema, paneWire } from '../records.js';

export const getPaneInfo = libtmuxTool({
  name: 'get_pane_info',
  title: 'Get pane info',
  description:
    'Describe one pane: id, ref, index, size, which window edges it touches, foreground command, working ' +
    'directory and state (dead, in copy mode or another mode, synchronized). Accepts a pane id (%3) or pane ref. ' +
    'Use it to check a pane before typing into it; to read its text use capture_pane, or snapshot_pane for both.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['tmux-metadata'],
  input: object({ paneId: string({ description: 'Pane id (%3) or pane ref.' }) }, ['paneId']),
  output: object({ pane: paneSchema }, ['pane']),
  async handler(args: { paneId: string }, { ctx }) {
    const pane = await ctx.engine.resolvePane(args.paneId);
    return { structured: { pane: paneWire(ctx.engine, pane) } };
  },
});
