/**
 * A wait's cursor: where in a pane's stream (of one watch, on one tmux server) the wait stopped,
 * as an opaque token the next wait can resume from.
 */
import { invalidArgument } from '../failure.js';
import { decodeToken, encodeToken } from '../read/tokens.js';
import { PANE_ID } from '../../tmux/ids.js';
import type { StreamPosition } from './pane-stream.js';

export interface WaitCursor {
  readonly fingerprint: string;
  readonly paneId: string;
  readonly streamKey: string;
  readonly position: StreamPosition;
}

const CURSOR_PREFIX = 'tmuxw1_';

export function encodeCursor(cursor: WaitCursor): string {
  return encodeToken(CURSOR_PREFIX, [cursor.fingerprint, cursor.paneId, cursor.streamKey, cursor.position.line, cursor.position.col]);
}

/** Parses a cursor; anything malformed is an invalid argument. */
export function decodeCursor(text: string): WaitCursor {
  const bad = () =>
    invalidArgument(
      'cursor is not one a previous wait_for_text returned',
      'Pass the `cursor` field of an earlier wait_for_text result unchanged, or omit it to wait for output from now on.',
    );
  const parts = decodeToken(CURSOR_PREFIX, text);
  if (!Array.isArray(parts) || parts.length !== 5) throw bad();
  const [fp, paneId, streamKey, line, col] = parts as unknown[];
  if (typeof fp !== 'string' || typeof paneId !== 'string' || !PANE_ID.test(paneId) || typeof streamKey !== 'string') throw bad();
  if (!Number.isSafeInteger(line) || !Number.isSafeInteger(col) || (line as number) < 0 || (col as number) < 0) throw bad();
  return { fingerprint: fp, paneId, streamKey, position: { line: line as number, col: col as number } };
}
