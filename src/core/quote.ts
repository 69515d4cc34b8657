/**
 * Caller input echoed in a message, bounded: a 1 MiB name in an error would make that error (and,
 * for a stored name, every later listing of names in an error) overflow the response cap. JSON
 * quoting shows control characters and lone surrogates as escapes, never raw.
 */

/** One word for a POSIX shell, quoted (src/tmux/launcher.ts), for command lines shown to people. */
export { shellQuote } from '../tmux/launcher.js';

/** The most characters of one echoed value. */
const MAX_ECHO_CHARS = 80;

/** `text` JSON-quoted, cut to `max` characters with the length said when longer. */
export function quoted(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return JSON.stringify(text);
  // Cut on a code point boundary, so the excerpt holds no half of a surrogate pair.
  let end = max;
  if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return `${JSON.stringify(text.slice(0, end))}… (${text.length} characters)`;
}

// C0 controls but tab and newline, DEL, and C1 controls: what a terminal would act on.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` as it may be echoed unquoted (a name in a summary line): control characters, newlines
 * and tabs included, shown as `\uXXXX`, and cut to `max` characters with the length said.
 */
export function shown(text: string, max = MAX_ECHO_CHARS): string {
  const visible = (value: string) =>
    value.replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (text.length <= max) return visible(text);
  let end = max;
  if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return `${visible(text.slice(0, end))}… (${text.length} characters)`;
}

/** `text` with raw control characters (not tab or newline) shown as `\uXXXX`. */
export function withoutControls(text: string): string {
  return text.replace(RAW_CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
