/**
 * Reads one command's run from a shell with the integration: its start (mark C), its end (mark D,
 * with the status) and the output between, from the pane's stream. Only marks with the shell's
 * nonce and the digest of the very line typed count, numbered after the shell's latest line when it
 * was typed: a line typed ahead, a person's, an empty Enter, or output that replays old marks (a
 * log of this pane, a nested shell) can neither start nor end it.
 */
import type { PaneStream, StreamPosition } from '../../watch/pane-stream.js';
import { renderLine } from '../../read/terminal-text.js';
import { linesBetween } from '../../watch/watch-stream.js';
import type { ShellMark } from './marks.js';

/** zsh's PROMPT_SP: the end-of-line mark and a row of spaces it prints after output without a final newline. */
const PROMPT_SP = /[%#] *\r \r$/;

/** The latest mark of the shell with `nonce` the stream has seen, with its index. */
export function lastOwnMark(stream: PaneStream, nonce: string): ShellMark | undefined {
  const oldest = Math.max(0, stream.markCount - 1000);
  for (let i = stream.markCount - 1; i >= oldest; i--) {
    const mark = stream.mark(i);
    if (mark?.nonce === nonce) return mark;
  }
  return undefined;
}

export class MarkReader {
  readonly #stream: PaneStream;
  readonly #nonce: string;
  readonly #digest: string;
  /** The number of the shell's latest command line when this one was typed: a mark of that number or below is a replay. */
  readonly #after: number | undefined;
  /** The stream had seen the shell's prompt when this was typed (not lagging behind a flood). */
  readonly #atPrompt: boolean;
  #next: number;
  #n: number | undefined;
  #body: StreamPosition | undefined;
  #end: StreamPosition | undefined;
  status: number | null = null;
  /** Command lines the shell ran after this one was typed and before it (typed ahead, a person's): not this call's. */
  othersFirst = 0;

  /** `digest`: what the shell's marks carry for the line typed (typed-line.ts). */
  constructor(stream: PaneStream, nonce: string, digest: string) {
    this.#stream = stream;
    this.#nonce = nonce;
    this.#digest = digest;
    this.#next = stream.markCount;
    const last = lastOwnMark(stream, nonce);
    this.#after = last?.n;
    this.#atPrompt = last?.kind === 'A';
  }

  /** The shell's nonce, and the number of the command line once it started. */
  get nonce(): string {
    return this.#nonce;
  }

  get number(): number | undefined {
    return this.#n;
  }

  /** The shell started the command (mark C). */
  get started(): boolean {
    return this.#body !== undefined;
  }

  /** Where the command's end arrived, once read. */
  get endPosition(): StreamPosition | undefined {
    return this.#end;
  }

  /**
   * Whether an end the shell left elsewhere (the pane option) for command line `n` of `digest` is
   * this command's. Before its start was seen, only when the stream was at the shell's prompt when
   * it was typed: a stream still behind an earlier flood has that flood on screen above this end.
   */
  accepts(n: number, digest: string): boolean {
    if (this.#n !== undefined) return n === this.#n;
    return this.#atPrompt && digest === this.#digest && (this.#after === undefined || n > this.#after);
  }

  /** Looks at marks not yet seen; true once the end has been read. */
  scan(): boolean {
    if (this.#end !== undefined) return true;
    const stream = this.#stream;
    if (this.#next < stream.markCount - 1000) this.#next = stream.markCount - 1000; // dropped
    for (; this.#next < stream.markCount; this.#next++) {
      const mark = stream.mark(this.#next);
      if (!mark || mark.nonce !== this.#nonce || mark.n === undefined) continue;
      const fresh = this.#after === undefined || mark.n > this.#after;
      if (this.#body === undefined) {
        if (mark.kind === 'C' && fresh && mark.digest === this.#digest) {
          this.#n = mark.n;
          this.#body = mark.position;
        } else if (mark.kind === 'C' && fresh) this.othersFirst++;
        else if (mark.kind === 'A' && (this.#after === undefined || mark.n >= this.#after) && mark.digest === this.#digest) {
          // The shell read this very line and ran nothing (a syntax error): the next prompt names it.
          this.#body = mark.position;
          this.#end = mark.position;
          this.status = mark.status ?? null;
          this.#next++;
          return true;
        }
        continue;
      }
      if ((mark.kind === 'D' && mark.n === this.#n) || (mark.kind === 'A' && mark.n >= this.#n!)) {
        this.#end = mark.position;
        this.status = mark.status ?? null;
        this.#next++;
        return true;
      }
    }
    return false;
  }

  /** The command's output lines: from its start to its end, or to now while it runs. */
  output(): { lines: string[]; dropped: number; missed: boolean } {
    const stream = this.#stream;
    if (this.#body === undefined) return { lines: [], dropped: 0, missed: false };
    const end = this.#end ?? stream.end;
    const lines = linesBetween(stream, this.#body, end);
    if (end.col > 0 && lines.length > 0) {
      // What zsh printed for a last line without newline is not the command's.
      const raw = (stream.line(end.line) ?? '').slice(end.line === this.#body.line ? this.#body.col : 0, end.col);
      const kept = renderLine(raw.replace(PROMPT_SP, ''));
      if (kept.trim() === '') lines.pop();
      else lines[lines.length - 1] = kept;
    }
    const dropped = Math.max(this.#body.line, stream.firstLine) - this.#body.line;
    return { lines, dropped, missed: this.#body.line < stream.firstLine };
  }
}
