/**
 * What a wait is asked (the pane, what to match, from where, for how long) and what it answers: the
 * types the wait's modules (wait.ts, wait-start.ts, wait-scanner.ts, wait-result.ts) share.
 */
import type { PaneRecord } from '../read/records.js';
import type { WaitCursor } from './wait-cursor.js';

/** A compiled pattern: finds the end of its first match in `text`, or -1. */
export interface Matcher {
  readonly source: string;
  find(text: string): number;
}

/** `watchLost`: the control connection carrying the pane's output broke while the pane lives on (rare). */
export type WaitOutcome = 'matched' | 'stopped' | 'timedOut' | 'paneDead' | 'paneClosed' | 'watchLost' | 'cancelled';

export interface WaitRequest {
  readonly pane: PaneRecord;
  readonly patterns: readonly Matcher[];
  readonly stops: readonly Matcher[];
  /** Decoded cursor of an earlier wait on this pane, or undefined to start from now. */
  readonly cursor?: WaitCursor;
  /** Instead of `cursor`: a capture_since cursor; the rows new since it are matched first. */
  readonly since?: string;
  readonly timeoutMs: number;
  readonly maxLines: number;
  readonly signal: AbortSignal;
  /** Ignore output drawn while the pane shows the alternate screen (a full-screen program paints a picture, it does not print lines). */
  readonly skipAlternateScreen?: boolean;
}

/**
 * Where new output began for a wait: `cursor` / `since` (the caller's cursor), `input` (just before
 * the last input into the pane, by this or another tmux-mcp process), `wait` (where the previous
 * wait on the pane stopped), `now` (the moment the wait began: no tmux-mcp had typed into or waited
 * on the pane lately).
 */
export type WaitStart = 'cursor' | 'since' | 'input' | 'wait' | 'now';

export interface WaitResult {
  readonly outcome: WaitOutcome;
  readonly startedFrom: WaitStart;
  /** The match is in output printed before this call began (after its starting point). */
  readonly matchedBeforeCall: boolean;
  readonly matched: string | null;
  readonly matchedIndex: number | null;
  readonly sawNewOutput: boolean;
  readonly matchedAtEntry: boolean;
  /** The pane showed the alternate screen (vim, less, top...) at some time during the wait. */
  readonly alternateScreen: boolean;
  readonly tail: string[];
  /** Older lines of the tail left out to stay within maxLines and the byte budget. */
  readonly droppedLines: number;
  readonly seconds: number;
  readonly cursor: string | null;
  /** Something the caller should know about how the wait began (a cursor that could not be honoured). */
  readonly note?: string;
}
