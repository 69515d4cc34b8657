/**
 * Caller input echoed in a message, bounded: a 1 MiB name in an error would make that error (and,
 * for a stored name, every later listing of names in an error) overflow the response cap. JSON
 * quoting shows control characters and lone surrogates as escapes, never raw.
 */

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
