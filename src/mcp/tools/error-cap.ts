/**
 * Keeps tool errors readable and under the response cap: errors echo inputs and list names, and a
 * message built from a 1 MiB input must not become a response over the wire limit. Every text of
 * an error result is cut to a bound (its head says what failed, its tail the next step, so both are
 * kept), and raw control characters are shown as escapes instead of reaching the client as is.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

/** The most characters of one text in an error result. */
const MAX_ERROR_TEXT_CHARS = 8000;
const HEAD_CHARS = 6000;

// C0 controls but tab and newline, DEL, and C1 controls: a NUL in an echoed name is shown as \u0000.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** One error text, escaped and bounded. */
export function boundErrorText(text: string): string {
  const escaped = text.replace(RAW_CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped.length <= MAX_ERROR_TEXT_CHARS) return escaped;
  const tail = MAX_ERROR_TEXT_CHARS - HEAD_CHARS;
  const left = escaped.length - HEAD_CHARS - tail;
  return `${cut(escaped, 0, HEAD_CHARS)} … [${left} characters left out] … ${cut(escaped, escaped.length - tail, escaped.length)}`;
}

/** An error result with every string in it (text blocks, and an error envelope's fields) bounded. */
export function boundError(result: CallToolResult): CallToolResult {
  return bound(result) as CallToolResult;
}

function bound(value: unknown): unknown {
  if (typeof value === 'string') return boundErrorText(value);
  if (Array.isArray(value)) return value.map(bound);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, bound(inner)]));
}

/** text.slice(start, end) moved off the middle of a surrogate pair. */
function cut(text: string, start: number, end: number): string {
  const low = (i: number) => i > 0 && i < text.length && /[\uDC00-\uDFFF]/.test(text[i]!);
  if (low(start)) start++;
  if (low(end)) end--;
  return text.slice(start, end);
}
