import { enumOf, object, string } from '../../../mcp/tools/schema.js';
import { checkStartDirectory, splitPane, type SplitDirection } from '../../../core/arrange/lifecycle.js';
import { libtmuxTool } from '../declare.js';
import { paneSchema, paneWire } from '../records.js';

export const splitWindow = libtmuxTool({
  name: 'split_window',
  title: 'Split window',
  description:
    'Split a pane in two and start your default shell in the new half (no command is accepted). `direction` says ' +
    'where the new pane goes relative to the one split: below (default), above, right or left; the space is ' +
    'shared evenly. Focus stays where it was. Returns the new pane record: use its id with send_keys, ' +
    'run_shell_command or capture_pane. Fails without changing anything when the pane is too small to split. ' +
    'For a separate full-size pane, create_window.',
  toolset: 'execute',
  processReach: 'configured-process',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { startDirectory: 'double-hash-once' },
  input: object(
    {
      paneId: string({ description: 'Pane to split: id (%3) or pane ref.' }),
      direction: enumOf(['right', 'left', 'above', 'below'], { description: 'Side of the split pane where the new pane appears. Default below.' }),
      startDirectory: string({ description: 'Working directory of the new pane: an existing absolute path (~/ allowed). Default: tmux\'s default for the session.' }),
    },
    ['paneId'],
  ),
  output: paneSchema,
  async handler(args: { paneId: string; direction?: SplitDirection; startDirectory?: string }, { ctx }) {
    const { engine } = ctx;
    const startDirectory = args.startDirectory === undefined ? undefined : await checkStartDirectory(args.startDirectory);
    // split-window itself refuses a pane that does not exist: no separate lookup.
    const paneId = await engine.paneIdFrom(args.paneId);
    const created = await engine.onPane(paneId, () => splitPane(engine, paneId, args.direction ?? 'below', startDirectory));
    return { structured: paneWire(engine, created) };
  },
});
