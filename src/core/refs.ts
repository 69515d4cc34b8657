/**
 * Opaque references to tmux objects, tied to one incarnation of the tmux server. tmux reuses ids
 * (`%3`, `@1`, `$0`) after a restart, so a ref records which server it came from, and one from
 * another server is refused as stale instead of acting on a different object.
 *
 * Shape: `tmux1_` + base64url(kind, id, fingerprint of the incarnation), at most 64 bytes.
 */
import { createHash } from 'node:crypto';
import type { Incarnation } from './records.js';
import { PANE_ID, SESSION_ID, WINDOW_ID } from '../tmux/ids.js';

export type RefKind = 'session' | 'window' | 'link' | 'pane';

const PREFIX = 'tmux1_';
const KIND_CODE: Record<RefKind, string> = { session: 's', window: 'w', link: 'l', pane: 'p' };
const CODE_KIND = Object.fromEntries(Object.entries(KIND_CODE).map(([k, v]) => [v, k])) as Record<string, RefKind>;

// A listing builds one ref per row, all of the same incarnation: hash each incarnation once.
const fingerprints = new Map<string, string>();

export function fingerprint(incarnation: Incarnation): string {
  const key = `${incarnation.socketPath}\0${incarnation.pid}\0${incarnation.startTime}`;
  let value = fingerprints.get(key);
  if (value === undefined) {
    value = createHash('sha256').update(key).digest('base64url').slice(0, 12);
    if (fingerprints.size >= 64) fingerprints.clear();
    fingerprints.set(key, value);
  }
  return value;
}

/** `subject` is the tmux id (`%3`), or for a window link `$1:@2`. */
export function encodeRef(kind: RefKind, subject: string, incarnation: Incarnation): string {
  return PREFIX + Buffer.from(`${KIND_CODE[kind]}${fingerprint(incarnation)}${subject}`, 'utf8').toString('base64url');
}

export interface DecodedRef {
  readonly kind: RefKind;
  readonly subject: string;
  readonly fingerprint: string;
}

/** What each kind of ref may name: a tmux id of that kind (a link: session and window). */
const SUBJECT: Record<RefKind, RegExp> = { session: SESSION_ID, window: WINDOW_ID, link: /^\$\d+:@\d+$/, pane: PANE_ID };

/**
 * Undefined when the text is not a ref this server could have made. Base64 decoding is lenient
 * (it skips characters outside its alphabet and ignores trailing bits), so a ref counts only when
 * it encodes back to exactly the text given, and names an id of its kind: `<ref>;` or `<ref> junk`
 * is not that ref.
 */
export function decodeRef(text: string): DecodedRef | undefined {
  if (!text.startsWith(PREFIX) || text.length > 64) return undefined;
  const encoded = text.slice(PREFIX.length);
  const bytes = Buffer.from(encoded, 'base64url');
  if (bytes.toString('base64url') !== encoded) return undefined;
  const body = bytes.toString('utf8');
  const kind = CODE_KIND[body[0] ?? ''];
  if (!kind || body.length < 14) return undefined;
  const decoded = { kind, fingerprint: body.slice(1, 13), subject: body.slice(13) };
  return SUBJECT[kind].test(decoded.subject) && Buffer.from(body, 'utf8').equals(bytes) ? decoded : undefined;
}

export function isRef(text: string): boolean {
  return text.startsWith(PREFIX);
}
