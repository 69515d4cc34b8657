/**
 * Plain text out of a terminal byte stream (pane `%output`): escape sequences removed, as a program
 * wrote it, so patterns can be matched and output read. Not a terminal emulator: only what changes
 * how text reads is kept (newline, carriage return, backspace, tab).
 */

const ESC = 0x1b;

const enum State {
  Text,
  Escape,
  /** ESC followed by intermediate bytes (charset designation and the like), until a final byte. */
  EscapeIntermediate,
  Csi,
  /** OSC, DCS, APC, PM, SOS: a string ended by BEL (OSC only) or ESC \. */
  String,
  StringEscape,
}

/** CSI finals that move the cursor to another row: text after them belongs to another line. */
const ROW_MOVES = new Set(['A', 'B', 'E', 'F', 'H', 'f', 'd']);
/** Private modes that switch to the alternate screen (full-screen programs: vim, less, top). */
const ALTERNATE_MODES = new Set(['1049', '1047', '47']);
/** Longest CSI parameter string kept to look for those modes; longer ones are no mode switch. */
const MAX_CSI_PARAMS = 64;
/** Longest OSC payload kept to look for semantic-prompt marks (OSC 133); longer ones are something else. */
const MAX_OSC_KEPT = 200;

/** A semantic-prompt mark (OSC 133) found in the stream: its payload after `133;`, and where in the filtered text it sat. */
export interface RawMark {
  readonly payload: string;
  readonly offset: number;
}

/**
 * Removes escape sequences from a stream, keeping state across chunks so a sequence cut in two is
 * still removed. Cursor moves to another row become a newline (when the current line has text), so
 * text a full-screen program draws at different places is not glued into one false line.
 */
export class EscapeFilter {
  #state = State.Text;
  #oscLike = false;
  #atLineStart = true;
  #csiParams = '';
  #alternate: boolean | undefined;
  #alternateEntries = 0;
  #osc = '';
  #marks: RawMark[] = [];

  /** Whether the program last switched to (true) or from (false) the alternate screen; undefined before any switch. */
  get alternate(): boolean | undefined {
    return this.#alternate;
  }

  /** How many times the program has switched to the alternate screen. */
  get alternateEntries(): number {
    return this.#alternateEntries;
  }

  /** The OSC 133 marks of the last write, with offsets into the text it returned (and forgets them). */
  takeMarks(): RawMark[] {
    const marks = this.#marks;
    if (marks.length > 0) this.#marks = [];
    return marks;
  }

  write(chunk: string): string {
    // Fast path: nothing to remove.
    if (this.#state === State.Text && !hasSpecial(chunk)) {
      if (chunk.length > 0) {
        const last = chunk.charCodeAt(chunk.length - 1);
        if (last === 0x0a) this.#atLineStart = true;
        else if (last >= 0x20) this.#atLineStart = false;
      }
      return chunk;
    }
    let out = '';
    let runStart = -1;
    const flush = (end: number) => {
      if (runStart !== -1) {
        out += chunk.slice(runStart, end);
        runStart = -1;
      }
    };
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      switch (this.#state) {
        case State.Text:
          if (code >= 0x20 && code !== 0x7f) {
            if (runStart === -1) runStart = i;
            this.#atLineStart = false;
            continue;
          }
          flush(i);
          if (code === ESC) this.#state = State.Escape;
          else if (code === 0x0a) {
            out += '\n';
            this.#atLineStart = true;
          } else if (code === 0x0d || code === 0x08 || code === 0x09) out += chunk[i];
          else if (code === 0x9b) this.#enterCsi(); // 8-bit CSI
          // Other C0 controls (BEL, SO, SI, NUL, DEL) print nothing.
          continue;
        case State.Escape:
          if (code === 0x5b /* [ */) this.#enterCsi();
          else if (
            code === 0x5d /* ] */ ||
            code === 0x50 /* P */ ||
            code === 0x5f /* _ */ ||
            code === 0x5e /* ^ */ ||
            code === 0x58 /* X */
          ) {
            this.#state = State.String;
            this.#oscLike = code === 0x5d;
            this.#osc = '';
          } else if (code >= 0x20 && code <= 0x2f) this.#state = State.EscapeIntermediate;
          else {
            // A two-byte sequence (ESC 7, ESC =, ESC M ...). ESC E is "next line"; ESC c resets
            // the terminal, which leaves the alternate screen.
            if (code === 0x45) out += this.#rowBreak();
            else if (code === 0x63 && this.#alternate) this.#alternate = false;
            this.#state = State.Text;
          }
          continue;
        case State.EscapeIntermediate:
          if (code >= 0x30 && code <= 0x7e) this.#state = State.Text;
          continue;
        case State.Csi:
          if (code >= 0x40 && code <= 0x7e) {
            this.#state = State.Text;
            const final = chunk[i]!;
            if (ROW_MOVES.has(final)) out += this.#rowBreak();
            else if (final === 'C' && !this.#atLineStart) out += ' ';
            else if (final === 'h' || final === 'l') this.#modeSwitch(final === 'h');
          } else if (this.#csiParams.length < MAX_CSI_PARAMS) this.#csiParams += chunk[i];
          continue;
        case State.String:
          if (code === 0x07 && this.#oscLike) {
            this.#state = State.Text;
            this.#endOsc(out.length);
          } else if (code === ESC) this.#state = State.StringEscape;
          else if (this.#oscLike && this.#osc.length <= MAX_OSC_KEPT) this.#osc += chunk[i];
          continue;
        case State.StringEscape:
          // ESC \ ends the string; any other ESC inside it starts a new sequence.
          if (code === 0x5b) this.#enterCsi();
          else if (code === 0x5c) {
            this.#state = State.Text;
            this.#endOsc(out.length);
          } else this.#state = State.String;
          continue;
      }
    }
    flush(chunk.length);
    return out;
  }

  /** An OSC string ended at `offset` of the text returned: a semantic-prompt mark is kept. */
  #endOsc(offset: number): void {
    if (this.#oscLike && this.#osc.startsWith('133;') && this.#osc.length <= MAX_OSC_KEPT)
      this.#marks.push({ payload: this.#osc.slice(4), offset });
    this.#osc = '';
  }

  #enterCsi(): void {
    this.#state = State.Csi;
    this.#csiParams = '';
  }

  /** `CSI ? Pm h` / `l`: notes switches to and from the alternate screen. */
  #modeSwitch(set: boolean): void {
    if (!this.#csiParams.startsWith('?')) return;
    if (
      !this.#csiParams
        .slice(1)
        .split(';')
        .some((mode) => ALTERNATE_MODES.has(mode))
    )
      return;
    if (set) this.#alternateEntries++;
    this.#alternate = set;
  }

  /** A newline for a move to another row, unless the line is still empty. */
  #rowBreak(): string {
    if (this.#atLineStart) return '';
    this.#atLineStart = true;
    return '\n';
  }
}

/** True when the text holds anything the filter must remove (newline, CR, tab and backspace are kept as they are). */
function hasSpecial(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 ? code !== 0x0a && code !== 0x0d && code !== 0x09 && code !== 0x08 : code === 0x7f || code === 0x9b) return true;
  }
  return false;
}

/**
 * One stored line as a person would read it: a carriage return goes back to the start of the line
 * and later text overwrites earlier text (progress bars), a backspace steps back one cell.
 */
export function renderLine(raw: string): string {
  if (raw.indexOf('\r') === -1 && raw.indexOf('\b') === -1) return raw;
  const cells: string[] = [];
  let col = 0;
  for (const ch of raw) {
    if (ch === '\r') col = 0;
    else if (ch === '\b') col = Math.max(0, col - 1);
    else cells[col++] = ch;
  }
  return cells.join('');
}
