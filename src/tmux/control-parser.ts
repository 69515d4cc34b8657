/**
 * Streaming parser for tmux control-mode output (`tmux -C`).
 *
 * Bytes go in, in chunks of any size; events come out. A command reply is the body between
 * `%begin T N F` and the `%end`/`%error` carrying the very same `T N F` triple, so a body line that
 * merely looks like `%end` never closes a block. Everything outside a block is a notification.
 */

/** One command reply. `lines` are the raw body lines, without their newlines. */
export interface ControlReply {
  readonly ok: boolean;
  readonly time: string;
  readonly number: string;
  /** tmux sets bit 1 when the command came from this client; 0 marks the attach command's own block. */
  readonly flags: number;
  /** The body as one buffer: every line followed by a newline. */
  readonly body: Buffer;
  readonly lineCount: number;
  /** The body split into lines, made on first use (a deep capture has 100,000 of them). */
  readonly lines: Buffer[];
}

export type ControlEvent =
  | { readonly type: 'reply'; readonly reply: ControlReply }
  /**
   * `%output %N data` and `%extended-output %N age ... : data`, octal escapes already undone;
   * `ageMs`: how long tmux held the data before sending it (extended output only, else 0).
   */
  | { readonly type: 'output'; readonly paneId: string; readonly data: Buffer; readonly ageMs: number }
  | { readonly type: 'exit'; readonly reason: string }
  /** Any other notification, kept whole: `name` without the `%`, `args` the rest of the line. */
  | { readonly type: 'notification'; readonly name: string; readonly args: string };

export interface ControlParserOptions {
  /** Longest line kept; the excess of a longer one is dropped. Default 64 MiB. */
  readonly maxLineBytes?: number;
  /** Most body lines kept for one reply. Default 4,000,000. */
  readonly maxReplyLines?: number;
  /** Called for a pane's %output; returning false skips the unescaping work for unwatched panes. */
  readonly wantsOutput?: (paneId: string) => boolean;
}

const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const NEWLINE_BYTES = Buffer.from('\n');

/**
 * A reply being read. Body lines are not cut into one buffer each: runs of whole lines are kept as
 * slices of the chunks they arrived in and joined once at the end, which is what makes a capture
 * of many lines cheap (per-line buffers would cost more in garbage collection than the parsing).
 */
interface Block {
  readonly time: string;
  readonly number: string;
  readonly flags: string;
  readonly segments: Buffer[];
  bytes: number;
  count: number;
}

export class ControlParser {
  readonly #emit: (event: ControlEvent) => void;
  readonly #maxLineBytes: number;
  readonly #maxReplyLines: number;
  readonly #wantsOutput: (paneId: string) => boolean;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #block: Block | undefined;

  constructor(emit: (event: ControlEvent) => void, options: ControlParserOptions = {}) {
    this.#emit = emit;
    this.#maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024;
    this.#maxReplyLines = options.maxReplyLines ?? 4_000_000;
    this.#wantsOutput = options.wantsOutput ?? (() => true);
  }

  /** True while a `%begin` has been read and its closing line has not. */
  get inReply(): boolean {
    return this.#block !== undefined;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      if (this.#block && this.#pending.length === 0) {
        start = this.#body(chunk, start, this.#block);
        continue;
      }
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.#keep(chunk.subarray(start));
        return;
      }
      let line = chunk.subarray(start, nl);
      if (this.#pending.length > 0) {
        this.#keep(line);
        line = Buffer.concat(this.#pending, this.#pendingBytes);
        this.#pending = [];
        this.#pendingBytes = 0;
      }
      this.#line(line);
      start = nl + 1;
    }
  }

  /**
   * Reads whole body lines of `block` from `chunk` at `start` and returns where it stopped: after
   * the block's closing line, or at the end of the chunk (a cut line is kept for the next chunk).
   */
  #body(chunk: Buffer, start: number, block: Block): number {
    let keepFrom = start; // first byte of the run of body bytes not yet saved as a segment
    let pos = start;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, pos);
      if (nl === -1) {
        this.#segment(block, chunk, keepFrom, pos);
        if (pos < chunk.length) this.#keep(chunk.subarray(pos));
        return chunk.length;
      }
      const cr = nl > pos && chunk[nl - 1] === 0x0d;
      const end = cr ? nl - 1 : nl;
      const closed = chunk[pos] === 0x25 /* % */ ? this.#closes(chunk.subarray(pos, end), block) : undefined;
      if (closed !== undefined) {
        this.#segment(block, chunk, keepFrom, pos);
        this.#finish(block, closed);
        return nl + 1;
      }
      if (block.count >= this.#maxReplyLines) {
        // Over the bound: this line is dropped, so the run of kept bytes ends before it.
        this.#segment(block, chunk, keepFrom, pos);
        keepFrom = nl + 1;
      } else {
        block.count++;
        if (cr) {
          // The line's own carriage return is not part of it: save up to it, then the newline.
          this.#segment(block, chunk, keepFrom, end);
          this.#segment(block, NEWLINE_BYTES, 0, 1);
          keepFrom = nl + 1;
        }
      }
      pos = nl + 1;
    }
  }

  #segment(block: Block, chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    block.segments.push(chunk.subarray(from, to));
    block.bytes += to - from;
  }

  /** Holds the start of a line that the chunk cut; bounded so a line without end cannot grow memory. */
  #keep(part: Buffer): void {
    const room = this.#maxLineBytes - this.#pendingBytes;
    if (room <= 0) return;
    // Copy: the chunk's memory belongs to the stream and is reused.
    const kept = Buffer.from(part.length > room ? part.subarray(0, room) : part);
    this.#pending.push(kept);
    this.#pendingBytes += kept.length;
  }

  #line(raw: Buffer): void {
    const line = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
    const block = this.#block;
    if (block) {
      // A body line that arrived in pieces (the usual lines go through #body).
      const closed = line[0] === 0x25 /* % */ ? this.#closes(line, block) : undefined;
      if (closed !== undefined) {
        this.#finish(block, closed);
        return;
      }
      if (block.count < this.#maxReplyLines) {
        block.count++;
        this.#segment(block, line, 0, line.length);
        this.#segment(block, NEWLINE_BYTES, 0, 1);
      }
      return;
    }
    if (line[0] !== 0x25) return; // stray text outside a block: nothing to route it to
    const text = line.toString('latin1');
    const space = text.indexOf(' ');
    const name = space === -1 ? text.slice(1) : text.slice(1, space);
    const args = space === -1 ? '' : text.slice(space + 1);
    switch (name) {
      case 'begin': {
        const [time = '', number = '', flags = '0'] = args.split(' ');
        this.#block = { time, number, flags, segments: [], bytes: 0, count: 0 };
        return;
      }
      case 'output':
        this.#output(line, 8 /* "%output ".length */);
        return;
      case 'extended-output': {
        // %extended-output %N age ... : data
        const colon = text.indexOf(' : ');
        if (colon !== -1) this.#output(line, 17, colon + 3, Number(args.split(' ', 2)[1]) || 0);
        return;
      }
      case 'exit':
        this.#emit({ type: 'exit', reason: args });
        return;
      default:
        this.#emit({ type: 'notification', name, args: Buffer.from(args, 'latin1').toString('utf8') });
    }
  }

  /** Whether `line` closes `block` (same time, number and flags): true for `%end`, false for `%error`, undefined when it does not. */
  #closes(line: Buffer, block: Block): boolean | undefined {
    const text = line.toString('latin1');
    let ok: boolean;
    if (text.startsWith('%end ')) ok = true;
    else if (text.startsWith('%error ')) ok = false;
    else return undefined;
    return text.slice(ok ? 5 : 7) === `${block.time} ${block.number} ${block.flags}` ? ok : undefined;
  }

  #finish(block: Block, ok: boolean): void {
    this.#block = undefined;
    const body = block.segments.length === 1 ? block.segments[0]! : Buffer.concat(block.segments, block.bytes);
    const lineCount = block.count;
    let lines: Buffer[] | undefined;
    this.#emit({
      type: 'reply',
      reply: {
        ok,
        time: block.time,
        number: block.number,
        flags: Number(block.flags),
        body,
        lineCount,
        get lines() {
          return (lines ??= splitBody(body, lineCount));
        },
      },
    });
  }

  #output(line: Buffer, paneStart: number, dataStart?: number, ageMs = 0): void {
    let paneEnd = line.indexOf(0x20, paneStart);
    if (paneEnd === -1) paneEnd = line.length;
    const paneId = line.toString('latin1', paneStart, paneEnd);
    if (!this.#wantsOutput(paneId)) return;
    const from = dataStart ?? Math.min(paneEnd + 1, line.length);
    this.#emit({ type: 'output', paneId, data: unescapeOctal(line.subarray(from)), ageMs });
  }
}

/** Undo tmux's control-mode escaping: every byte < 0x20 and the backslash arrive as `\ooo`. */
export function unescapeOctal(data: Buffer): Buffer {
  let i = data.indexOf(BACKSLASH);
  if (i === -1) return data;
  const out = Buffer.allocUnsafe(data.length);
  data.copy(out, 0, 0, i);
  let o = i;
  while (i < data.length) {
    const byte = data[i]!;
    if (byte === BACKSLASH && i + 3 < data.length && isOctal(data[i + 1]) && isOctal(data[i + 2]) && isOctal(data[i + 3])) {
      out[o++] = ((data[i + 1]! - 48) << 6) | ((data[i + 2]! - 48) << 3) | (data[i + 3]! - 48);
      i += 4;
    } else {
      out[o++] = byte;
      i += 1;
    }
  }
  return out.subarray(0, o);
}

function isOctal(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 48 && byte <= 55;
}

/** The lines of a reply body in which every line ends with a newline. */
function splitBody(body: Buffer, count: number): Buffer[] {
  const lines: Buffer[] = new Array(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const nl = body.indexOf(NEWLINE, start);
    lines[i] = body.subarray(start, nl);
    start = nl + 1;
  }
  return lines;
}
