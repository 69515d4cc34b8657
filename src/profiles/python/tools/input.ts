/**
 * The input tools: typing and pasting into panes (keys, text, private paste buffers), piping a
 * pane's output to a file, and tmux's wait-for channels between commands.
 */
import {
  asFailure,
  deleteBuffer,
  EngineRegistry,
  Failure,
  invalidArgument,
  loadBuffer,
  onPane,
  pasteBuffer,
  pasteText,
  sendKeys,
  type SendKeysRequest,
  showBuffer,
  signalChannel,
  startPipe,
  stopPipe,
  typedKeys,
  typedText,
  waitForChannel,
} from '../../../core/index.js';
import { describeError } from '../../../mcp/tools/results.js';
import type { Static } from '../../../mcp/tools/schema.js';
import { withProgress } from '../../../mcp/tools/tool.js';
import { modelResult, pythonTool, textResult } from '../declare.js';
import {
  choice,
  defaulted,
  field,
  item,
  listOf,
  model,
  optional,
  PANE_TARGET,
  params,
  positiveTimeout,
  SOCKET_NAME,
  TARGETING_NOTE,
  WRAPPED_TEXT,
} from '../schema.js';
import { checkTarget, targetedPaneId } from '../targets.js';
import { DEFAULT_MAX_LINES } from './inspect.js';

const KEYS_FIELDS = {
  keys: field(
    'string',
    'What to send. With literal false (default), a tmux key name such as "C-c", "Enter", "Escape" or "Up" is pressed as that key, and any other text is typed exactly as given. With literal true it is always typed as text.',
  ),
  enter: defaulted('boolean', true, 'Press Enter after the keys. Default true: pass false for control keys (C-c) and partial input.'),
  literal: defaulted('boolean', false, 'Type keys as plain text even when it looks like a key name. Default false.'),
  suppress_history: defaulted(
    'boolean',
    false,
    'Prepend a space so shells that ignore space-prefixed commands (bash with HISTCONTROL=ignorespace, zsh HIST_IGNORE_SPACE, fish) keep the line out of history. Default false.',
  ),
};

/** One operation of send_keys_batch: send_keys's fields and target. */
const KEYS_OPERATION = item({ ...KEYS_FIELDS, ...PANE_TARGET }, ['keys'], 'One send_keys operation.');
type KeysArgs = Static<typeof KEYS_OPERATION>;

/**
 * One keys operation as core's request for `paneId` (resolved). Core's input check reports a
 * missing, dead or busy pane, so no wrapper is needed around the send.
 */
function keysRequest(paneId: string, op: KeysArgs, fields?: SendKeysRequest['fields']): SendKeysRequest {
  const text = op.suppress_history && op.keys !== '' ? ` ${op.keys}` : op.keys;
  return { pane: paneId, keys: text === '' ? [] : [text], literal: op.literal ?? false, enter: op.enter ?? true, fields };
}

export const sendKeysTool = pythonTool({
  name: 'send_keys',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Send Keys',
  description:
    'Type into a pane, or press keys in it: for interactive programs (REPLs, editors, prompts) and for control keys ' +
    '("C-c" with enter false to interrupt). Enter is pressed afterwards unless enter is false. It returns at once; to ' +
    'see the effect wait with wait_for_text (or capture_since) instead of sleeping. To run a shell command and get its ' +
    'output and exit status, run_command does it in one call. Text never reaches tmux as flags or command separators ' +
    `(a leading "-" or a trailing ";" arrive as typed). Refused for the pane this server runs in, a dead pane or one in copy mode. ${TARGETING_NOTE}`,
  toolset: 'execute',
  input: params({ ...KEYS_FIELDS, ...PANE_TARGET, socket_name: SOCKET_NAME }, ['keys']),
  output: WRAPPED_TEXT,
  typed: (args) => [typedKeys(keysRequest('', args))],
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    await sendKeys(engine, keysRequest(paneId, args));
    return textResult(`Keys sent to pane ${paneId}`);
  },
});

export const sendKeysBatchTool = pythonTool({
  name: 'send_keys_batch',
  targets: ['operations[].pane_id', 'operations[].session_id', 'operations[].session_name', 'operations[].window_id'],
  title: 'Send Keys Batch',
  description:
    'Send several send_keys operations in one call, in order: the same command to several panes, or a sequence of keys ' +
    "to a TUI. Each operation has send_keys's fields and defaults (enter true, literal false) and its own target. " +
    'on_error "stop" (default) stops at the first failure and reports its index in stopped_at; "continue" attempts every ' +
    'operation. timeout (seconds) bounds the whole batch: operations not started in time fail with a timeout error. Each ' +
    'result row says which pane it reached and how long it took. The batch does not wait between operations or for output: ' +
    'for commands whose output and exit status you need use run_command, and to watch results use capture_since.',
  toolset: 'execute',
  input: params(
    {
      operations: listOf(KEYS_OPERATION, 'The operations, run in this order.'),
      on_error: choice(['stop', 'continue'], '"stop" (default): stop at the first failed operation. "continue": attempt every operation.', {
        fallback: 'stop',
      }),
      timeout: optional('number', 'Seconds the whole batch may take; operations not started by then fail. Default: no limit.'),
      socket_name: SOCKET_NAME,
    },
    ['operations'],
  ),
  output: model(
    {
      failed: field('integer', 'Operations that failed.'),
      results: {
        description: 'One row per attempted operation, in order.',
        items: model(
          {
            elapsed_seconds: field('number', 'Seconds this operation took.'),
            error: optional('string', 'Why it failed, with what to do; null when it succeeded.'),
            index: field('integer', 'Position of the operation in `operations`, from 0.'),
            pane_id: optional('string', 'The pane it was sent to; null when its target could not be resolved.'),
            success: field('boolean', 'True when it was sent.'),
          },
          ['index', 'success', 'elapsed_seconds'],
        ),
        type: 'array',
      },
      stopped_at: optional(
        'integer',
        'Index of the failed operation that stopped the batch (on_error "stop"); null when every operation was attempted.',
      ),
      succeeded: field('integer', 'Operations sent.'),
    },
    ['succeeded', 'failed'],
  ),
  // Each operation is a send_keys of its own: asked about on its own when it is its turn (--approve).
  items: (args) => args.operations.map((op) => ({ tool: 'send_keys', arguments: op })),
  async handler(args, { engine, signal, approveItem }) {
    if (args.operations.length === 0) throw invalidArgument('operations must not be empty');
    if (args.timeout != null) positiveTimeout(args.timeout);
    args.operations.forEach((op) => checkTarget(op));
    const stop = (args.on_error ?? 'stop') === 'stop';
    const deadline = args.timeout != null ? performance.now() + args.timeout * 1000 : Infinity;
    const results: Array<{ index: number; pane_id: string | null; success: boolean; error: string | null; elapsed_seconds: number }> = [];
    let stoppedAt: number | null = null;
    for (const [index, op] of args.operations.entries()) {
      if (performance.now() > deadline || signal.aborted) {
        const error = signal.aborted ? 'the batch was cancelled' : `batch execution exceeded timeout of ${args.timeout}s`;
        results.push({ index, pane_id: null, success: false, error, elapsed_seconds: 0 });
        if (stop) {
          stoppedAt = index;
          break;
        }
        continue;
      }
      const started = performance.now();
      let paneId: string | null = null;
      try {
        await approveItem?.(index);
        paneId = await targetedPaneId(engine, op);
        await sendKeys(engine, keysRequest(paneId, op, { pane: `operations[${index}].pane_id`, keys: `operations[${index}].keys` }));
        results.push({ index, pane_id: paneId, success: true, error: null, elapsed_seconds: seconds(started) });
      } catch (error) {
        if (!asFailure(error)) throw error;
        results.push({ index, pane_id: paneId, success: false, error: describeError(error), elapsed_seconds: seconds(started) });
        if (stop) {
          stoppedAt = index;
          break;
        }
      }
    }
    const succeeded = results.filter((r) => r.success).length;
    return modelResult({ results, succeeded, failed: results.length - succeeded, stopped_at: stoppedAt });
  },
});

function seconds(since: number): number {
  return Math.round(performance.now() - since) / 1000;
}

export const pasteTextTool = pythonTool({
  name: 'paste_text',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Paste Text',
  description:
    'Paste text into a pane as one block, the way a terminal pastes: multi-line text arrives whole, and a program that ' +
    'asked for bracketed paste (bash, zsh, most editors) inserts it without running each line. Goes through a private ' +
    'tmux buffer that is deleted afterwards, so your own paste buffers are untouched. Nothing is pressed after it: send ' +
    `Enter with send_keys to run pasted commands. ${TARGETING_NOTE}`,
  toolset: 'execute',
  input: params(
    {
      text: field('string', 'The text to paste, newlines included.'),
      ...PANE_TARGET,
      bracket: defaulted('boolean', true, 'Use bracketed paste when the program asked for it. Default true.'),
      socket_name: SOCKET_NAME,
    },
    ['text'],
  ),
  output: WRAPPED_TEXT,
  typed: (args) => [typedText(args.text)],
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    await onPane(engine, paneId, () =>
      pasteText(engine, { pane: paneId, text: args.text, bracket: args.bracket ?? true, field: 'pane_id' }),
    );
    return textResult(`Text pasted to pane ${paneId}`);
  },
});

const BUFFER_NAME = field('string', 'The buffer_name load_buffer returned (libtmux_mcp_<32 hex>_<logical>).');

export const loadBufferTool = pythonTool({
  name: 'load_buffer',
  title: 'Load tmux Buffer',
  description:
    'Store text in a new private tmux paste buffer, to paste it (paste_buffer) into one or more panes later, or keep it ' +
    'across calls. Returns buffer_name, the handle for the other buffer tools. logical_name (letters, digits, _ . -; ' +
    'default "buf") is only a label inside the name: every call makes a new buffer. For a one-off paste use paste_text.',
  toolset: 'manage',
  input: params(
    {
      content: field('string', 'The text to store (at most 1,000,000 bytes).'),
      logical_name: optional('string', 'A label for the buffer: 1 to 64 letters, digits, "_", "." or "-". Default "buf".'),
      socket_name: SOCKET_NAME,
    },
    ['content'],
  ),
  output: model(
    {
      buffer_name: field('string', 'The full tmux buffer name: pass it to paste_buffer, show_buffer, delete_buffer.'),
      logical_name: optional('string', 'The label given (or "buf").'),
    },
    ['buffer_name'],
  ),
  async handler(args, { engine }) {
    const info = await loadBuffer(engine, args.content, args.logical_name);
    return modelResult({ buffer_name: info.name, logical_name: info.logicalName });
  },
});

export const pasteBufferTool = pythonTool({
  name: 'paste_buffer',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Paste tmux Buffer',
  description:
    'Paste a buffer made by load_buffer into a pane; the buffer stays, so it can be pasted again elsewhere. bracket ' +
    '(default true) uses bracketed paste when the program asked for it, so a shell inserts multi-line text without running ' +
    `each line. Nothing is pressed after it. Refused for this server's own pane, a dead pane or one in copy mode. ${TARGETING_NOTE}`,
  toolset: 'execute',
  input: params(
    {
      buffer_name: BUFFER_NAME,
      ...PANE_TARGET,
      bracket: defaulted('boolean', true, 'Use bracketed paste when the program asked for it. Default true.'),
      socket_name: SOCKET_NAME,
    },
    ['buffer_name'],
  ),
  output: WRAPPED_TEXT,
  // What is pasted is the buffer's content: read from tmux, so loading it first does not walk around a text rule.
  typed: (args, ctx) =>
    ctx.registry.use(EngineRegistry.named(args.socket_name), async (engine) => [
      typedText((await showBuffer(engine, args.buffer_name, { maxLines: null })).content),
    ]),
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    await onPane(engine, paneId, () =>
      pasteBuffer(engine, { pane: paneId, name: args.buffer_name, bracket: args.bracket ?? true, field: 'pane_id' }),
    );
    return textResult(`Buffer ${args.buffer_name} pasted to pane ${paneId}`);
  },
});

export const showBufferTool = pythonTool({
  name: 'show_buffer',
  title: 'Show tmux Buffer',
  description:
    'Read back a buffer made by load_buffer, exactly (a final newline kept). Long buffers keep their newest max_lines ' +
    `lines (default ${DEFAULT_MAX_LINES}; null: all), with content_truncated / content_truncated_lines saying what was dropped.`,
  toolset: 'inspect',
  input: params(
    {
      buffer_name: BUFFER_NAME,
      max_lines: optional('integer', `Most lines returned, newest kept. Default ${DEFAULT_MAX_LINES}; null: all.`, DEFAULT_MAX_LINES),
      socket_name: SOCKET_NAME,
    },
    ['buffer_name'],
  ),
  async handler(args, { engine }) {
    const shown = await showBuffer(engine, args.buffer_name, {
      maxLines: args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines,
    });
    return modelResult({
      buffer_name: shown.name,
      content: shown.content,
      content_truncated: shown.droppedLines > 0,
      content_truncated_lines: shown.droppedLines,
    });
  },
});

export const deleteBufferTool = pythonTool({
  name: 'delete_buffer',
  title: 'Delete tmux Buffer',
  description: 'Delete a buffer made by load_buffer once it is no longer needed (buffers otherwise stay until the tmux server exits).',
  toolset: 'teardown',
  input: params({ buffer_name: BUFFER_NAME, socket_name: SOCKET_NAME }, ['buffer_name']),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    await deleteBuffer(engine, args.buffer_name);
    return textResult(`Buffer deleted: ${args.buffer_name}`);
  },
});

export const pipePaneTool = pythonTool({
  name: 'pipe_pane',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Pipe Pane',
  description:
    'Copy everything a pane prints from now on into a file (raw terminal output, escape sequences included), e.g. to ' +
    'keep a full log of a long build; output_path null stops it. The path must be absolute; it reaches the shell tmux ' +
    'runs as one quoted word whatever it contains. append (default true) adds to the file; false empties it first. A pane ' +
    'has one pipe: starting one replaces the previous (including one the user set up). To read output, capture_pane or ' +
    `capture_since is usually enough. ${TARGETING_NOTE}`,
  toolset: 'execute',
  input: params({
    ...PANE_TARGET,
    output_path: optional('string', 'Absolute path of the file to write; created if missing. null (default): stop piping.'),
    append: defaulted('boolean', true, 'Append to the file (default true); false truncates it first.'),
    socket_name: SOCKET_NAME,
  }),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    if (args.output_path == null) {
      await stopPipe(engine, paneId);
      return textResult(`Piping stopped for pane ${paneId}`);
    }
    await startPipe(engine, paneId, args.output_path, { append: args.append ?? true, field: 'output_path' });
    return textResult(`Piping pane ${paneId} to ${args.output_path}`);
  },
});

const CHANNEL = field('string', 'Channel name: letters, digits and _ . : - (like "build_done").');

export const waitForChannelTool = pythonTool({
  name: 'wait_for_channel',
  title: 'Wait For tmux Channel',
  description:
    'Block until a tmux wait-for channel is signalled: the deterministic way to wait for a command you start yourself. ' +
    'Type the command followed by `; tmux wait-for -S NAME` with send_keys (the ";" signals on failure too), then wait ' +
    'here on NAME. A signal sent before the wait starts is remembered once, so the order cannot race. timeout is in ' +
    'seconds (default 30, held to the server ceiling); a timeout or a tmux server that went away is an error. For a plain ' +
    'shell command run_command is simpler.',
  toolset: 'manage',
  selfBounded: true,
  input: params(
    {
      channel: CHANNEL,
      timeout: defaulted('number', 30, 'Seconds to wait (default 30); the server ceiling may lower it.'),
      socket_name: SOCKET_NAME,
    },
    ['channel'],
  ),
  output: WRAPPED_TEXT,
  async handler(args, { engine, signal, progress }) {
    const timeout = positiveTimeout(args.timeout ?? 30);
    const timeoutMs = engine.capWait(timeout * 1000);
    const wait = await withProgress(
      progress,
      timeoutMs,
      (elapsed) => `Waiting on channel ${args.channel}: ${elapsed}s elapsed`,
      () => waitForChannel(engine, args.channel, { timeoutMs, signal }),
    );
    if (!wait.released) {
      throw new Failure(
        'timeout',
        `wait-for timeout: channel '${args.channel}' was not signalled within ${timeoutMs / 1000}s`,
        'Check that the command signalling it ran (capture_pane), or wait again.',
      );
    }
    return textResult(`Channel '${args.channel}' was signalled (timeout ${timeoutMs / 1000}s)`);
  },
});

export const signalChannelTool = pythonTool({
  name: 'signal_channel',
  title: 'Signal tmux Channel',
  description:
    'Signal a tmux wait-for channel, releasing every wait_for_channel (and `tmux wait-for NAME`) blocked on it. With ' +
    'nobody waiting, tmux remembers the signal once, so the next wait returns at once.',
  toolset: 'manage',
  input: params({ channel: CHANNEL, socket_name: SOCKET_NAME }, ['channel']),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    await signalChannel(engine, args.channel);
    return textResult(`Channel '${args.channel}' signalled`);
  },
});
