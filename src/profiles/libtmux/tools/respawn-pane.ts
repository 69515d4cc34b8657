import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { checkStartDirectory, respawnPane as respawn } from '../../../core/arrange/lifecycle.js';
import { libtmuxTool } from '../declare.js';

export const respawnPane = libtmuxTool({
  name: 'respawn_pane',
  title: 'Respawn pane',
  description:
    'Start the pane\'s program again in the same pane, keeping its id and place: the usual way to revive a dead ' +
    'pane (isDead true) or to reset a stuck one. No command is accepted; the pane runs the program it was ' +
    'created with (for panes made by these tools, your default shell). A pane whose program is still running is ' +
    'refused unless killFirst is true, which ends that program (and everything it runs) first. Refuses the pane ' +
    'this MCP server runs in unless force is true; force also implies killFirst. Returns the pane id and a fresh ' +
    'ref.',
  toolset: 'execute',
  processReach: 'configured-process',
  tmuxEffects: ['change', 'delete', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { startDirectory: 'double-hash-once' },
  input: object(
    {
      paneId: string({ description: 'Pane to respawn: id (%3) or pane ref.' }),
      killFirst: boolean({ description: 'End the program still running in the pane before starting again. Default false: a live pane is refused.' }),
      startDirectory: string({ description: 'Working directory for the new program: an existing absolute path (~/ allowed). Default: the pane\'s original start directory.' }),
      force: boolean({ description: 'Allow respawning the pane this MCP server runs in (and kill its program). Default false.' }),
    },
    ['paneId'],
  ),
  output: object(
    {
      pane: string({ description: 'The pane id, unchanged by the respawn.' }),
      paneRef: string({ description: 'Opaque pane reference, accepted wherever a pane id is.' }),
    },
    ['pane', 'paneRef'],
  ),
  async handler(args: { paneId: string; killFirst?: boolean; startDirectory?: string; force?: boolean }, { ctx }) {
    const { engine } = ctx;
    const startDirectory = args.startDirectory === undefined ? undefined : await checkStartDirectory(args.startDirectory);
    // respawn-pane itself refuses a pane that does not exist: no separate lookup.
    const target = await engine.paneIdFrom(args.paneId);
    const pane = await engine.onPane(target, () => respawn(engine, target, { killFirst: args.killFirst, force: args.force, startDirectory }));
    return { structured: { pane: pane.id, paneRef: engine.ref('pane', pane.id, pane.incarnation) } };
  },
});
