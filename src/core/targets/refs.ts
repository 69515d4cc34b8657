/**
 * Opaque references to tmux objects, tied to one incarnation of the tmux server. tmux reuses ids
 * (`%3`, `@1`, `$0`) after a restart, so a ref records which server it came from, and one from
 * another server is refused as stale instead of acting on a different object.
 *
 * Shape: `tmux1_` + base64url(kind, fingerprint of the incarnation, id), at most 64 bytes. A ref of
 * a remote host's object writes the id `NAME:%3`: the ref itself says which host to go back to.
 */
import { createHash } from 'node:crypto';
import type { Incarnation } from '../read/records.js';
import { PANE_ID, SESSION_ID, WINDOW_ID } from '../../tmux/ids.js';

export type RefKind = 'session' | 'window' | 'link' | 'pane';

const PREFIX = 'tmux1_';
const KIND_CODE: Record<RefKind, string> = { session: 's', window: 'w', link: 'l', pane: 'p' };
const CODE_KIND = Object.fromEntries(Object.entries(KIND_CODE).map(([k, v]) => [v, k])) as Record<string, RefKind>;

// A listing builds one ref per row, all of the same incarnation: hash each key once.
const hashes = new Map<string, string>();

/** The first `length` base64url characters of the SHA-256 of `key`, remembered for the few keys a process sees. */
export function shortHash(key: string, length: number): string {
  const slot = `${length}\0${key}`;
  let value = hashes.get(slot);
  if (value === undefined) {
    value = createHash('sha256').update(key).digest('base64url').slice(0, length);
    if (hashes.size >= 64) hashes.clear();
    hashes.set(slot, value);
  }
  return value;
}

export function fingerprint(incarnation: Incarnation): string {
  return shortHash(`${incarnation.host ?? ''}\0${incarnation.socketPath}\0${incarnation.pid}\0${incarnation.startTime}`, 12);
}

/** `subject` is the tmux id (`%3`), or for a window link `$1:@2`. */
export function encodeRef(kind: RefKind, subject: string, incarnation: Incarnation): string {
  const where = incarnation.host === undefined ? '' : `${incarnation.host}:`;
  return PREFIX + Buffer.from(`${KIND_CODE[kind]}${fingerprint(incarnation)}${where}${subject}`, 'utf8').toString('base64url');
}

export interface DecodedRef {
  readonly kind: RefKind;
  /** The tmux id on its host (`%3`, or `$1:@2` for a link). */
  readonly subject: string;
  readonly fingerprint: string;
  /** The configured host the object lives on; undefined for this machine. */
  readonly host?: string;
}

// tmux ids start with %, @ or $; a host name starts with a letter.
const HOST_SUBJECT = /^([A-Za-z][A-Za-z0-9_-]{0,15}):([%@$].*)$/s;

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
  const subject = body.slice(13);
  const hosted = HOST_SUBJECT.exec(subject);
  const decoded = hosted
    ? { kind, fingerprint: body.slice(1, 13), subject: hosted[2]!, host: hosted[1]! }
    : { kind, fingerprint: body.slice(1, 13), subject };
  return SUBJECT[kind].test(decoded.subject) && Buffer.from(body, 'utf8').equals(bytes) ? decoded : undefined;
}

export function isRef(text: string): boolean {
  return text.startsWith(PREFIX);
}
