/** Reading what a pane shows: the screen, history ranges, and bounded tails of them. */
import type { Engine } from './engine.js';

export interface CaptureRange {
  /** First line: 0 is the top of the visible screen, negative lines reach into history. */
  readonly start?: number;
  /** Last line, same numbering. */
  readonly end?: number;
  /** Join lines the terminal wrapped, so a long line reads as one. */
  readonly joinWrapped?: boolean;
}

/** Most bytes of pane text one result carries; rows beyond it are dropped from the old end. */
export const PANE_OUTPUT_BYTES = 128_000;

/** The pane's text for the range, one string per row, trailing blank rows removed. */
export async function captureLines(engine: Engine, paneId: string, range: CaptureRange = {}): Promise<string[]> {
  const command = ['capture-pane', '-p', '-t', paneId];
  if (range.start !== undefined) command.push('-S', String(range.start));
  if (range.end !== undefined) command.push('-E', String(range.end));
  if (range.joinWrapped) command.push('-J');
  const lines = await engine.tmux.run(command);
  return trimTrailingBlank(lines);
}

export function trimTrailingBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return end === lines.length ? lines : lines.slice(0, end);
}

/**
 * Keeps the newest rows: at most `maxLines` of them and at most `maxBytes` bytes of text, in
 * whole rows. `droppedLines` counts what was left out at the old end.
 */
export function tailBudget(lines: readonly string[], maxLines: number, maxBytes = PANE_OUTPUT_BYTES): { lines: string[]; droppedLines: number } {
  let first = Math.max(0, lines.length - maxLines);
  let bytes = 0;
  for (let i = lines.length - 1; i >= first; i--) {
    bytes += Buffer.byteLength(lines[i]!, 'utf8') + 1;
    if (bytes > maxBytes) {
      first = i + 1;
      break;
    }
  }
  return { lines: lines.slice(first), droppedLines: first };
}
