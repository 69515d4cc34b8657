/** Reading what a pane shows: the screen, history ranges, and bounded tails of them. */
import type { Engine } from '../engine.js';

export interface CaptureRange {
  /** First line: 0 is the top of the visible screen, negative lines reach into history. */
  readonly start?: number;
  /** Last line, same numbering. */
  readonly end?: number;
  /** Join lines the terminal wrapped, so a long line reads as one. */
  readonly joinWrapped?: boolean;
  /** Keep the blank rows at the bottom of the screen (default: removed). */
  readonly keepTrailingBlank?: boolean;
}

/** Most bytes of pane text one result carries; rows beyond it are dropped from the old end. */
const PANE_OUTPUT_BYTES = 128_000;

/** The pane's text for the range, one string per row, trailing blank rows removed. */
export async function captureLines(engine: Engine, paneId: string, range: CaptureRange = {}): Promise<string[]> {
  engine.options.recorder?.actedOn(engine, paneId);
  const command = ['capture-pane', '-p', '-t', paneId];
  if (range.start !== undefined) command.push('-S', String(range.start));
  if (range.end !== undefined) command.push('-E', String(range.end));
  if (range.joinWrapped) command.push('-J');
  const lines = await engine.run(command);
  return range.keepTrailingBlank ? lines : trimTrailingBlank(lines);
}

export interface BoundedCapture {
  readonly text: string;
  /** True when bytes or lines were left out. */
  readonly truncated: boolean;
}

/**
 * The newest text of a pane: its newest `lines` rows of history and screen (blank rows below the
 * last text left out), as one text with a newline after each row, within `maxBytes` UTF-8 bytes:
 * the newest whole rows that fit, or, when not even the last row does, that row's end from a
 * character boundary. The oldest part is what goes, so the answer always ends where the pane does.
 */
export async function captureBounded(engine: Engine, paneId: string, limits: { lines: number; maxBytes: number }): Promise<BoundedCapture> {
  const rows = await captureLines(engine, paneId, { start: -limits.lines });
  const kept = tailBudget(rows, limits.lines, limits.maxBytes);
  const truncated = kept.droppedLines > 0;
  if (kept.lines.length > 0 || rows.length === 0) return { text: kept.lines.map((row) => row + '\n').join(''), truncated };
  return { text: utf8Tail(rows.at(-1)! + '\n', limits.maxBytes), truncated: true };
}

/** The largest length <= `limit` that does not end inside a UTF-8 character of `bytes`. */
export function utf8Boundary(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return bytes.length;
  let end = limit;
  // Step back over continuation bytes to the lead byte of the character the limit cuts.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return end;
}

/** `text` cut to at most `maxBytes` UTF-8 bytes at a character boundary. */
export function clipUtf8(text: string, maxBytes: number): { text: string; clipped: boolean } {
  if (text.length * 3 <= maxBytes) return { text, clipped: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, clipped: false };
  return { text: bytes.subarray(0, utf8Boundary(bytes, maxBytes)).toString('utf8'), clipped: true };
}

export function trimTrailingBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return end === lines.length ? lines : lines.slice(0, end);
}

/** Marks a row kept only by its tail. */
const CLIPPED_ROW_MARK = '…';

/**
 * Keeps the newest rows: at most `maxLines` of them and at most `maxBytes` bytes of text, in
 * whole rows. `droppedLines` counts what was left out at the old end. With `clipRow`, the row that
 * does not fit is kept by its tail (marked with a leading "…") instead of dropped, so one huge row
 * (a 10 MB line joined from its wrapped rows) still shows how it ends.
 */
export function tailBudget(
  lines: readonly string[],
  maxLines: number,
  maxBytes = PANE_OUTPUT_BYTES,
  options: { clipRow?: boolean } = {},
): { lines: string[]; droppedLines: number; clippedRow?: boolean } {
  let first = Math.max(0, lines.length - maxLines);
  // A UTF-16 unit is at most 3 UTF-8 bytes: when that bound fits, every row does, without encoding any.
  let bound = 0;
  for (let i = first; i < lines.length && bound <= maxBytes; i++) bound += lines[i]!.length * 3 + 1;
  if (bound <= maxBytes) return { lines: lines.slice(first), droppedLines: first };
  let bytes = 0;
  for (let i = lines.length - 1; i >= first; i--) {
    const size = Buffer.byteLength(lines[i]!, 'utf8') + 1;
    if (bytes + size > maxBytes) {
      const room = maxBytes - bytes - 1 - Buffer.byteLength(CLIPPED_ROW_MARK, 'utf8');
      if (options.clipRow && room > 0) {
        const kept = lines.slice(i);
        kept[0] = CLIPPED_ROW_MARK + utf8Tail(lines[i]!, room);
        return { lines: kept, droppedLines: i, clippedRow: true };
      }
      first = i + 1;
      break;
    }
    bytes += size;
  }
  return { lines: lines.slice(first), droppedLines: first };
}

/** The last at most `maxBytes` UTF-8 bytes of `text`, starting on a character boundary. */
function utf8Tail(text: string, maxBytes: number): string {
  // A UTF-16 unit takes at most 3 bytes: slice first so a 10 MB row is not encoded whole (from a
  // whole character: half a surrogate pair would encode as a replacement character).
  let from = Math.max(0, text.length - maxBytes);
  const unit = text.charCodeAt(from);
  if (unit >= 0xdc00 && unit <= 0xdfff) from++;
  const bytes = Buffer.from(text.slice(from), 'utf8');
  let start = Math.max(0, bytes.length - maxBytes);
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}
