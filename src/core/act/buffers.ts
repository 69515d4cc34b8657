/**
 * Named tmux paste buffers that belong to this MCP server. Every name it makes has the family's
 * form `libtmux_mcp_<32 hex>_<logical>`, and every call that takes a name refuses any other, so the
 * user's own buffers and paste history are never read, replaced, pasted or deleted.
 */
import { randomBytes } from 'node:crypto';
import { rowFormat, toInt } from '../../tmux/formats.js';
import { tailBudget } from '../read/capture.js';
import type { Engine } from '../engine.js';
import { Failure, invalidArgument, notFound, tmuxSaid } from '../failure.js';
import { bracketFlag, PASTE_MARKERS, pasteChecked } from './input.js';
import type { InputPaneRecord } from '../read/records.js';

const BUFFER_PREFIX = 'libtmux_mcp_';
export const BUFFER_NAME = /^libtmux_mcp_[0-9a-f]{32}_[A-Za-z0-9_.-]{1,64}$/;
const LOGICAL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** The logical name of a buffer loaded without one. */
const DEFAULT_LOGICAL_NAME = 'buf';
/** Largest buffer this server loads, and most bytes of one it shows. */
export const MAX_BUFFER_BYTES = 1_000_000;
/** Text up to this size goes over the control connection (`set-buffer`); more goes through `load-buffer -`'s stdin. */
const CONTROL_MAX_BYTES = 64 * 1024;

export interface BufferInfo {
  /** The full tmux buffer name, to pass to the other buffer calls. */
  readonly name: string;
  /** The caller's label inside the name. */
  readonly logicalName: string;
  /** Size in bytes. */
  readonly bytes: number;
}

export interface BufferContent extends BufferInfo {
  /** The buffer's text (UTF-8, invalid bytes replaced), or its newest lines when `droppedLines` > 0. */
  readonly content: string;
  /** Lines left out at the start (0: the whole buffer). */
  readonly droppedLines: number;
}

/** Refuses anything but a name this server makes, before tmux sees it. */
export function checkBufferName(name: string, field = 'buffer_name'): void {
  if (!BUFFER_NAME.test(name)) {
    throw invalidArgument(
      `${field} ${JSON.stringify(name.slice(0, 120))} is not a buffer this server made: names look like ${BUFFER_PREFIX}<32 hex digits>_<logical name>`,
      "Use the buffer_name that load_buffer returned; the user's own tmux buffers are off limits.",
    );
  }
}

const logicalOf = (name: string): string => name.slice(BUFFER_PREFIX.length + 33);

/**
 * Stores `content` in a new private buffer and returns its name. `logicalName` (letters, digits,
 * `_`, `.`, `-`; at most 64) labels it; absent or empty means "buf". Each call makes a new buffer.
 */
export async function loadBuffer(engine: Engine, content: string | Buffer, logicalName?: string | null): Promise<BufferInfo> {
  const logical = logicalName === undefined || logicalName === null || logicalName === '' ? DEFAULT_LOGICAL_NAME : logicalName;
  if (!LOGICAL_NAME.test(logical)) {
    throw invalidArgument(`logical_name must be 1 to 64 letters, digits, "_", "." or "-", got ${JSON.stringify(logical.slice(0, 80))}`);
  }
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  if (bytes.length === 0) throw invalidArgument('content is empty: tmux keeps no empty buffers', 'Load at least one character.');
  if (bytes.length > MAX_BUFFER_BYTES) {
    throw new Failure(
      'too_large',
      `content is ${bytes.length} bytes; a buffer holds at most ${MAX_BUFFER_BYTES}`,
      'Split it into several buffers.',
      {
        touched: false,
      },
    );
  }
  if (PASTE_MARKERS.test(bytes.toString('latin1'))) {
    throw invalidArgument(
      'content contains a bracketed-paste marker (ESC [200~ or ESC [201~), which would let a bracketed paste of it run as typed keys',
    );
  }
  const name = `${BUFFER_PREFIX}${randomBytes(16).toString('hex')}_${logical}`;
  // Text travels as one quoted argument on the control connection; NUL bytes cannot, nor should a
  // megabyte line: those go through a spawned tmux's stdin.
  if (typeof content === 'string' && bytes.length <= CONTROL_MAX_BYTES && !content.includes('\0')) {
    await engine.run(['set-buffer', '-b', name, '--', content]);
  } else {
    await engine.run(['load-buffer', '-b', name, '-'], { stdin: bytes });
  }
  return { name, logicalName: logical, bytes: bytes.length };
}

const BUFFER_ROW = rowFormat({ name: 'buffer_name', size: 'buffer_size' });

/** This server's buffers on the tmux server (others' buffers are left out), by name. */
export async function listBuffers(engine: Engine): Promise<BufferInfo[]> {
  const lines = (await engine.runIfServer(['list-buffers', '-F', BUFFER_ROW.format])) ?? [];
  return BUFFER_ROW.parse(lines)
    .filter((row) => BUFFER_NAME.test(row.name))
    .map((row) => ({ name: row.name, logicalName: logicalOf(row.name), bytes: toInt(row.size) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The buffer's text, exactly (a last newline kept). With `maxLines` (null: no limit) only the
 * newest lines are kept; at most MAX_BUFFER_BYTES of text come back either way.
 */
export async function showBuffer(engine: Engine, name: string, options: { maxLines?: number | null } = {}): Promise<BufferContent> {
  checkBufferName(name);
  const maxLines = options.maxLines ?? null;
  if (maxLines !== null && (!Number.isInteger(maxLines) || maxLines < 1))
    throw invalidArgument(`max_lines must be a whole number of at least 1, or null for no limit, got ${maxLines}`);
  // Spawned, not over control mode: tmux escapes bytes for control clients and drops the last newline.
  const raw = await onBuffer(name, () => engine.output(['show-buffer', '-b', name]));
  const text = raw.toString('utf8');
  const ending = text.endsWith('\n') ? '\n' : '';
  const lines = (ending ? text.slice(0, -1) : text).split('\n');
  const kept = tailBudget(lines, maxLines ?? lines.length, MAX_BUFFER_BYTES);
  const content = kept.droppedLines === 0 ? text : kept.lines.join('\n') + ending;
  return { name, logicalName: logicalOf(name), bytes: raw.length, content, droppedLines: kept.droppedLines };
}

/**
 * Pastes the buffer into a pane (the buffer stays). `bracket` (default true) wraps it in bracketed
 * paste when the pane's program asked for that, so a shell inserts it without running each line.
 * Refused, before anything is typed, for a dead pane, a pane in a mode, or this server's own pane.
 */
export async function pasteBuffer(
  engine: Engine,
  request: { readonly pane: string; readonly name: string; readonly bracket?: boolean; readonly force?: boolean; readonly field?: string },
): Promise<InputPaneRecord> {
  checkBufferName(request.name);
  return pasteChecked(engine, request, 'paste a buffer', async (paneId) => {
    await onBuffer(request.name, () => engine.run(['paste-buffer', ...bracketFlag(request.bracket), '-b', request.name, '-t', paneId]));
  });
}

/** Deletes one of this server's buffers; a name that is not there is a not-found failure. */
export async function deleteBuffer(engine: Engine, name: string): Promise<void> {
  checkBufferName(name);
  await onBuffer(name, () => engine.run(['delete-buffer', '-b', name]));
}

/** Deletes every buffer of this server's form (at shutdown, say); returns how many went. */
export async function deleteAllBuffers(engine: Engine): Promise<number> {
  const buffers = await listBuffers(engine);
  const gone = await Promise.all(
    buffers.map((b) =>
      engine.run(['delete-buffer', '-b', b.name]).then(
        () => 1,
        () => 0,
      ),
    ),
  );
  return gone.reduce<number>((sum, n) => sum + n, 0);
}

/** Runs a command on a named buffer, reporting tmux's "no buffer" as a missing buffer. */
async function onBuffer<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (tmuxSaid(error, /no buffer|unknown buffer/i)) {
      throw notFound(
        `no buffer ${name} on this tmux server`,
        'Buffers live until deleted or the tmux server exits; load it again with load_buffer.',
      );
    }
    throw error;
  }
}
