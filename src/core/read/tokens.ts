/**
 * Opaque tokens handed to clients and taken back (cursors): a prefix naming the kind and version,
 * then the value's JSON in base64url. The prefix lets a tool that takes several kinds tell them
 * apart; the value is checked by its owner, since a client may send anything.
 */

export function encodeToken(prefix: string, value: unknown): string {
  return prefix + Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The value a token holds, or undefined when `text` is not a token of `prefix` (or not JSON). */
export function decodeToken(prefix: string, text: string): unknown {
  if (!text.startsWith(prefix)) return undefined;
  try {
    return JSON.parse(Buffer.from(text.slice(prefix.length), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
