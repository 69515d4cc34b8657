/**
 * A live watch on one pane's output (`%output` over a control client attached to its session),
 * kept as plain text lines with absolute numbers, so waits can match new output the moment it
 * arrives and a later call can resume where an earlier one stopped.
 * Memory is bounded per stream; pane-streams.ts shares one stream per pane.
 */
import { randomBytes } from 'node:crypto';
import { EscapeFilter } from '../read/terminal-text.js';
import { parseMark, type ShellMark } from '../act/shell-integration/marks.js';

/** A place in a stream: absolute line number and column (UTF-16 units) within that line. */
export interface StreamPosition {
  readonly line: number;
  readonly col: number;
}

/** Most complete lines a stream keeps; older ones are dropped and counted. */
const MAX_LINES = 10_000;
/** Most characters a stream keeps over all its lines. */
const MAX_CHARS = 2_000_000;
/** A line longer than this (a program that never prints a newline) is cut into pieces. */
const MAX_LINE_CHARS = 64 * 1024;
/** Most semantic-prompt marks a stream keeps; older ones are dropped. */
const MAX_MARKS = 1000;

/** Notifications after which a watched pane may be gone: worth a liveness check. */
const STRUCTURAL = new Set([
  'layout-change',
  'window-close',
  'unlinked-window-close',
  'window-pane-changed',
  'session-window-changed',
  'sessions-changed',
  'pane-mode-changed',
]);

/** `skipped`: tmux dropped output the watch had not taken yet (it fell too far behind); see `skips`. */
export type StreamEvent = 'output' | 'skipped' | 'structure' | 'closed';

/**
 * Where the next wait without a cursor on a pane starts reading, and why: just before the last
 * input this server sent into the pane (`input`), or where the last wait on it stopped (`wait`),
 * whichever is later. Output after it counts as new even when printed before the wait was called.
 */
export interface UnreadMark {
  readonly position: StreamPosition;
  readonly reason: 'input' | 'wait';
  /** When it was set (Date.now()): compared with the mark another process left in tmux (input-mark.ts). */
  readonly at: number;
}

/**
 * Where a wait without a cursor starts reading, by the rule every profile's waits share: just
 * before this server's last input into the pane, or where the last wait on it stopped, whichever
 * is later (never past `end`, the stream's end when the wait began). `dropped` counts lines since
 * then that the stream no longer holds (reading starts at its oldest line). Undefined when this
 * server neither typed into the pane nor waited on it since the watch began.
 */
export function unreadStart(
  stream: PaneStream,
  end: StreamPosition,
): { from: StreamPosition; reason: UnreadMark['reason']; dropped: number } | undefined {
  const unread = stream.unread;
  if (!unread) return undefined;
  const from = before(unread.position, end) ? unread.position : end;
  if (from.line >= stream.firstLine) return { from, reason: unread.reason, dropped: 0 };
  return { from: { line: stream.firstLine, col: 0 }, reason: unread.reason, dropped: stream.firstLine - from.line };
}

/** Whether `a` comes strictly before `b`. */
export function before(a: StreamPosition, b: StreamPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.col < b.col);
}

export class PaneStream {
  /** Identifies this stream's numbering; a cursor from another stream cannot be resumed here. */
  readonly key = randomBytes(6).toString('base64url');
  readonly paneId: string;
  readonly sessionId: string;
  readonly #filter = new EscapeFilter();
  readonly #listeners = new Set<(event: StreamEvent) => void>();
  #lines: string[] = [];
  #head = 0; // index into #lines of the oldest kept line (dropping shifts lazily)
  #first = 0; // absolute number of #lines[#head]
  #partial = '';
  #chars = 0;
  #closed: string | undefined;
  #lastAlternateEntry: StreamPosition | undefined;
  #unread: UnreadMark | undefined;
  #interruptedAt: StreamPosition | undefined;
  #lagMs = 0;
  #skips = 0;
  #lastSkip: StreamPosition | undefined;
  #marks: ShellMark[] = [];
  #marksDropped = 0;
  /** Told whenever the unread mark moves, so it can be kept where other processes read it (pane-streams.ts). */
  onUnread: ((mark: UnreadMark) => void) | undefined;

  constructor(paneId: string, sessionId: string) {
    this.paneId = paneId;
    this.sessionId = sessionId;
  }

  /** Why the stream ended (pane gone, client detached), or undefined while it runs. */
  get closed(): string | undefined {
    return this.#closed;
  }

  /** The position just after everything received so far. */
  get end(): StreamPosition {
    return { line: this.#first + this.#lines.length - this.#head, col: this.#partial.length };
  }

  /** Whether the program is on the alternate screen, as far as its output since the stream began tells (undefined: no switch seen). */
  get alternate(): boolean | undefined {
    return this.#filter.alternate;
  }

  /** Where the latest switch to the alternate screen arrived (the start of its chunk of output); undefined when none has. */
  get lastAlternateEntry(): StreamPosition | undefined {
    return this.#lastAlternateEntry;
  }

  /** How long tmux held the latest output before sending it, in ms: how far this stream lags behind the pane. */
  get lagMs(): number {
    return this.#lagMs;
  }

  /** How many times tmux dropped output this stream had not received (it lagged too far behind). */
  get skips(): number {
    return this.#skips;
  }

  /** Where the latest such gap is: output before it arrived, output after it did, what fell between is lost. */
  get lastSkip(): StreamPosition | undefined {
    return this.#lastSkip;
  }

  /** How many semantic-prompt marks (OSC 133) have arrived in all; `mark(i)` for i from `markCount` on are new. */
  get markCount(): number {
    return this.#marksDropped + this.#marks.length;
  }

  /** The `i`th mark to arrive; undefined once dropped or not yet there. */
  mark(i: number): ShellMark | undefined {
    return this.#marks[i - this.#marksDropped];
  }

  /** The oldest line still kept. */
  get firstLine(): number {
    return this.#first;
  }

  /** Line `n` as stored (escape sequences removed; `\r` and `\b` kept), the unfinished last line included; undefined once dropped. */
  line(n: number): string | undefined {
    if (n < this.#first) return undefined;
    const index = this.#head + (n - this.#first);
    if (index < this.#lines.length) return this.#lines[index];
    return index === this.#lines.length ? this.#partial : undefined;
  }

  /** Where a wait without a cursor starts; undefined when this server neither typed into the pane nor waited on it since the watch began. */
  get unread(): UnreadMark | undefined {
    return this.#unread;
  }

  /** This server is about to send input into the pane: everything printed from here on is new to the next wait. */
  noteInput(interrupt = false): void {
    this.#setUnread({ position: this.end, reason: 'input', at: Date.now() });
    if (interrupt) this.#interruptedAt = this.end;
  }

  /** Where this server last pressed C-c in the pane, if it did while watching. */
  get interruptedAt(): StreamPosition | undefined {
    return this.#interruptedAt;
  }

  /** A wait or run reported the output up to `to`; the next wait without a cursor starts there, unless input came later. */
  consumed(to: StreamPosition): void {
    if (!this.#unread || before(this.#unread.position, to)) this.#setUnread({ position: to, reason: 'wait', at: Date.now() });
  }

  #setUnread(mark: UnreadMark): void {
    this.#unread = mark;
    this.onUnread?.(mark);
  }

  /** Calls `listener` synchronously on new output, on structural changes and when the stream ends. */
  listen(listener: (event: StreamEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  push(raw: string, ageMs = 0): void {
    if (this.#closed !== undefined) return;
    this.#lagMs = ageMs;
    const entries = this.#filter.alternateEntries;
    const at = this.end;
    const text = this.#filter.write(raw);
    if (this.#filter.alternateEntries !== entries) this.#lastAlternateEntry = at;
    const marks = this.#filter.takeMarks();
    if (marks.length === 0) {
      if (text.length === 0) return;
      this.#append(text);
    } else {
      // Each mark sits where it arrived, between the text before and after it.
      let from = 0;
      for (const raw of marks) {
        this.#append(text.slice(from, raw.offset));
        from = raw.offset;
        const mark = parseMark(raw.payload, this.end);
        if (mark) this.#marks.push(mark);
      }
      this.#append(text.slice(from));
      if (this.#marks.length > MAX_MARKS) {
        const drop = this.#marks.length - MAX_MARKS;
        this.#marks = this.#marks.slice(drop);
        this.#marksDropped += drop;
      }
    }
    this.#emit('output');
  }

  #append(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) {
        this.#partial += text.slice(start);
        while (this.#partial.length > MAX_LINE_CHARS) {
          this.#commit(this.#partial.slice(0, MAX_LINE_CHARS));
          this.#partial = this.#partial.slice(MAX_LINE_CHARS);
        }
        break;
      }
      let line = this.#partial + text.slice(start, nl);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      this.#partial = '';
      this.#commit(line);
      start = nl + 1;
    }
  }

  /** tmux dropped output not yet received: what follows is not the continuation of the unfinished line. */
  skip(): void {
    if (this.#closed !== undefined) return;
    if (this.#partial.length > 0) {
      this.#commit(this.#partial);
      this.#partial = '';
    }
    this.#skips++;
    this.#lastSkip = this.end;
    this.#lagMs = 0;
    this.#emit('skipped');
  }

  /** A notification from the control client. */
  notify(name: string): void {
    if (STRUCTURAL.has(name)) this.#emit('structure');
  }

  close(reason: string): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    this.#emit('closed');
    this.#listeners.clear();
  }

  #commit(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length;
    while (this.#lines.length - this.#head > MAX_LINES || (this.#chars > MAX_CHARS && this.#lines.length - this.#head > 1)) {
      this.#chars -= this.#lines[this.#head]!.length;
      this.#head++;
      this.#first++;
    }
    // Compact now and then instead of shifting on every drop.
    if (this.#head > 4096 && this.#head * 2 > this.#lines.length) {
      this.#lines = this.#lines.slice(this.#head);
      this.#head = 0;
    }
  }

  #emit(event: StreamEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }
}
