/**
 * tmux paste buffers, private to this server: load text into a new buffer, paste it into panes,
 * read it back, delete it. Names are `libtmux_mcp_<32 hex>_<logical>`; the user's own buffers (which
 * may hold clipboard history) can be neither listed nor touched.
 */
import { deleteBuffer, loadBuffer, pasteBuffer, showBuffer } from '../../../core/act/buffers.js';
import { modelResult, pythonTool, textResult } from '../declare.js';
import { defaulted, field, model, optional, PANE_TARGET, params, SOCKET_NAME, TARGETING_NOTE, WRAPPED_TEXT } from '../schema.js';
import { checkTarget, resolvePaneId } from '../targets.js';
import { DEFAULT_MAX_LINES } from './capture.js';

const BUFFER_NAME = field('string', 'The buffer_name load_buffer returned (libtmux_mcp_<32 hex>_<logical>).');

export const loadBufferTool = pythonTool({
  name: 'load_buffer',
  title: 'Load tmux Buffer',
  description:
    'Store text in a new private tmux paste buffer, to paste it (paste_buffer) into one or more panes later, or keep it ' +
    'across calls. Returns buffer_name, the handle for the other buffer tools. logical_name (letters, digits, _ . -; ' +
    'default "buf") is only a label inside the name: every call makes a new buffer. For a one-off paste use paste_text.',
  toolset: 'manage',
  input: params({
    content: field('string', 'The text to store (at most 1,000,000 bytes).'),
    logical_name: optional('string', 'A label for the buffer: 1 to 64 letters, digits, "_", "." or "-". Default "buf".'),
    socket_name: SOCKET_NAME,
  }, ['content']),
  output: model({ buffer_name: field('string', 'The full tmux buffer name: pass it to paste_buffer, show_buffer, delete_buffer.'), logical_name: optional('string', 'The label given (or "buf").') }, ['buffer_name']),
  async handler(args, { engine }) {
    const info = await loadBuffer(engine, args.content, args.logical_name);
    return modelResult({ buffer_name: info.name, logical_name: info.logicalName });
  },
});

export const pasteBufferTool = pythonTool({
  name: 'paste_buffer',
  title: 'Paste tmux Buffer',
  description:
    'Paste a buffer made by load_buffer into a pane; the buffer stays, so it can be pasted again elsewhere. bracket ' +
    '(default true) uses bracketed paste when the program asked for it, so a shell inserts multi-line text without running ' +
    `each line. Nothing is pressed after it. Refused for this server's own pane, a dead pane or one in copy mode. ${TARGETING_NOTE}`,
  toolset: 'execute',
  input: params({
    buffer_name: BUFFER_NAME,
    ...PANE_TARGET,
    bracket: defaulted('boolean', true, 'Use bracketed paste when the program asked for it. Default true.'),
    socket_name: SOCKET_NAME,
  }, ['buffer_name']),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await resolvePaneId(engine, args);
    await engine.onPane(paneId, () => pasteBuffer(engine, { pane: paneId, name: args.buffer_name, bracket: args.bracket ?? true, field: 'pane_id' }));
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
  input: params({
    buffer_name: BUFFER_NAME,
    max_lines: optional('integer', `Most lines returned, newest kept. Default ${DEFAULT_MAX_LINES}; null: all.`, DEFAULT_MAX_LINES),
    socket_name: SOCKET_NAME,
  }, ['buffer_name']),
  async handler(args, { engine }) {
    const shown = await showBuffer(engine, args.buffer_name, { maxLines: args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines });
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
