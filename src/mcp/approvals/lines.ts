/**
 * The line each pane has been typed so far and not yet entered, by calls that were let run: a text
 * rule reads a call's input as the continuation of that line, so a command split over two calls,
 * or two items of a batch, reads whole. It holds only what this server typed (never what tmux
 * said), is bounded, and is kept only when text rules are set. Where the line was cleared another
 * way (a program that read it, a person), a later call may be asked about for nothing: the
 * question errs that way, never the other.
 */
import { decodeRef, LOCAL_HOST, type TypedText } from '../../core/index.js';
import { auditTargets } from '../tools/audit-targets.js';

/** The longest unfinished line kept per pane (its end): a longer one matched its own rules when typed. */
const MAX_LINE = 4096;
/** Panes whose unfinished line is kept; the oldest goes first. */
const MAX_PANES = 1024;

export class UnfinishedLines {
  readonly #lines = new Map<string, string>();

  get(key: string): string {
    return this.#lines.get(key) ?? '';
  }

  set(key: string, line: string): void {
    this.#lines.delete(key);
    if (line === '') return;
    this.#lines.set(key, line.length > MAX_LINE ? line.slice(-MAX_LINE) : line);
    if (this.#lines.size > MAX_PANES) this.#lines.delete(this.#lines.keys().next().value!);
  }
}

/** A pane id alone or after its host (`gpu:%3`). */
const PANE = /^(?:([A-Za-z][A-Za-z0-9_-]{0,15}):)?(%\d{1,9})$/;

/**
 * The pane a unit types into, as a key: the pane it names (every profile's pane argument wins over
 * a window or session), a ref read as its pane, on its host; else all its targets' ids; `?` when it
 * names none.
 */
export function paneKey(args: unknown, targets: readonly string[] = []): string {
  const given = args as { paneId?: unknown; pane_id?: unknown; target?: { paneId?: unknown } } | null;
  const pane = given?.paneId ?? given?.pane_id ?? given?.target?.paneId;
  if (typeof pane === 'string') {
    const id = PANE.exec(pane);
    if (id) return `${id[1] ?? LOCAL_HOST}:${id[2]}`;
    const ref = decodeRef(pane);
    const part = ref?.subject.split(':').find((each) => each.startsWith('%'));
    if (ref && part) return `${ref.host ?? LOCAL_HOST}:${part}`;
  }
  const ids = auditTargets(args, undefined, targets).ids;
  return ids.length ? ids.sort().join(' ') : '?';
}

/** The last reading's unfinished line, or '' when a unit typed nothing. */
export function unfinishedOf(texts: readonly TypedText[], pending: string): string {
  return texts.length ? texts[texts.length - 1]!.unfinished : pending;
}
