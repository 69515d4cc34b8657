/** The input tools: typing and pasting into panes, and tmux's wait-for channels between them. */
import {
  asFailure,
  DEFAULT_CHANNEL_WAIT_MS,
  effectiveChannelTimeout,
  encodeRef,
  invalidArgument,
  MAX_CHANNEL_LENGTH,
  pasteText,
  prepareKeys,
  sendKeys,
  type SendKeysRequest,
  signalChannel,
  typedKeys,
  typedText,
  waitForChannel,
} from '../../../core/index.js';
import { describeError } from '../../../mcp/tools/results.js';
import { array, boolean, enumOf, integer, number, object, string } from '../../../mcp/tools/schema.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { TYPES_INTO, libtmuxTool } from '../declare.js';

// Keeps the echoed keys, written twice, well inside the 1 MB response limit.
const MAX_ECHO_BYTES = 400_000;

/** The arguments of one send, shared with send_keys_batch's operations. */
const SEND_KEYS_FIELDS = {
  paneId: string({ description: 'Pane to type into: id (%3) or pane ref from list_panes.' }),
  keys: array(string(), {
    description:
      'What to send, in order. A string that is exactly a tmux key name is pressed as that key: Enter, Escape, Tab, ' +
      'BSpace, Space, Up/Down/Left/Right, Home, End, PageUp, PageDown, F1-F12, or a character with C- (Ctrl), M- ' +
      '(Alt) or S- (Shift), e.g. C-c, C-d, M-x. Any other string is typed exactly as written (";", "$HOME", quotes ' +
      'and a leading "-" included); a newline inside a string presses Enter there. With literal true every string ' +
      'is typed as text, key names too.',
  }),
  literal: boolean({
    description:
      'true: type every string as text, even one that reads like a key name ("Enter" types the word). Default false: key names are pressed, other strings typed.',
  }),
  enter: boolean({ description: 'Press Enter after the keys, e.g. to run a typed command. Default false.' }),
  force: boolean({ description: 'Allow typing into the pane this MCP server itself runs in. Default false (refused).' }),
};

export const sendKeysTool = libtmuxTool({
  name: 'send_keys',
  targets: ['paneId'],
  title: 'Send keys',
  description:
    'Type text or press keys in a pane, as if at its keyboard: answer a prompt, drive a TUI, interrupt a program ' +
    '(keys ["C-c"]), run a line (keys ["make test", "Enter"] or enter true). Strings that are tmux key names are ' +
    'pressed; everything else is typed exactly: ";", "$HOME", quotes and a leading "-" arrive as written, and ' +
    'newlines become Enter presses between lines. Pass literal true to type even key names as text. Nothing is ' +
    'typed into a dead pane, a pane in copy mode (or another tmux mode), or the pane this server runs in (unless ' +
    'force). When the window has synchronize-panes on, tmux copies the input to its other panes; resolvedPaneIds ' +
    'lists every pane that received it. Returns at once, without waiting for the ' +
    'program. To get the answer, call wait_for_text next (no cursor needed: everything the pane prints after this ' +
    'input counts as new, even if it comes before the wait starts); to run a shell command and get its output and ' +
    'exit status use run_shell_command; to insert a multi-line block without running it line by line use paste_text.',
  ...TYPES_INTO,
  input: object(SEND_KEYS_FIELDS, ['keys', 'paneId']),
  typed: (args) => [typedKeys({ keys: args.keys, literal: args.literal ?? false, enter: args.enter ?? false })],
  output: object(
    {
      paneRef: string({ description: 'Opaque reference to the pane typed into, accepted wherever a pane id is.' }),
      pane: string({ description: 'The pane id typed into, like %3.' }),
      keys: array(string(), { description: 'The strings sent, in order, with "Enter" appended when enter pressed it.' }),
      resolvedPaneIds: array(string(), {
        description: 'Every pane that received the input: the pane itself first, then any panes synchronize-panes copied it to.',
      }),
    },
    ['keys', 'pane', 'paneRef', 'resolvedPaneIds'],
  ),
  async handler(args, { ctx }) {
    const { engine } = ctx;
    // The result echoes the keys (twice: structured and as text); refuse before typing what could not be answered.
    const echo = Buffer.byteLength(JSON.stringify(args.keys), 'utf8');
    if (echo > MAX_ECHO_BYTES) {
      throw invalidArgument(
        `keys are too large to send and echo back (${echo} bytes as JSON, at most ${MAX_ECHO_BYTES})`,
        'Use paste_text for large text.',
      );
    }
    const sent = await sendKeys(engine, {
      pane: args.paneId,
      keys: args.keys,
      literal: args.literal ?? false,
      enter: args.enter ?? false,
      force: args.force,
    });
    const { pane, receivers } = sent.target;
    return {
      structured: {
        paneRef: encodeRef('pane', pane.id, pane.incarnation),
        pane: pane.id,
        keys: [...sent.keys],
        resolvedPaneIds: [...receivers],
      },
    };
  },
});

/** Most operations one batch may carry. */
const MAX_OPERATIONS = 64;

interface FailedOperation {
  index: number;
  reason: string;
}

export const sendKeysBatchTool = libtmuxTool({
  name: 'send_keys_batch',
  targets: ['operations[].paneId'],
  title: 'Send keys batch',
  description:
    `Send several send_keys operations in one call, in order (at most ${MAX_OPERATIONS}), e.g. the same command to ` +
    'several panes, or a sequence of keys to a TUI. Each operation takes the same arguments as send_keys, with the ' +
    'same defaults (literal false, enter false, force false) and the same refusals. Every operation is checked ' +
    "(pane exists, keys are valid, pane is alive, not in a mode, not this server's own pane) before anything is " +
    'sent. With onError "stop" (the default) a failed check sends nothing at all, and a failure while sending ' +
    'stops the rest; with "continue" the operations that pass are sent and the others are reported. Returns how ' +
    'many operations were sent, the failures by index, and which panes each sent operation reached. The batch ' +
    'does not wait between operations: to run commands and collect output use run_shell_command.',
  ...TYPES_INTO,
  input: object(
    {
      operations: array(object(SEND_KEYS_FIELDS, ['paneId', 'keys']), {
        maxItems: MAX_OPERATIONS,
        description: `The send_keys operations, run in this order; at most ${MAX_OPERATIONS}.`,
      }),
      onError: enumOf(['stop', 'continue'], {
        description:
          '"stop" (default): if any operation fails its checks nothing is sent, and a failure while sending stops the rest. "continue": send every operation that can be sent.',
      }),
    },
    ['operations'],
  ),
  output: object(
    {
      completed: integer({ description: 'How many operations were sent.' }),
      failures: array(
        object(
          {
            index: integer({ description: 'Position of the operation in `operations`, from 0.' }),
            reason: string({ description: 'Why it was not sent (or not completely).' }),
          },
          ['index', 'reason'],
        ),
        { description: 'Operations that failed, by index; empty when all were sent.' },
      ),
      targets: array(
        object(
          {
            index: integer({ description: 'Position of the operation in `operations`, from 0.' }),
            resolvedPaneIds: array(string(), {
              description: 'Every pane this operation reached: its pane first, then panes synchronize-panes copied it to.',
            }),
          },
          ['index', 'resolvedPaneIds'],
        ),
        { description: 'The operations that were sent, by index.' },
      ),
    },
    ['completed', 'failures', 'targets'],
  ),
  // Each operation is a send_keys of its own: asked about on its own when it is its turn (--approve).
  items: (args) => args.operations.map((op) => ({ tool: 'send_keys', arguments: op })),
  async handler(args, { ctx, signal, approveItem }) {
    const { engine } = ctx;
    const stop = (args.onError ?? 'stop') === 'stop';
    const requests: SendKeysRequest[] = args.operations.map((op, index) => ({
      pane: op.paneId,
      keys: op.keys,
      literal: op.literal ?? false,
      enter: op.enter ?? false,
      force: op.force,
      fields: { pane: `operations[${index}].paneId`, keys: `operations[${index}].keys` },
    }));

    // First every operation is checked, with no effect on any pane.
    const failures: FailedOperation[] = [];
    for (const [index, request] of requests.entries()) {
      try {
        await prepareKeys(engine, request);
      } catch (error) {
        failures.push({ index, reason: reasonFor(error) });
      }
    }
    if (failures.length > 0 && stop) return { structured: { completed: 0, failures, targets: [] } };

    const skipped = new Set(failures.map((f) => f.index));
    const targets: Array<{ index: number; resolvedPaneIds: string[] }> = [];
    for (const [index, request] of requests.entries()) {
      if (skipped.has(index)) continue;
      if (signal.aborted) {
        failures.push({ index, reason: 'not sent: the call was cancelled' });
        break;
      }
      try {
        await approveItem?.(index);
        const sent = await sendKeys(engine, request);
        targets.push({ index, resolvedPaneIds: [...sent.target.receivers] });
      } catch (error) {
        failures.push({ index, reason: reasonFor(error) });
        if (stop) break;
      }
    }
    failures.sort((a, b) => a.index - b.index);
    return { structured: { completed: targets.length, failures, targets } };
  },
});

/** A failed operation's reason; anything that is not an expected failure is a bug and propagates. */
function reasonFor(error: unknown): string {
  if (asFailure(error)) return describeError(error);
  throw error;
}

export const pasteTextTool = libtmuxTool({
  name: 'paste_text',
  targets: ['paneId'],
  title: 'Paste text',
  description:
    'Paste a block of text into a pane in one piece, as a terminal paste: a script into an editor, a multi-line ' +
    'snippet into a REPL, a heredoc into a shell. When the program asked for bracketed paste (most shells and ' +
    'editors do), it receives the block as a paste and does not run lines as they arrive; otherwise newlines ' +
    'arrive as Enter. The text goes exactly as given (";", "$HOME", quotes, tabs, emoji) through a private tmux ' +
    'buffer that is deleted afterwards, so your tmux paste buffers are never touched. Set enter true to press ' +
    'Enter after the paste (e.g. to run a pasted command). Refuses a dead pane, a pane in copy mode or another ' +
    'tmux mode, and the pane this server runs in unless force. Unlike send_keys it is not copied to ' +
    'synchronized panes. For keys such as C-c use send_keys with literal false.',
  ...TYPES_INTO,
  input: object(
    {
      paneId: string({ description: 'Pane to paste into: id (%3) or pane ref from list_panes.' }),
      text: string({ description: 'The text to paste, exactly as it should arrive (at most about 1 MB). Empty pastes nothing.' }),
      enter: boolean({ description: 'Press Enter after the paste. Default false.' }),
      force: boolean({ description: 'Allow pasting into the pane this MCP server itself runs in. Default false (refused).' }),
    },
    ['paneId', 'text'],
  ),
  output: object(
    {
      paneRef: string({ description: 'Opaque reference to the pane pasted into, accepted wherever a pane id is.' }),
      pane: string({ description: 'The pane id pasted into, like %3.' }),
      characters: integer({ description: 'How many characters (Unicode code points) were pasted.' }),
    },
    ['characters', 'pane', 'paneRef'],
  ),
  typed: (args) => [typedText(args.text, args.enter)],
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const { pane, characters } = await pasteText(engine, { pane: args.paneId, text: args.text, enter: args.enter, force: args.force });
    return { structured: { paneRef: encodeRef('pane', pane.id, pane.incarnation), pane: pane.id, characters } };
  },
});

export const waitForChannelTool = libtmuxTool({
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
  async handler(args, { ctx, signal, progress }) {
    const { engine } = ctx;
    const totalMs = effectiveChannelTimeout(engine, args.timeoutMs);
    const result = await withProgress(
      progress,
      totalMs,
      (elapsed) => `waiting on channel ${args.channel} (${Math.round(elapsed)} of ${totalMs / 1000} s)`,
      () => waitForChannel(engine, args.channel, { timeoutMs: args.timeoutMs, signal }),
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

export const signalChannelTool = libtmuxTool({
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
  async handler(args, { ctx }) {
    await signalChannel(ctx.engine, args.channel);
    return { structured: { channel: args.channel, signalled: true } };
  },
});
