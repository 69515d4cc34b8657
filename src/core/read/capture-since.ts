/**
 * Incremental reads of a pane: each call returns the rows that appeared or changed since the
 * cursor the previous call handed out, and a new cursor.
 *
 * A cursor records where the pane's cursor was, as an absolute row (history size + cursor row),
 * which stays put while output scrolls rows into history. It also keeps short hashes of that row
 * and of the rows below it, so a row that merely stayed the same (a prompt, a status line) is not
 * reported again, while a row rewritten in place (a prompt that got a command typed on it) is.
 * The pane, its process and the tmux server are recorded too: a cursor from anything else starts
 * afresh with `restarted` instead of reading the wrong rows.
 *
 * Known limit: when history reaches `history-limit`, tmux drops old rows and absolute rows shift;
 * that is noticed (and reported as `linesMissed`) when history shrank, not when it grew back since.
 */
import { createHash } from 'node:crypto';
import { rowFormat, toBool, toInt } from '../../tmux/formats.js';
import { invalidArgument } from '../failure.js';
import { isShuttingDown, onShutdown } from '../servers/shutdown.js';
import { tailBudget, trimTrailingBlank } from './capture.js';
import type { Engine } from '../engine.js';
import type { PaneLayout } from './records.js';
import { fingerprint } from '../targets/refs.js';
import { decodeToken, encodeToken } from './tokens.js';
import { PANE_ID } from '../../tmux/ids.js';

export const CURSOR_MAX_CHARS = 16_384;
const PREFIX = 'cs1.';

/** Whether `text` is shaped like a capture_since cursor (tools that take several kinds of cursor tell them apart so). */
export function isSinceCursor(text: string): boolean {
  return text.startsWith(PREFIX);
}
// Rows below the cursor remembered (so a static status line is not reported each time).
const MAX_BELOW = 400;

interface Cursor {
  /** Fingerprint of the tmux server incarnation. */
  readonly f: string;
  /** Pane id. */
  readonly p: string;
  /** Pane process id. */
  readonly i: number;
  /** Absolute row of the pane's cursor: history size + cursor_y. */
  readonly a: number;
  /** History size and pane height when the cursor was made. */
  readonly h: number;
  readonly H: number;
  /** Alternate screen on. */
  readonly x: boolean;
  /** Hash of the cursor row, and of the rows below it (trailing blank rows left out). */
  readonly t: string;
  readonly b: readonly string[];
}

export interface CaptureSinceOptions {
  readonly cursor?: string;
  readonly maxLines?: number;
  /** When nothing is new, wait up to this long for output before answering. */
  readonly waitMs?: number;
  readonly signal?: AbortSignal;
}

export interface CaptureSinceResult {
  readonly lines: string[];
  readonly droppedLines: number;
  /** Rows may have been missed: history was trimmed or cleared, or the screen switched. */
  readonly linesMissed: boolean;
  /** The cursor belonged to another pane, process or server: reading starts afresh. */
  readonly restarted: boolean;
  readonly cursor: string;
}

const STATE = rowFormat({
  hsize: 'history_size',
  cy: 'cursor_y',
  cx: 'cursor_x',
  height: 'pane_height',
  pid: 'pane_pid',
  alt: 'alternate_on',
});

interface PaneState {
  readonly hsize: number;
  readonly cy: number;
  readonly cx: number;
  readonly height: number;
  readonly pid: number;
  readonly alt: boolean;
}

/** Checks a cursor's shape; call before touching tmux so a garbled one changes nothing. */
export function decodeSinceCursor(text: string): Cursor {
  const bad = () =>
    invalidArgument(
      'cursor is not a cursor capture_since returned',
      'Omit cursor to start reading from now, then pass back the cursor each call returns.',
    );
  if (text.length > CURSOR_MAX_CHARS) throw bad();
  const c = decodeToken(PREFIX, text) as Partial<Cursor> | null | undefined;
  const nat = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (
    typeof c !== 'object' ||
    c === null ||
    Array.isArray(c) ||
    typeof c.f !== 'string' ||
    typeof c.p !== 'string' ||
    !PANE_ID.test(c.p) ||
    !nat(c.i) ||
    !nat(c.a) ||
    !nat(c.h) ||
    !nat(c.H) ||
    typeof c.x !== 'boolean' ||
    typeof c.t !== 'string' ||
    !Array.isArray(c.b) ||
    !c.b.every((h) => typeof h === 'string')
  ) {
    throw bad();
  }
  return c as Cursor;
}

/** The pane a capture_since cursor reads, or undefined for text that is not one. */
export function sinceCursorPane(text: string): string | undefined {
  if (!isSinceCursor(text)) return undefined;
  try {
    return decodeSinceCursor(text).p;
  } catch {
    return undefined;
  }
}

function encodeCursor(cursor: Cursor): string {
  return encodeToken(PREFIX, cursor);
}

const hash = (row: string) => createHash('sha256').update(row).digest('base64url').slice(0, 10);

async function readState(engine: Engine, paneId: string): Promise<PaneState> {
  const row = STATE.parse(await engine.run(['display-message', '-p', '-t', paneId, STATE.format]))[0];
  if (!row) throw new Error(`tmux gave no state for ${paneId}`);
  return {
    hsize: toInt(row.hsize),
    cy: toInt(row.cy),
    cx: toInt(row.cx),
    height: toInt(row.height),
    pid: toInt(row.pid),
    alt: toBool(row.alt),
  };
}

/**
 * The pane's rows from `start` (screen numbering: negative is history) to the bottom, and the
 * pane state right after the capture. The two are sent together, so tmux runs them back to back
 * with no pane output processed in between: row i is absolute row `state.hsize + start + i`.
 */
async function captureWithState(engine: Engine, paneId: string, start: number) {
  const [rows, state] = await Promise.all([
    engine.run(['capture-pane', '-p', '-t', paneId, '-S', String(start)]),
    readState(engine, paneId),
  ]);
  return { rows, state };
}

function cursorFrom(pane: PaneLayout, state: PaneState, start: number, rows: readonly string[]): string {
  const at = state.cy - start;
  const below = trimTrailingBlank(rows.slice(at + 1)).slice(0, MAX_BELOW);
  return encodeCursor({
    f: fingerprint(pane.incarnation),
    p: pane.id,
    i: state.pid,
    a: state.hsize + state.cy,
    h: state.hsize,
    H: state.height,
    x: state.alt,
    t: hash(rows[at] ?? ''),
    b: below.map(hash),
  });
}

/** A cursor for "from now on": only rows that appear or change after this are reported. */
async function freshCursor(engine: Engine, pane: PaneLayout): Promise<string> {
  const { rows, state } = await captureWithState(engine, pane.id, 0);
  return cursorFrom(pane, state, 0, rows);
}

/** Rows may be gone: the screen was switched, or history was trimmed or cleared. */
function anchorLost(cursor: Cursor, state: PaneState): boolean {
  const grew = Math.max(0, state.height - cursor.H); // a taller pane pulls rows back out of history
  return state.alt !== cursor.x || cursor.h - state.hsize > grew || cursor.a > state.hsize + state.height - 1;
}

/** First absolute row to report: the anchor, or the cursor if it moved above it (a redraw); the screen top if lost. */
function firstRow(cursor: Cursor, state: PaneState, lost = anchorLost(cursor, state)): number {
  return lost ? state.hsize : Math.min(cursor.a, state.hsize + state.cy);
}

/** What a read found beside its result: the pane's state after it, and whether the first line is the cursor's own row, whole. */
interface ReadDetail {
  readonly state: PaneState;
  readonly fromAnchor: boolean;
  /** Absolute row of the first line returned. */
  readonly firstRow: number;
}

/** One read against `cursor`; no waiting. */
async function readSince(engine: Engine, pane: PaneLayout, cursor: Cursor, maxLines: number): Promise<CaptureSinceResult> {
  const { detail: _detail, ...result } = await readDetailed(engine, pane, cursor, maxLines);
  return result;
}

async function readDetailed(
  engine: Engine,
  pane: PaneLayout,
  cursor: Cursor,
  maxLines: number,
): Promise<CaptureSinceResult & { detail: ReadDetail }> {
  // Rows older than the newest `maxLines` (plus a screen of possibly blank rows) would be dropped
  // anyway: they are not captured at all, only counted, so a long backlog costs no more to read.
  const need = (state: PaneState, first = firstRow(cursor, state)) => Math.max(first, state.hsize - maxLines);
  // The capture must reach back to the first row needed, which is only known for sure once
  // captured: output may scroll rows into history between reading the state and capturing. Reach
  // back by a margin the observed scrolling suggests and retry; the whole screen is always
  // included, so the new cursor row is too.
  let before = await readState(engine, pane.id);
  let margin = 0;
  for (let attempt = 0; ; attempt++) {
    // Not clamped to the history we saw: more may exist by the time tmux captures (it clamps).
    const asked = Math.min(0, need(before) - before.hsize - margin);
    const { rows, state } = await captureWithState(engine, pane.id, asked);
    const start = Math.max(asked, -state.hsize);
    const top = state.hsize + start;
    const lost = anchorLost(cursor, state);
    const first = firstRow(cursor, state, lost);
    const needed = need(state, first);
    const from = needed - top;
    const aligned = from >= 0 && state.hsize >= before.hsize;
    if (aligned || attempt === 2) {
      const skipped = needed - first;
      let fresh = trimTrailingBlank(rows.slice(Math.max(0, from)));
      let begin = 0;
      if (!lost && skipped === 0 && first === cursor.a) {
        // Rows still as they were when the cursor was made are not new: an unchanged run at the
        // top (the cursor row and rows after it) and at the bottom (a status line). Unchanged rows
        // between new ones stay, so output keeps its blank lines.
        const same = (i: number) => hash(fresh[i]!) === (i === 0 ? cursor.t : cursor.b[i - 1]);
        let end = fresh.length;
        while (end > 0 && end - 1 <= cursor.b.length && same(end - 1)) end--;
        while (begin < end && begin <= cursor.b.length && same(begin)) begin++;
        fresh = fresh.slice(begin, end);
      }
      const kept = tailBudget(fresh, maxLines);
      const firstRow = needed + begin + kept.droppedLines;
      return {
        lines: kept.lines,
        droppedLines: skipped + kept.droppedLines,
        linesMissed: lost || !aligned,
        restarted: false,
        cursor: cursorFrom(pane, state, start, rows),
        detail: { state, firstRow, fromAnchor: !lost && aligned && firstRow === cursor.a },
      };
    }
    // Reach back further each time: four times what scrolled during the last round trip, and at
    // least a full 10,000 rows on the last try (a pane printing faster than that is reported).
    margin = Math.max(4 * Math.max(0, state.hsize - before.hsize) + 256, attempt === 1 ? 10_000 : 0);
    before = state;
  }
}

/** A place in a pane as tmux described it then (an input mark, watch/input-mark.ts). */
export interface PanePoint {
  /** Absolute row: history size + cursor row. */
  readonly row: number;
  readonly col: number;
  readonly history: number;
  readonly height: number;
  readonly alternate: boolean;
  /** The pane's process then: a point from before a respawn is not this pane's. */
  readonly pid: number;
}

/**
 * What the pane printed since `point`, as rows: the point's row from its column on, the rows
 * below, and the cursor's row up to the cursor (so a prompt keeps the space it ends with, which a
 * capture drops); undefined when the point belongs to an earlier process in the pane.
 */
export async function rowsSincePoint(
  engine: Engine,
  pane: PaneLayout,
  point: PanePoint,
  maxLines: number,
): Promise<{ lines: string[]; linesMissed: boolean } | undefined> {
  if (point.pid !== pane.pid) return undefined;
  const cursor: Cursor = {
    f: fingerprint(pane.incarnation),
    p: pane.id,
    i: point.pid,
    a: point.row,
    h: point.history,
    H: point.height,
    x: point.alternate,
    t: '',
    b: [],
  };
  const { lines, linesMissed, detail } = await readDetailed(engine, pane, cursor, maxLines);
  const { state } = detail;
  const atCursor = state.hsize + state.cy - detail.firstRow;
  if (atCursor === lines.length - 1) lines[atCursor] = lines[atCursor]!.padEnd(state.cx);
  if (detail.fromAnchor && lines.length > 0) lines[0] = lines[0]!.slice(point.col);
  return { lines, linesMissed };
}

/**
 * Rows new since `options.cursor` (none and a cursor for "from now on" on the first call).
 * `pane` must be resolved; decode the cursor first (decodeSinceCursor) to fail before touching tmux.
 */
export async function captureSince(engine: Engine, pane: PaneLayout, options: CaptureSinceOptions): Promise<CaptureSinceResult> {
  engine.options.recorder?.actedOn(engine, pane.id);
  const maxLines = options.maxLines ?? 200;
  const cursor = options.cursor === undefined ? undefined : decodeSinceCursor(options.cursor);
  if (!cursor) return { lines: [], droppedLines: 0, linesMissed: false, restarted: false, cursor: await freshCursor(engine, pane) };
  if (cursor.p !== pane.id || cursor.f !== fingerprint(pane.incarnation) || cursor.i !== pane.pid) {
    return { lines: [], droppedLines: 0, linesMissed: false, restarted: true, cursor: await freshCursor(engine, pane) };
  }
  const waitMs = engine.capWait(options.waitMs ?? 0);
  if (waitMs <= 0) return readSince(engine, pane, cursor, maxLines);

  // Subscribe before the first read, so output printed between the read and the wait wakes us.
  const deadline = performance.now() + waitMs;
  let dirty = false;
  let closed = false;
  let wake: (() => void) | undefined;
  const stop = await engine.watchPane(pane.sessionId, pane.id, {
    output: () => {
      dirty = true;
      wake?.();
    },
    close: () => {
      closed = true;
      wake?.();
    },
  });
  try {
    for (;;) {
      dirty = false;
      const result = await readSince(engine, pane, cursor, maxLines);
      const remaining = deadline - performance.now();
      if (result.lines.length > 0 || result.linesMissed || closed || remaining <= 0 || options.signal?.aborted || isShuttingDown())
        return result;
      if (!dirty) await sleepUntilWoken(remaining, options.signal, (fn) => (wake = fn));
      wake = undefined;
    }
  } finally {
    stop();
  }
}

function sleepUntilWoken(ms: number, signal: AbortSignal | undefined, setWake: (fn: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      stopListening();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stopListening = onShutdown(done);
    signal?.addEventListener('abort', done, { once: true });
    setWake(done);
  });
}
