import { integer, number, object, string, boolean } from '../../../mcp/tools/schema.js';
import { DEFAULT_CHANNEL_WAIT_MS, effectiveChannelTimeout, MAX_CHANNEL_LENGTH, waitForChannel as wait } from '../../../core/watch/channels.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { libtmuxTool } from '../declare.js';

export const waitForChannel = libtmuxTool({
  name: 'wait_for_channel',
  title: 'Wait for channel',
  description:
    'Block until a tmux wait-for channel is signalled: the exact, race-free way to wait for something you started ' +
    'in a pane. Type a command that signals when it ends, e.g. send_keys keys ["make test; tmux wait-for -S tests_done"] ' +
    'with enter true, then call wait_for_channel with channel "tests_done" (";" signals whether the command ' +
    'succeeded or failed; use && to signal only on success). A signal sent before the wait starts is remembered ' +
    'once, so a fast command is not missed. released is true when signalled, false when timeoutMs passed ' +
    `(default ${DEFAULT_CHANNEL_WAIT_MS} ms, capped by the server's wait ceiling; effectiveTimeout says what ` +
    'applied, in seconds). Fails if the tmux server stops during the wait. Cancelling the call ends the wait. ' +
    'To signal a channel yourself use signal_channel; to wait for text you did not arrange a signal for use ' +
    'wait_for_text.',
  toolset: 'manage',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      channel: string({
        maxLength: MAX_CHANNEL_LENGTH,
        description: 'Channel name: letters, digits and _ . : - (not starting with -), e.g. build_done.',
      }),
      timeoutMs: integer({
        minimum: 100,
        maximum: 600000,
        description: `Longest wait in milliseconds. Default ${DEFAULT_CHANNEL_WAIT_MS}; the server's ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS, default 120 s) may lower it.`,
      }),
    },
    ['channel'],
  ),
  output: object(
    {
      channel: string({ description: 'The channel waited on.' }),
      released: boolean({ description: 'true: the channel was signalled. false: the timeout passed first.' }),
      seconds: number({ description: 'How long the wait took, in seconds.' }),
      effectiveTimeout: number({ description: 'The timeout that applied, in seconds, after the server ceiling.' }),
    },
    ['channel', 'effectiveTimeout', 'released', 'seconds'],
  ),
  async handler(args: { channel: string; timeoutMs?: number }, { ctx, signal, progress }) {
    const { engine } = ctx;
    const totalMs = effectiveChannelTimeout(engine, args.timeoutMs);
    const result = await withProgress(
      progress,
      totalMs,
      (elapsed) => `waiting on channel ${args.channel} (${Math.round(elapsed)} of ${totalMs / 1000} s)`,
      () => wait(engine, args.channel, { timeoutMs: args.timeoutMs, signal }),
    );
    return {
      structured: {
        channel: result.channel,
        released: result.released,
        seconds: result.seconds,
        effectiveTimeout: result.effectiveTimeoutMs / 1000,
      },
    };
  },
});
