import { boolean, object, string } from '../../../mcp/tools/schema.js';
import { signalChannel as signal } from '../../../core/watch/channels.js';
import { libtmuxTool } from '../declare.js';

export const signalChannel = libtmuxTool({
  name: 'signal_channel',
  title: 'Signal channel',
  description:
    'Signal a tmux wait-for channel (tmux wait-for -S), releasing every wait_for_channel call and every ' +
    '`tmux wait-for <channel>` in a pane that waits on it. With nobody waiting, tmux remembers the signal once and ' +
    'the next wait returns at once. Use it to release a script in a pane that paused on `tmux wait-for go`, or to ' +
    'coordinate with another agent. Channel names: letters, digits and _ . : - (not starting with -).',
  toolset: 'manage',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  input: object({ channel: string({ description: 'Channel name, e.g. go or build_done.' }) }, ['channel']),
  output: object(
    {
      channel: string({ description: 'The channel signalled.' }),
      signalled: boolean({ description: 'Always true: tmux accepted the signal.' }),
    },
    ['channel', 'signalled'],
  ),
  async handler(args: { channel: string }, { ctx }) {
    await signal(ctx.engine, args.channel);
    return { structured: { channel: args.channel, signalled: true } };
  },
});
