/**
 * Where new output starts for a pane, kept in tmux itself so that every tmux-mcp process reads it:
 * each `tmux-mcp call` is a process of its own, whose pane streams begin with it. Whenever a
 * stream's unread mark moves (this process types into the pane, or a wait on it ends), a pane user
 * option is set to where the pane's output stood at that moment, as tmux itself describes it
 * (history size + cursor row, cursor column), with who set it and when. A wait that finds the
 * option newer than its own stream's mark, or has none of its own, counts the rows printed since
 * that point as new, as a wait in one server counts from its stream's mark.
 */
import { randomBytes } from 'node:crypto';
import { type Engine, perServer } from '../engine.js';
import type { PanePoint } from '../read/capture-since.js';
import type { UnreadMark } from './pane-stream.js';

/** The pane option; tmux keeps it with the pane and drops it with the pane. */
export const MARK_OPTION = '@tmux-mcp-input-mark';
/** Format of the value, after the writer, time and reason this process fills in; tmux expands it as it sets the option. */
const POSITION = '#{history_size} #{cursor_y} #{cursor_x} #{pane_height} #{alternate_on} #{pane_pid}';
/** Marks being set in tmux, per server. */
const markWrites = perServer(() => new Set<Promise<unknown>>());
/** This process, as a writer of marks. */
const WRITER = randomBytes(6).toString('hex');
const VERSION = 'm1';

export interface InputMark extends PanePoint {
  /** Set by this process. */
  readonly own: boolean;
  /** When (Date.now() of the process that set it). */
  readonly at: number;
  readonly reason: UnreadMark['reason'];
}

/** The set-option that records `mark` for `paneId`; sent just before the input it marks, on the same connection. */
export function markCommand(paneId: string, mark: UnreadMark): string[] {
  return ['set-option', '-p', '-t', paneId, '-F', MARK_OPTION, `${VERSION} ${WRITER} ${mark.at} ${mark.reason} ${POSITION}`];
}

/**
 * Records `mark` in tmux without holding up the input that follows (the command goes out first on
 * the engine's connection, so tmux sets it first); settleMarks waits for the ones still in flight.
 */
export function writeMark(engine: Engine, paneId: string, mark: UnreadMark): void {
  const writing: Promise<unknown> = engine.run(markCommand(paneId, mark)).catch(() => {});
  const writes = markWrites(engine);
  writes.add(writing);
  void writing.finally(() => writes.delete(writing));
}

/** Longest a closing process waits for its marks: a tmux that does not answer must not hold it up. */
const SETTLE_MS = 1000;

/** Waits (a bounded time) for the marks still being set, before a process closes its connection to tmux. */
export async function settleMarks(engine: Engine): Promise<void> {
  const writes = markWrites(engine);
  if (writes.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all([...writes]), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_MS)))]);
  clearTimeout(timer);
}

/** The option's value as set by markCommand; undefined when unset or not of that shape. */
export function parseMark(text: string): InputMark | undefined {
  const parts = text.trim().split(' ');
  if (parts.length !== 10 || parts[0] !== VERSION) return undefined;
  const [, writer, at, reason, history, cy, cx, height, alternate, pid] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const numbers = [at, history, cy, cx, height, pid].map((n) => (/^\d{1,16}$/.test(n) ? Number(n) : NaN));
  if (numbers.some((n) => !Number.isSafeInteger(n)) || (reason !== 'input' && reason !== 'wait')) return undefined;
  const [time, hsize, row, col, rows, process] = numbers as [number, number, number, number, number, number];
  return {
    own: writer === WRITER,
    at: time,
    reason,
    row: hsize + row,
    col,
    history: hsize,
    height: rows,
    alternate: alternate === '1',
    pid: process,
  };
}

/**
 * The mark a wait without a cursor counts from instead of its stream's own: one another process
 * set later than this stream's mark, or any when this stream has none (it began after the input).
 */
export function markToCountFrom(mark: InputMark | undefined, unread: UnreadMark | undefined): InputMark | undefined {
  if (!mark) return undefined;
  if (!unread) return mark;
  return !mark.own && mark.at > unread.at ? mark : undefined;
}
