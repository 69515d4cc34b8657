/**
 * The targets an audit entry names, read from the call itself: every tmux id or ref in the arguments
 * its tool declares as targets (ToolFacts.targets), a capture_since cursor there as the pane it reads,
 * and the ids its answer gives for the object it acted on (a created pane, the session a pane is in).
 * Each as `host:id`. Read after the call, from what the call already holds: nothing is asked of tmux,
 * and nothing runs per promise while it works (an AsyncLocalStorage doubles the cost of every await in
 * the process, which the audit must not). A batch's items are entries of their own; what they name
 * counts for the batch too (audit.ts).
 */
import { decodeRef, LOCAL_HOST, sinceCursorPane } from '../../core/index.js';

/** Most targets one entry lists; the rest are counted. */
export const MAX_TARGETS = 64;

/** A tmux id, alone or after its host (`gpu:%3`): session names cannot hold `:`, so this is never a name. */
const ID = /^(?:([A-Za-z][A-Za-z0-9_-]{0,15}):)?([%@$]\d{1,9})$/;
/** Where an answer names the object it acted on (libtmux's create_session answers its session as `id`). */
const ID_FIELD = /^(?:(pane|window|session)(_id|Id)|id)$/;
/** An answer's fields that hold that object (julia's target, a created pane or session). */
const OBJECT_FIELD = /^(target|pane|window|session|created)$/;

export interface Targets {
  readonly ids: readonly string[];
  readonly omitted: number;
}

/** A set of `host:id` keys that keeps MAX_TARGETS and counts the rest. */
export class TargetSet {
  readonly #found = new Set<string>();
  #omitted = 0;

  add(key: string): void {
    if (this.#found.has(key)) return;
    if (this.#found.size >= MAX_TARGETS) this.#omitted++;
    else this.#found.add(key);
  }

  addAll(targets: Targets): void {
    for (const key of targets.ids) this.add(key);
    this.#omitted += targets.omitted;
  }

  get targets(): { ids: string[]; omitted: number } {
    return { ids: [...this.#found], omitted: this.#omitted };
  }
}

/**
 * The targets of one call: the ids and refs at its tool's declared `targets` paths in `args`, and
 * the ids of the object its answer (`structured`) acted on.
 */
export function auditTargets(args: unknown, structured: unknown, targets: readonly string[] = []): { ids: string[]; omitted: number } {
  const found = new TargetSet();
  const add = (host: string | undefined, id: string) => found.add(`${host ?? LOCAL_HOST}:${id}`);
  const fromString = (text: string) => {
    const id = ID.exec(text);
    if (id) return add(id[1] === LOCAL_HOST ? undefined : id[1], id[2]!);
    const ref = text.length > 8 && text.length <= 64 ? decodeRef(text) : undefined;
    if (ref) for (const part of ref.subject.split(':')) add(ref.host, part);
  };
  for (const path of targets) {
    for (const value of valuesAt(args, path.split('.'))) {
      if (typeof value !== 'string') continue;
      // A cursor names no host: one in a target argument is from a profile that has none (python).
      const cursorPane = sinceCursorPane(value);
      if (cursorPane) add(undefined, cursorPane);
      else fromString(value);
    }
  }
  // The answer: only its own object's fields, not the rows of a listing.
  const answer = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > 1) return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && ID_FIELD.test(key)) fromString(item);
      else if (OBJECT_FIELD.test(key)) answer(item, depth + 1);
    }
  };
  answer(structured, 0);
  return found.targets;
}

/** The values at a declared path (`a`, `a.b`, `a[].b`) of the arguments; none where the call left it out. */
function valuesAt(value: unknown, steps: readonly string[]): unknown[] {
  if (steps.length === 0) return [value];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const [step, ...rest] = steps as [string, ...string[]];
  const each = step.endsWith('[]');
  const item = (value as Record<string, unknown>)[each ? step.slice(0, -2) : step];
  if (!each) return valuesAt(item, rest);
  return Array.isArray(item) ? item.flatMap((element) => valuesAt(element, rest)) : [];
}
