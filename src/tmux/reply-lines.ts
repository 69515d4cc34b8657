/** What tmux answers, as lines of text: a control-mode reply's body, or a spawned tmux's stdout. */
import type { ControlReply } from './control-parser.js';

/** UTF-8 text of each line, invalid bytes replaced. */
export function decodeLines(lines: Buffer[]): string[] {
  return lines.map((line) => line.toString('utf8'));
}

/**
 * The lines of a control-mode reply, decoded in one pass over its body (every line followed by a
 * newline). A newline is never part of a multi-byte sequence, so this gives exactly the per-line
 * decoding, without one decoder call and one buffer per line of a deep capture.
 */
export function decodeBody(reply: ControlReply): string[] {
  if (reply.lineCount === 0) return [];
  const lines = reply.body.toString('utf8').split('\n');
  lines.pop(); // after the last newline
  return lines;
}

/** `data` cut at each newline; the text after the last one is a line when not empty. */
export function splitLines(data: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (;;) {
    const nl = data.indexOf(0x0a, start);
    if (nl === -1) {
      if (start < data.length) lines.push(data.subarray(start));
      return lines;
    }
    lines.push(data.subarray(start, nl));
    start = nl + 1;
  }
}
