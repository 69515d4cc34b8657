/**
 * The targets an audit entry names, read from the call itself: every tmux id or ref in its
 * arguments (batch operations included), and the ids its answer gives for the object it acted on
 * (a created pane, the session a pane is in). Each as `host:id`. Read after the call, from what
 * the call already holds: nothing is asked of tmux, and nothing runs per promise while it works
 * (an AsyncLocalStorage doubles the cost of every await in the process, which the audit must not).
 */
import { decodeRef, LOCAL_HOST } from '../../core/index.js';

/** Most targets one entry lists; the rest are counted. */
export const MAX_TARGETS = 64;

/** A tmux id, alone or after its host (`gpu:%3`): session names cannot hold `:`, so this is never a name. */
const ID = /^(?:([A-Za-z][A-Za-z0-9_-]{0,15}):)?([%@$]\d{1,9})$/;
/** Argument names that hold targets in some profile: paneId, pane_id, target, window_ids, session, src/dst... */
const TARGET_KEY = /pane|window|session|target|^(src|dst|source|destination)|^ids?$/i;
/** Where an answer names the object it acted on (libtmux's create_session answers its session as `id`). */
const ID_FIELD = /^(?:(pane|window|session)(_id|Id)|id)$/;
/** An answer's fields that hold that object (julia's target, a created pane or session). */
const OBJECT_FIELD = /^(target|pane|window|session|created)$/;

export interface Targets {
  readonly ids: string[];
  readonly omitted: number;
}

export function auditTargets(args: unknown, structured: unknown): Targets {
  const found = new Set<string>();
  let omitted = 0;
  const add = (host: string | undefined, id: string) => {
    const key = `${host ?? LOCAL_HOST}:${id}`;
    if (found.has(key)) return;
    if (found.size >= MAX_TARGETS) omitted++;
    else found.add(key);
  };
  const fromString = (text: string) => {
    const id = ID.exec(text);
    if (id) return add(id[1] === LOCAL_HOST ? undefined : id[1], id[2]!);
    const ref = text.length > 8 && text.length <= 64 ? decodeRef(text) : undefined;
    if (ref) for (const part of ref.subject.split(':')) add(ref.host, part);
  };
  // Strings under target-like names only: `%3` typed as keys is text, not a target.
  const walk = (value: unknown, key: string, depth: number) => {
    if (typeof value === 'string') return TARGET_KEY.test(key) ? fromString(value) : undefined;
    if (value === null || typeof value !== 'object' || depth > 8) return;
    if (Array.isArray(value)) for (const item of value) walk(item, key, depth + 1);
    else for (const [name, item] of Object.entries(value)) walk(item, name, depth + 1);
  };
  walk(args, '', 0);
  // The answer: only its own object's fields, not the rows of a listing.
  const answer = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > 1) return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && ID_FIELD.test(key)) fromString(item);
      else if (OBJECT_FIELD.test(key)) answer(item, depth + 1);
    }
  };
  answer(structured, 0);
  return { ids: [...found], omitted };
}
